import type { Core } from './api';
import { placeBet, withdrawBets } from './use-cases/bets';
import { checkShoeChain } from './use-cases/check-chain';
import { checkCloseDeadline } from './use-cases/close-deadline';
import { type CoreDeps, context } from './use-cases/context';
import { contributeSeed } from './use-cases/contributions';
import { exportAudit, shoeProof } from './use-cases/export-audit';
import { ggrReport } from './use-cases/ggr';
import { leaveTable } from './use-cases/leave';
import { listTableEvents, unlockTable } from './use-cases/lock-out';
import { getOperatorWallet, setOperatorWallet } from './use-cases/operators';
import { playerHistory } from './use-cases/player-history';
import { recallPlayerRounds } from './use-cases/player-rounds';
import { replayRound } from './use-cases/replay';
import { resolveRound } from './use-cases/resolve';
import { getResponsibleGaming, setResponsibleGaming } from './use-cases/responsible-gaming';
import { getRound, openRound } from './use-cases/rounds';
import { deliverSeamlessTx } from './use-cases/seamless-delivery';
import {
  getSeamlessReport,
  listSeamlessTransactions,
  reconcileSeamlessDay,
} from './use-cases/seamless-reconciliation';
import { runSettlementBatch } from './use-cases/settlement-batch';
import { listShoes } from './use-cases/shoe-list';
import { closeShoe, getShoe, openShoe } from './use-cases/shoes';
import { signingKey } from './use-cases/signing-key';
import { createTable, getTable } from './use-cases/tables';
import { voidRound } from './use-cases/void';
import { getLedger, getWallet, walletTransaction } from './use-cases/wallets';

export type { CoreDeps };

/** The use cases, wired to their ports. One instance per process (it caches shoe orders). */
export function createCore(deps: CoreDeps): Core {
  const ctx = context(deps);
  return {
    createTable: (actor, input) => createTable(ctx, actor, input),
    getTable: (actor, input) => getTable(ctx, actor, input),
    unlockTable: (actor, input) => unlockTable(ctx, actor, input),
    listTableEvents: (actor, input) => listTableEvents(ctx, actor, input),
    ggrReport: (actor, input) => ggrReport(ctx, actor, input),
    openShoe: (actor, input) => openShoe(ctx, actor, input),
    getShoe: (actor, input) => getShoe(ctx, actor, input),
    closeShoe: (actor, input) => closeShoe(ctx, actor, input),
    contributeSeed: (actor, input) => contributeSeed(ctx, actor, input),
    listShoes: (actor, input) => listShoes(ctx, actor, input),
    shoeProof: (input) => shoeProof(ctx, input),
    openRound: (actor, input) => openRound(ctx, actor, input),
    getRound: (actor, input) => getRound(ctx, actor, input),
    placeBet: (actor, input) => placeBet(ctx, actor, input),
    withdrawBets: (actor, input) => withdrawBets(ctx, actor, input),
    resolveRound: (actor, input) => resolveRound(ctx, actor, input),
    voidRound: (actor, input) => voidRound(ctx, actor, input),
    leaveTable: (actor, input) => leaveTable(ctx, actor, input),
    walletTransaction: (actor, input) => walletTransaction(ctx, actor, input),
    getWallet: (actor, input) => getWallet(ctx, actor, input),
    getLedger: (actor, input) => getLedger(ctx, actor, input),
    setResponsibleGaming: (actor, input) => setResponsibleGaming(ctx, actor, input),
    getResponsibleGaming: (actor, input) => getResponsibleGaming(ctx, actor, input),
    checkShoeChain: (actor, input) => checkShoeChain(ctx, actor, input),
    replayRound: (actor, input) => replayRound(ctx, actor, input),
    recallPlayerRounds: (actor, input) => recallPlayerRounds(ctx, actor, input),
    playerHistory: (actor, input) => playerHistory(ctx, actor, input),
    exportAudit: (actor, input) => exportAudit(ctx, actor, input),
    runSettlementBatch: (batch) => runSettlementBatch(ctx, batch),
    deliverSeamlessTx: (txId) => deliverSeamlessTx(ctx, txId),
    listSeamlessTransactions: (actor, input) => listSeamlessTransactions(ctx, actor, input),
    getSeamlessReport: (actor, input) => getSeamlessReport(ctx, actor, input),
    reconcileSeamlessDay: (input) => reconcileSeamlessDay(ctx, input),
    getOperatorWallet: (actor, input) => getOperatorWallet(ctx, actor, input),
    setOperatorWallet: (actor, input) => setOperatorWallet(ctx, actor, input),
    signingKey: (input) => signingKey(ctx, input),
    checkCloseDeadline: (input) => checkCloseDeadline(ctx, input),
  };
}
