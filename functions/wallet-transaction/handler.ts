import { ENDPOINTS } from '@pyb/contracts';
import { walletTransaction } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'wallet-transaction',
  ENDPOINTS['wallet-transaction'],
  ({ context, actor, params, body, idempotencyKey }) =>
    walletTransaction(useCases(context), actor, { ...params, ...body, idempotencyKey }),
);
