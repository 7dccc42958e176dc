/**
 * Deadlines for a round in play (docs/rules.md, "Interrupted games"): when a round opens, a check is
 * scheduled on AWS's own scheduler (EventBridge Scheduler, a one-time schedule per round and state);
 * when it runs, a round still in the same state past its deadline is acted on as the interrupted-game
 * policy says (rounds/deadlines.ts). The local adapter records what it was asked.
 */
export interface RoundRef {
  roundId: string;
  tableId: string;
  operatorId: string;
}

/** The states a round can be stuck in, each with its own deadline. */
export const DEADLINE_STATES = ['OPEN', 'CLOSED', 'SETTLING'] as const;
export type DeadlineState = (typeof DEADLINE_STATES)[number];

export interface RoundDeadlines {
  /**
   * Schedules the check of `round`, found in `state`, at `dueAt` (ISO). Idempotent per round and
   * `dueAt` (to the second): a second call for the same deadline is a no-op.
   */
  schedule(round: RoundRef, state: DeadlineState, dueAt: string): Promise<void>;
}

/** Nothing scheduled: for cores that never open a round (read-only functions). */
export const noRoundDeadlines: RoundDeadlines = { schedule: async () => undefined };

/**
 * The defaults (docs/rules.md, "Interrupted games"): ten minutes of betting with no "no va más", five
 * minutes from "no va más" with no coup dealt (its beacon round is out seconds after), fifteen minutes
 * of settling or refunding (lost batches are re-sent after two).
 */
export const ROUND_DEADLINE_SECONDS: Readonly<Record<DeadlineState, number>> = {
  OPEN: 600,
  CLOSED: 300,
  SETTLING: 900,
};
