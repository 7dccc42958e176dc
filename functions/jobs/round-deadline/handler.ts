/**
 * The target of each round's interrupted-game schedule (EventBridge Scheduler; docs/rules.md,
 * "Interrupted games"): a round still in the same state past that state's deadline is voided with
 * every stake refunded (betting never closed, no coup dealt) or has its settlement finished; else the
 * check is scheduled again for the state it is in. An action taken logs the round and emits the
 * RoundsInterrupted metric (CloudWatch embedded metric format) the stack's alarm watches, and the
 * table's watchers are told (ROUND_VOIDED, ROUND_SETTLED). Not an HTTP endpoint.
 */
import { enforceRoundDeadline } from '@pyb/core/use-cases';
import { beaconOf } from '../../src/beacon';
import { closeDeadlinesOf } from '../../src/close-deadlines';
import { appContext, useCases } from '../../src/context';
import { keysOf } from '../../src/keys';
import { publishingTable } from '../../src/live';
import { logger } from '../../src/logger';
import { countForStage } from '../../src/metrics-names';
import { queueOf } from '../../src/queue';
import { roundDeadlinesOf } from '../../src/round-deadlines';
import { seamlessOf } from '../../src/seamless';
import { timeStamperOf } from '../../src/time-stamps';

export interface RoundDeadlineEvent {
  roundId: string;
  tableId?: string;
  operatorId?: string;
}

export const INTERRUPTED_METRIC = 'RoundsInterrupted';

export async function handler(event: RoundDeadlineEvent) {
  if (typeof event?.roundId !== 'string') throw new TypeError('the schedule must pass { roundId }');
  const context = appContext();
  const ctx = useCases(context, keysOf(context), {
    queue: queueOf(context),
    beacon: beaconOf(context),
    timeStamper: timeStamperOf(context),
    closeDeadlines: closeDeadlinesOf(context),
    roundDeadlines: roundDeadlinesOf(context),
    ...seamlessOf(context),
  });
  const check = await enforceRoundDeadline(ctx, { roundId: event.roundId });
  if (check.action === 'VOIDED' || check.action === 'FINISHED') {
    const { round, ...found } = check;
    logger.error('round interrupted: acted on by the interrupted-game policy', {
      ...found,
      tableId: round?.tableId,
      statusAfter: round?.status,
    });
    countForStage(INTERRUPTED_METRIC, { action: check.action, roundId: check.roundId, state: check.state });
    await publishingTable(context, round?.tableId, undefined);
  }
  const { round: _round, ...answer } = check;
  return { ...answer, ...(check.round && { statusAfter: check.round.status }) };
}
