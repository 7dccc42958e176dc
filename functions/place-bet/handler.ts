import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'place-bet',
  ENDPOINTS['place-bet'],
  ({ context, actor, params, body, idempotencyKey }) =>
    context.core.placeBet(actor, { ...params, ...body, idempotencyKey }),
);
