import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'wallet-transaction',
  ENDPOINTS['wallet-transaction'],
  ({ context, actor, params, body, idempotencyKey }) =>
    context.core.walletTransaction(actor, { ...params, ...body, idempotencyKey }),
);
