import { createCadenceRunner } from '@pyb/cadence';
import type { CadenceRunner } from '@pyb/core';
import type { AppContext } from './context';

/**
 * Where a cadence table's rounds start: Step Functions on AWS (CADENCE_STATE_MACHINE_ARN, @pyb/cadence),
 * the local runner the dev server installs otherwise. Only the functions that start rounds
 * (control-cadence, cadence-step) import this module.
 */
export function cadenceRunnerOf(context: AppContext): CadenceRunner {
  context.cadenceRunner ??= createCadenceRunner(context.env);
  if (!context.cadenceRunner)
    throw new Error('CADENCE_STATE_MACHINE_ARN is not set: this function cannot start a cadence round');
  return context.cadenceRunner;
}

/** The runner, looked up at the first start: a pause or stop needs none (and a missing one is not their failure). */
export const cadenceRunnerWhenStarting = (context: AppContext): CadenceRunner => ({
  start: (round) => cadenceRunnerOf(context).start(round),
});
