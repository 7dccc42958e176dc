import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('leave-table', ENDPOINTS['leave-table'], ({ context, actor, params }) =>
  context.core.leaveTable(actor, params),
);
