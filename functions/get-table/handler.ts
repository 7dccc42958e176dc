import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-table', ENDPOINTS['get-table'], ({ context, actor, params }) =>
  context.core.getTable(actor, params),
);
