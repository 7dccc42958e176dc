import { controlCadenceContract } from '@pyb/contracts';
import { controlCadence } from '@pyb/core/use-cases';
import { cadenceRunnerWhenStarting } from '../src/cadence';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { controlCadenceRoute } from '../src/routes';

export const handler = httpHandler(
  controlCadenceRoute,
  controlCadenceContract,
  ({ context, actor, params, body }) =>
    controlCadence(useCases(context, undefined, { cadence: cadenceRunnerWhenStarting(context) }), actor, {
      ...params,
      ...body,
    }),
);
