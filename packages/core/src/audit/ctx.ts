import type { Ctx } from '../shared';

/** What the audit context reads of the process context (Ctx): the store, the keys and their certificates, the operator cache. */
export type AuditCtx = Pick<
  Ctx,
  'store' | 'deadline' | 'now' | 'keys' | 'certificates' | 'clock' | 'operators'
>;
