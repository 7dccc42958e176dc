import type { Ctx } from '../shared';

/** What the seamless context reads of the process context (Ctx): the store, the wallets and the outbox. */
export type SeamlessCtx = Pick<
  Ctx,
  'store' | 'clock' | 'metrics' | 'now' | 'outbox' | 'wallets' | 'deadline' | 'operators'
>;
