export * from './actor';
export * from './api';
export * from './auth';
export { checkAmount, checkCurrency, checkId, checkPlayerId, checkText } from './checks';
export { type Ctx, context, type RoundFacts, withDeadline } from './context';
export { timeRange, utcDay } from './days';
export * from './deadline';
export { type CoreDeps, type OperatorCache, operatorCache } from './deps';
export * from './errors';
export * from './idempotency';
export { checkIdempotencyKey, keyReused, requestHash } from './idempotency/key';
export { LockingFailure, RandomnessFailure, TimeStampFailure } from './key-failures';
export * from './ledger-keys';
export {
  BATCH_RESEND_MS,
  CACHE_SIZES,
  INLINE_SETTLE_MAX,
  OPERATOR_TTL_MS,
  SETTLE_BATCH_SIZE,
} from './limits';
export { Lru } from './lru';
export type * from './model';
export * from './ports/audit-archive';
export * from './ports/beacon';
export * from './ports/cadence-runner';
export * from './ports/close-deadlines';
export * from './ports/feed-files';
export {
  InProcessOutboxQueue,
  type InProcessQueueOptions,
  InProcessSettlementQueue,
} from './ports/in-process-queue';
export * from './ports/key-service';
export * from './ports/live-publisher';
export * from './ports/metrics';
export * from './ports/outbox-queue';
export * from './ports/round-deadlines';
export * from './ports/runtime';
export * from './ports/settlement-queue';
export * from './ports/store';
export * from './ports/time-stamps';
export * from './ports/wallet';
export { conflict, invalid, shoeAbandoned, unavailable } from './problems';
export type * from './replay-types';
export { attempts, backoff, mapBounded, tooMuchContention, tryTransact, writeOnce } from './retry';
export { same } from './same-json';
export { ShoeDecks } from './shoe-decks';
export { sumOf } from './stakes';
export {
  type Access,
  actsFor,
  guard,
  operatorTables,
  readableOperator,
  requireWriter,
  walletOperator,
  withinScope,
} from './tenancy';
export {
  ledgerEntryView,
  positionView,
  publicAnchor,
  publicCertificate,
  roundView,
  shoeSummaryView,
  shoeView,
  tableView,
  walletView,
} from './views';
export { walletOfMark } from './wallet-marks';
