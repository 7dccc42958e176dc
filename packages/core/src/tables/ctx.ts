import type { Ctx } from '../shared';

/** What the tables context reads of the process context (Ctx): its store, ids, time and metrics. */
export type TablesCtx = Pick<Ctx, 'store' | 'ids' | 'metrics' | 'now' | 'deadline'>;
