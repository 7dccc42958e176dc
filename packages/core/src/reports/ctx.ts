import type { Ctx } from '../shared';

/** What the reports read of the process context (Ctx): the store, the time, the deadline. */
export type ReportsCtx = Pick<Ctx, 'store' | 'now' | 'deadline'>;
