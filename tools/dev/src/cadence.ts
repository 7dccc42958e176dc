/**
 * The dev stack's table cadence: the cadence state machine's very definition run in this process by
 * aws-local-stepfunctions (@pyb/cadence/local), each Task handed to its function's own handler
 * (cadence-open-shoe for OpenShoe, cadence-step for the rest), as Step Functions invokes it on AWS.
 * Its Wait states wait for real.
 */
import { LocalCadenceRunner, type LocalCadenceRunnerOptions } from '@pyb/cadence/local';
import type { AppContext } from '@pyb/functions/context';

type StepHandler = (event: { step: string; state: unknown }) => Promise<Record<string, unknown>>;

/** `options`: the tests' clock (waits skipped) and hold (test/e2e/support/stack.ts); none in ./scripts/dev. */
export function installLocalCadence(
  context: AppContext,
  options: Pick<LocalCadenceRunnerOptions, 'clock' | 'hold'> = {},
): LocalCadenceRunner {
  const runner = new LocalCadenceRunner({
    ...options,
    run: async (step, state) => {
      const { handler } = (step === 'shoe'
        ? await import('@pyb/functions/handlers/jobs/cadence-open-shoe')
        : await import('@pyb/functions/handlers/jobs/cadence-step')) as unknown as { handler: StepHandler };
      return handler({ step, state });
    },
  });
  context.cadenceRunner = runner;
  return runner;
}
