import { ENDPOINTS } from '@pyb/contracts';
import { listTableEvents } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'list-table-events',
  ENDPOINTS['list-table-events'],
  ({ context, actor, params }) => listTableEvents(useCases(context), actor, params),
);
