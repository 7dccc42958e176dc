import { walletTransactionContract } from '@pyb/contracts';
import { walletTransaction } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { walletTransactionRoute } from '../src/routes';

export const handler = httpHandler(
  walletTransactionRoute,
  walletTransactionContract,
  ({ context, actor, params, body, idempotencyKey }) =>
    walletTransaction(useCases(context), actor, { ...params, ...body, idempotencyKey }),
);
