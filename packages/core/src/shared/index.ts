export * from './actor';
export * from './api';
export * from './auth';
export {
  type Access,
  BATCH_RESEND_MS,
  CACHE_SIZES,
  type CoreDeps,
  type Ctx,
  checkAmount,
  checkCurrency,
  checkId,
  checkIdempotencyKey,
  checkPlayerId,
  checkText,
  conflict,
  context,
  guard,
  INLINE_SETTLE_MAX,
  invalid,
  keyReused,
  OPERATOR_TTL_MS,
  type OperatorCache,
  operatorCache,
  type RoundFacts,
  requestHash,
  requireWriter,
  SETTLE_BATCH_SIZE,
  unavailable,
  walletOperator,
  withDeadline,
} from './context';
export { utcDay } from './days';
export * from './deadline';
export * from './errors';
export * from './idempotency';
export { LockingFailure, RandomnessFailure } from './key-failures';
export * from './ledger-keys';
export { Lru } from './lru';
export type * from './model';
export * from './ports/audit-archive';
export * from './ports/beacon';
export * from './ports/close-deadlines';
export * from './ports/feed-files';
export {
  InProcessOutboxQueue,
  InProcessQueue,
  type InProcessQueueOptions,
  InProcessSettlementQueue,
} from './ports/in-process-queue';
export * from './ports/key-service';
export * from './ports/metrics';
export * from './ports/outbox-queue';
export * from './ports/runtime';
export * from './ports/settlement-queue';
export * from './ports/store';
export * from './ports/wallet';
export type * from './replay-types';
export { attempts, backoff, mapBounded, tooMuchContention, tryTransact } from './retry';
export { same } from './same-json';
export { ShoeDecks } from './shoe-decks';
export { sumOf } from './stakes';
export { operatorTables, readableOperator } from './tenancy';
export {
  ledgerEntryView,
  positionView,
  roundView,
  shoeSummaryView,
  shoeView,
  tableView,
  walletView,
} from './views';
