/**
 * `@pyb/core`: the composition (`createCore`), the shared kernel (records, ports, errors,
 * authentication, idempotency, the API's types) and what adapters, functions and tools need of the
 * other contexts. The use cases one at a time: `@pyb/core/use-cases`.
 */
export { onFirstUse } from '@pyb/engine';
export { RULES_VERSION } from '@pyb/fairness';
export * from './core';
export * from './live';
export {
  type ArchiveCheck,
  betRecord,
  csvHeader,
  encodeFeed,
  FEED_COLUMNS,
  FEED_MEDIA_TYPES,
  type FeedFormat,
  type FeedRecord,
  type FeedRecordType,
  FeedSummary,
  type FeedTotals,
  type MissingShoe,
  movementRecord,
  refundRecord,
  roundRecord,
  seamlessCollectionRecord,
  settlementRecord,
  shoeRecord,
} from './reports';
export { MAX_POSITION_CALLS, MAX_SEAMLESS_POSITION_CALLS } from './rounds';
export {
  betRefOf,
  creditPart,
  creditTxIdOf,
  DEBIT_ABANDON_MS,
  debitRequest,
  debitTxIdOf,
  isPendingState,
  referencesOf,
  rollbackParts,
  SeamlessDeliveryPending,
  stakePart,
  withdrawTxIdOf,
} from './seamless';
export * from './shared';
export {
  type ArchiveShoeDeps,
  type ArchiveShoeOutcome,
  archiveClosedShoe,
  archiveKey,
  shoeWasPlayed,
} from './shoes';
export { DEFAULT_BET_GATES, gateOf, getScoreboard, getSeats, MAX_BET_GATES, seatIdle } from './tables';
export { ledgerBody, walletGenesis } from './wallet';
