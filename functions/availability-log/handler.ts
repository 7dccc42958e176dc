import { availabilityLogContract } from '@pyb/contracts';
import { availabilityLog } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { availabilityLogRoute } from '../src/routes';

export const handler = httpHandler(
  availabilityLogRoute,
  availabilityLogContract,
  ({ context, actor, params, query }) => availabilityLog(useCases(context), actor, { ...params, ...query }),
);
