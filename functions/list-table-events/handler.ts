import { listTableEventsContract } from '@pyb/contracts';
import { listTableEvents } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { listTableEventsRoute } from '../src/routes';

export const handler = httpHandler(
  listTableEventsRoute,
  listTableEventsContract,
  ({ context, actor, params }) => listTableEvents(useCases(context), actor, params),
);
