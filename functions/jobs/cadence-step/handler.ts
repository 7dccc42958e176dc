/**
 * The one function every Task of the cadence state machine calls (@pyb/cadence definition.ts) with
 * `{ step, state }`: the step's use case on the round (core rounds/cadence-steps.ts). Not an HTTP
 * endpoint. A refusal leaves as an error named by its problem code (BEACON_PENDING, ...): the
 * machine's Retry and Catch match that name (Lambda's errorType).
 */
import { type CadenceState, runCadenceStep } from '@pyb/core/use-cases';
import { beaconOf } from '../../src/beacon';
import { cadenceRunnerOf } from '../../src/cadence';
import { closeDeadlinesOf } from '../../src/close-deadlines';
import { appContext, useCases } from '../../src/context';
import { keysOf } from '../../src/keys';
import { publishingTable } from '../../src/live';
import { queueOf } from '../../src/queue';
import { roundDeadlinesOf } from '../../src/round-deadlines';
import { seamlessOf } from '../../src/seamless';
import { timeStamperOf } from '../../src/time-stamps';

export interface CadenceStepEvent {
  step: string;
  state: CadenceState;
}

export function handler(event: CadenceStepEvent): Promise<CadenceState> {
  const context = appContext();
  const ctx = useCases(context, keysOf(context), {
    beacon: beaconOf(context),
    closeDeadlines: closeDeadlinesOf(context),
    roundDeadlines: roundDeadlinesOf(context),
    queue: queueOf(context),
    cadence: cadenceRunnerOf(context),
    timeStamper: timeStamperOf(context),
    ...seamlessOf(context),
  });
  // Each step changed the table (a round opened, closed, dealt, settled): its watchers are told.
  return runCadenceStep(ctx, event?.step, event?.state).then((state) =>
    publishingTable(context, state.tableId, state),
  );
}
