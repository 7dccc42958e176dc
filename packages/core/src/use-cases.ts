/**
 * Each use case on its own, with the context they share (`context(deps)`): a Lambda function imports
 * only the use case it runs, so its bundle holds only that use case's code (createCore, in core.ts,
 * wires them all for one process: the local server's seeding, tests, the CLI). Grouped by the
 * bounded context that owns them (docs/architecture.md, "The core's bounded contexts").
 */
export {
  checkShoeChain,
  exportAudit,
  playerHistory,
  recallPlayerRounds,
  replayRound,
  shoeProof,
} from './audit';
export {
  checkArchive,
  exportFeed,
  feedFileKey,
  feedRecords,
  getFeedFile,
  ggrReport,
  listFeedFiles,
  writeDailyFeed,
  yesterday,
} from './reports';
export {
  type CadenceState,
  CadenceStepError,
  cadenceClose,
  cadenceDeal,
  cadenceLock,
  cadenceNext,
  cadenceOpen,
  cadenceOpenShoe,
  cadenceSettle,
  closeRoundBetting,
  enforceRoundDeadline,
  getRound,
  leaveTable,
  MAX_SEAMLESS_POSITION_CALLS,
  openRound,
  placeBet,
  ROUND_DEADLINE_KEY,
  type RoundDeadlineCheck,
  resolveRound,
  roundDeadline,
  runCadenceStep,
  runSettlementBatch,
  setResponsibleGamingAndCancel,
  setTableAvailability,
  voidRound,
  withdrawBets,
} from './rounds';
export {
  abandonDebit,
  DEBIT_ABANDON_MS,
  deliverSeamlessTx,
  getSeamlessReport,
  listSeamlessTransactions,
  reconcileSeamlessDay,
  SeamlessDeliveryPending,
  sendToOutbox,
} from './seamless';
export {
  type CoreDeps,
  type Ctx,
  context,
  OPERATOR_TTL_MS,
  type OperatorCache,
  operatorCache,
  withDeadline,
} from './shared';
export {
  abandonShoe,
  checkCloseDeadline,
  closeShoe,
  contributeSeed,
  getShoe,
  listShoes,
  openShoe,
  signingKey,
} from './shoes';
export {
  availabilityLog,
  controlCadence,
  createTable,
  getScoreboard,
  getSeats,
  getTable,
  getTableHelp,
  listTableEvents,
  unlockTable,
} from './tables';
export {
  getLedger,
  getOperatorWallet,
  getResponsibleGaming,
  getWallet,
  operatorOf,
  setOperatorWallet,
  setResponsibleGaming,
  walletTransaction,
} from './wallet';
