import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('create-table', ENDPOINTS['create-table'], ({ context, actor, body }) =>
  context.core.createTable(actor, body),
);
