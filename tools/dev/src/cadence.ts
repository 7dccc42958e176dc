/**
 * The dev stack's table cadence: the cadence state machine's very definition run in this process by
 * aws-local-stepfunctions (@pyb/cadence/local), each Task handed to its function's own handler
 * (cadence-open-shoe for OpenShoe, cadence-step for the rest), as Step Functions invokes it on AWS.
 * Its Wait states wait for real.
 */
import { LocalCadenceRunner } from '@pyb/cadence/local';
import type { AppContext } from '@pyb/functions/context';

type StepHandler = (event: { step: string; state: unknown }) => Promise<Record<string, unknown>>;

export function installLocalCadence(context: AppContext): LocalCadenceRunner {
  const runner = new LocalCadenceRunner({
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
