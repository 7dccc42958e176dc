/**
 * Interrupted games (docs/rules.md, "Interrupted games"): a round that stays in one state past that
 * state's deadline is acted on as the published policy says, by the platform itself — betting that
 * was never closed, or a coup never dealt: the round is voided and every stake refunded; a coup dealt
 * but not settled (or a void not finished): its settlement (its refunds) is finished. When a round
 * opens, its check is scheduled (EventBridge Scheduler); the check reschedules itself for the state
 * the round is in when it runs, so each state is watched from when the round entered it.
 */
import type { Actor, Ctx, DeadlineState, RoundRecord, RoundStatus, RoundView } from '../shared';
import { DomainError } from '../shared';
import { resolveRound } from './resolve';
import { refOf, roundDeadline, scheduleRoundDeadline } from './round-deadline';
import { voidRound } from './void';

/** The platform acting on the policy: an admin of the round's own operator, named in what it writes. */
export const ROUND_DEADLINE_KEY = 'platform:interrupted-game-policy';
const policyActor = (round: RoundRecord): Actor => ({
  operatorId: round.operatorId,
  role: 'admin',
  supervises: [],
  keyId: ROUND_DEADLINE_KEY,
});

export interface RoundDeadlineCheck {
  roundId: string;
  /** NONE: finished (or gone); WAITING: not due yet, checked again at `dueAt`; VOIDED or FINISHED: acted on. */
  action: 'NONE' | 'WAITING' | 'VOIDED' | 'FINISHED';
  /** The status it was found in (MISSING: not stored). */
  status: RoundStatus | 'MISSING';
  state?: DeadlineState;
  dueAt?: string;
  /** The round after the action. */
  round?: RoundView;
}

/** What the words of a void by the policy say (ROUND_VOIDED's note: the players and the regulator read it). */
const voidNote = (state: DeadlineState, since: string, seconds: number): string =>
  state === 'OPEN'
    ? `interrupted game: betting opened at ${since} was not closed within ${seconds} s; voided and every stake refunded by the interrupted-game policy`
    : `interrupted game: no coup dealt within ${seconds} s of "no va más" at ${since}; voided and every stake refunded by the interrupted-game policy`;

/**
 * Runs the check of a round: acts on it if it is past its state's deadline, else schedules the next
 * check. Safe to repeat (a retried schedule): each action is the idempotent use case's own.
 */
export async function enforceRoundDeadline(
  ctx: Ctx,
  input: { roundId: string },
  again = false,
): Promise<RoundDeadlineCheck> {
  const round = await ctx.store.get('round', { roundId: input.roundId });
  if (!round) return { roundId: input.roundId, action: 'NONE', status: 'MISSING' };
  const due = roundDeadline(ctx, round);
  if (!due) return { roundId: round.roundId, action: 'NONE', status: round.status };
  const found = { roundId: round.roundId, status: round.status, state: due.state, dueAt: due.dueAt };
  if (ctx.now() < due.dueAt) {
    await scheduleRoundDeadline(ctx, round);
    return { ...found, action: 'WAITING' };
  }
  const actor = policyActor(round);
  const seconds = ctx.roundDeadlineSeconds[due.state];
  let acted: RoundView;
  try {
    acted =
      due.state === 'SETTLING'
        ? round.status === 'VOIDING'
          ? await voidRound(ctx, actor, {
              roundId: round.roundId,
              reason: round.voidReason ?? 'TECHNICAL_FAULT',
            })
          : await resolveRound(ctx, actor, { roundId: round.roundId })
        : await voidRound(ctx, actor, {
            roundId: round.roundId,
            reason: 'TECHNICAL_FAULT',
            note: voidNote(due.state, due.since, seconds),
          });
  } catch (error) {
    // Moved on meanwhile (the operator dealt it, voided it): decide again on what it is now, once.
    if (!again && error instanceof DomainError && error.kind === 'CONFLICT')
      return enforceRoundDeadline(ctx, input, true);
    throw error;
  }
  // Still not finished (its settlement handed to the queue in batches): checked again a whole
  // deadline from now, not at the one just passed.
  const after = await ctx.store.get('round', { roundId: round.roundId });
  const next = after && roundDeadline(ctx, after);
  if (after && next) {
    const later = Math.max(
      Date.parse(ctx.now()) + ctx.roundDeadlineSeconds[next.state] * 1000,
      Date.parse(next.dueAt),
    );
    await ctx.roundDeadlines.schedule(refOf(after), next.state, new Date(later).toISOString());
  }
  return {
    ...found,
    action: due.state === 'SETTLING' && round.status !== 'VOIDING' ? 'FINISHED' : 'VOIDED',
    round: acted,
  };
}
