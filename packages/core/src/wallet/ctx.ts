import type { Ctx } from '../shared';

/**
 * What the wallet context reads of the process context (Ctx): the store, the time, the operator cache,
 * and the settlement settings (collecting a shoe's debts settles in batches like a round).
 */
export type WalletCtx = Pick<
  Ctx,
  | 'store'
  | 'clock'
  | 'now'
  | 'operators'
  | 'deadline'
  | 'inlineSettleMax'
  | 'queue'
  | 'settleBatchSize'
  | 'settleConcurrency'
>;
