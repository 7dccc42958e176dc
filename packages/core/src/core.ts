import {
  checkShoeChain,
  exportAudit,
  playerHistory,
  recallPlayerRounds,
  replayRound,
  shoeProof,
} from './audit';
import { ggrReport } from './reports';
import {
  closeRoundBetting,
  getRound,
  leaveTable,
  openRound,
  placeBet,
  resolveRound,
  runSettlementBatch,
  setResponsibleGamingAndCancel,
  setTableAvailability,
  voidRound,
  withdrawBets,
} from './rounds';
import {
  deliverSeamlessTx,
  getSeamlessReport,
  listSeamlessTransactions,
  reconcileSeamlessDay,
} from './seamless';
import type { Core } from './shared';
import { type CoreDeps, context } from './shared';
import {
  abandonShoe,
  checkCloseDeadline,
  closeShoe,
  contributeSeed,
  getShoe,
  listShoes,
  openShoe,
  signingKey,
} from './shoes';
import {
  availabilityLog,
  controlCadence,
  createTable,
  getTable,
  listTableEvents,
  unlockTable,
} from './tables';
import {
  getLedger,
  getOperatorWallet,
  getResponsibleGaming,
  getWallet,
  setOperatorWallet,
  walletTransaction,
} from './wallet';

export type { CoreDeps };

/** The use cases, wired to their ports. One instance per process (it caches shoe orders). */
export function createCore(deps: CoreDeps): Core {
  const ctx = context(deps);
  return {
    createTable: (actor, input) => createTable(ctx, actor, input),
    getTable: (actor, input) => getTable(ctx, actor, input),
    unlockTable: (actor, input) => unlockTable(ctx, actor, input),
    controlCadence: (actor, input) => controlCadence(ctx, actor, input),
    listTableEvents: (actor, input) => listTableEvents(ctx, actor, input),
    setTableAvailability: (actor, input) => setTableAvailability(ctx, actor, input),
    availabilityLog: (actor, input) => availabilityLog(ctx, actor, input),
    ggrReport: (actor, input) => ggrReport(ctx, actor, input),
    openShoe: (actor, input) => openShoe(ctx, actor, input),
    getShoe: (actor, input) => getShoe(ctx, actor, input),
    closeShoe: (actor, input) => closeShoe(ctx, actor, input),
    abandonShoe: (actor, input) => abandonShoe(ctx, actor, input),
    contributeSeed: (actor, input) => contributeSeed(ctx, actor, input),
    listShoes: (actor, input) => listShoes(ctx, actor, input),
    shoeProof: (input) => shoeProof(ctx, input),
    openRound: (actor, input) => openRound(ctx, actor, input),
    getRound: (actor, input) => getRound(ctx, actor, input),
    placeBet: (actor, input) => placeBet(ctx, actor, input),
    withdrawBets: (actor, input) => withdrawBets(ctx, actor, input),
    closeBetting: (actor, input) => closeRoundBetting(ctx, actor, input),
    resolveRound: (actor, input) => resolveRound(ctx, actor, input),
    voidRound: (actor, input) => voidRound(ctx, actor, input),
    leaveTable: (actor, input) => leaveTable(ctx, actor, input),
    walletTransaction: (actor, input) => walletTransaction(ctx, actor, input),
    getWallet: (actor, input) => getWallet(ctx, actor, input),
    getLedger: (actor, input) => getLedger(ctx, actor, input),
    // With an exclusion in force, the player's open bets are cancelled too (rounds/exclusion.ts).
    setResponsibleGaming: (actor, input) => setResponsibleGamingAndCancel(ctx, actor, input),
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
