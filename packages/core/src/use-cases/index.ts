/**
 * Each use case on its own, with the context they share (`context(deps)`): a Lambda function imports
 * only the use case it runs, so its bundle holds only that use case's code (createCore, in core.ts,
 * wires them all for one process: the local server's seeding, tests, the CLI).
 */
export { placeBet, withdrawBets } from './bets';
export { checkShoeChain } from './check-chain';
export { checkCloseDeadline } from './close-deadline';
export {
  type CoreDeps,
  type Ctx,
  context,
  OPERATOR_TTL_MS,
  type OperatorCache,
  operatorCache,
  withDeadline,
} from './context';
export { contributeSeed } from './contributions';
export { exportAudit, shoeProof } from './export-audit';
export {
  exportFeed,
  FEED_FILES,
  FEED_LIST_MAX_DAYS,
  FEED_MAX_BYTES,
  FEED_MAX_RANGE_MS,
  feedFileKey,
  feedRecords,
  getFeedFile,
  listFeedFiles,
  writeDailyFeed,
  yesterday,
} from './feed';
export { ggrReport } from './ggr';
export { leaveTable } from './leave';
export { listTableEvents, unlockTable } from './lock-out';
export { getOperatorWallet, operatorOf, setOperatorWallet } from './operators';
export { playerHistory } from './player-history';
export { recallPlayerRounds } from './player-rounds';
export { replayRound } from './replay';
export { resolveRound } from './resolve';
export { getResponsibleGaming, setResponsibleGaming } from './responsible-gaming';
export { getRound, openRound } from './rounds';
export { getScoreboard } from './scoreboard';
export { MAX_SEAMLESS_POSITION_CALLS } from './seamless-bets';
export {
  abandonDebit,
  DEBIT_ABANDON_MS,
  deliverSeamlessTx,
  SeamlessDeliveryPending,
  sendToOutbox,
} from './seamless-delivery';
export {
  getSeamlessReport,
  listSeamlessTransactions,
  reconcileSeamlessDay,
} from './seamless-reconciliation';
export { getSeats } from './seats';
export { runSettlementBatch } from './settlement-batch';
export { listShoes } from './shoe-list';
export { closeShoe, getShoe, openShoe } from './shoes';
export { signingKey } from './signing-key';
export { createTable, getTable } from './tables';
export { voidRound } from './void';
export { getLedger, getWallet, walletTransaction } from './wallets';
