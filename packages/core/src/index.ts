export { onFirstUse } from '@pyb/engine';
export { RULES_VERSION } from '@pyb/fairness';
export * from './actor';
export * from './api';
export * from './auth';
export * from './core';
export * from './deadline';
export * from './errors';
export * from './feed/format';
export * from './feed/records';
export { DEFAULT_BET_GATES, gateOf, MAX_BET_GATES } from './gates';
export * from './idempotency';
export * from './ledger-keys';
export { Lru } from './lru';
export type * from './model';
export * from './ports/audit-archive';
export * from './ports/beacon';
export * from './ports/close-deadlines';
export * from './ports/feed-files';
export * from './ports/key-service';
export * from './ports/metrics';
export * from './ports/outbox-queue';
export * from './ports/runtime';
export * from './ports/settlement-queue';
export * from './ports/store';
export * from './ports/wallet';
export type * from './replay/types';
export { tooMuchContention } from './retry';
export * from './seamless-tx';
export {
  InProcessOutboxQueue,
  InProcessQueue,
  type InProcessQueueOptions,
  InProcessSettlementQueue,
} from './settlement/in-process-queue';
export * from './use-cases/archive-shoe';
export { MAX_POSITION_CALLS, SEAT_IDLE_COUPS } from './use-cases/bets';
export {
  BATCH_RESEND_MS,
  CACHE_SIZES,
  INLINE_SETTLE_MAX,
  OPERATOR_TTL_MS,
  SETTLE_BATCH_SIZE,
} from './use-cases/context';
export * from './use-cases/scoreboard';
export { MAX_SEAMLESS_POSITION_CALLS } from './use-cases/seamless-bets';
export {
  DEBIT_ABANDON_MS,
  SeamlessDeliveryPending,
} from './use-cases/seamless-delivery';
export * from './use-cases/seats';
export { ledgerBody, walletGenesis } from './wallet-ledger';
