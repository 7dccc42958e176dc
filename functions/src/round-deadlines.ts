import type { RoundDeadlines } from '@pyb/core';
import { createRoundDeadlines } from '@pyb/scheduler';
import type { AppContext } from './context';

/**
 * Where a round's interrupted-game check is scheduled (EventBridge Scheduler on AWS, recorded only in
 * dev), built on first use from the context's environment: ROUND_DEADLINE_* (@pyb/scheduler). Only the
 * functions that open rounds (open-round, cadence-step) and the check itself (round-deadline) import it.
 */
export function roundDeadlinesOf(context: AppContext): RoundDeadlines {
  context.roundDeadlines ??= createRoundDeadlines(context.env);
  return context.roundDeadlines;
}
