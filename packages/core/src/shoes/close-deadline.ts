/**
 * An ended shoe must be closed — its seed revealed — in time (docs/provably-fair.md §10): when the cut
 * card ends it, a check is scheduled `closeDeadlineSeconds` later (EventBridge Scheduler on AWS); the
 * check reports a shoe still not closed, and the function running it raises the alarm.
 */

import type { CloseDeadlineCheck, Ctx, ShoeRecord } from '../shared';

/** Schedules the check (idempotent per shoe); before the deal commits, so no ended shoe goes unwatched. */
export async function scheduleCloseDeadline(ctx: Ctx, shoe: ShoeRecord, endedAt: string): Promise<void> {
  const due = new Date(Date.parse(endedAt) + ctx.closeDeadlineSeconds * 1000).toISOString();
  await ctx.closeDeadlines.schedule(
    { shoeId: shoe.shoeId, tableId: shoe.tableId, operatorId: shoe.operatorId },
    due,
  );
}

/** Whether the shoe was closed by its deadline (a deleted shoe counts as not closed). */
export async function checkCloseDeadline(ctx: Ctx, input: { shoeId: string }): Promise<CloseDeadlineCheck> {
  const shoe = await ctx.store.get('shoe', { shoeId: input.shoeId });
  if (!shoe) {
    return {
      shoeId: input.shoeId,
      closedInTime: false,
      status: 'MISSING',
      endedAt: null,
      detail: `shoe ${input.shoeId} ended but is not stored any more`,
    };
  }
  const closedInTime = shoe.status === 'CLOSED' || shoe.status === 'OPEN';
  return {
    shoeId: shoe.shoeId,
    closedInTime,
    status: shoe.status,
    endedAt: shoe.endedAt ?? null,
    detail: closedInTime
      ? `shoe ${shoe.shoeId} is ${shoe.status}`
      : `shoe ${shoe.shoeId} of table ${shoe.tableId} ended at ${shoe.endedAt} and is still ${shoe.status}: its seed is not revealed`,
  };
}
