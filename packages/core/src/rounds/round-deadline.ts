/**
 * When a round's interrupted-game check is due (docs/rules.md, "Interrupted games"): each state a round
 * can stick in has its deadline, counted from when the round entered it; the check is scheduled when
 * the round opens and reschedules itself (deadlines.ts).
 */
import type { Ctx, DeadlineState, RoundRecord, RoundStatus } from '../shared';

/** The deadline each stored status counts towards (none: the round is finished). */
const STATE_OF: Record<RoundStatus, DeadlineState | undefined> = {
  OPEN: 'OPEN',
  CLOSED: 'CLOSED',
  DEALT: 'SETTLING',
  SETTLING: 'SETTLING',
  VOIDING: 'SETTLING',
  SETTLED: undefined,
  VOIDED: undefined,
};

/** When the round entered its current state, and so when that state's deadline falls. */
export function roundDeadline(
  ctx: Pick<Ctx, 'roundDeadlineSeconds'>,
  round: RoundRecord,
): { state: DeadlineState; since: string; dueAt: string } | undefined {
  const state = STATE_OF[round.status];
  if (!state) return undefined;
  const since =
    state === 'OPEN'
      ? round.openedAt
      : state === 'CLOSED'
        ? (round.closedAt ?? round.openedAt)
        : (round.voidedAt ?? round.dealtAt ?? round.closedAt ?? round.openedAt);
  const dueAt = new Date(Date.parse(since) + ctx.roundDeadlineSeconds[state] * 1000).toISOString();
  return { state, since, dueAt };
}

export const refOf = (round: RoundRecord) => ({
  roundId: round.roundId,
  tableId: round.tableId,
  operatorId: round.operatorId,
});

/** Schedules the check of a round for the deadline of the state it is in (idempotent: one per deadline). */
export async function scheduleRoundDeadline(ctx: Ctx, round: RoundRecord): Promise<void> {
  const due = roundDeadline(ctx, round);
  if (due) await ctx.roundDeadlines.schedule(refOf(round), due.state, due.dueAt);
}
