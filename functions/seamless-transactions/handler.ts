import { seamlessTransactionsContract } from '@pyb/contracts';
import { listSeamlessTransactions } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { seamlessTransactionsRoute } from '../src/routes';

export const handler = httpHandler(
  seamlessTransactionsRoute,
  seamlessTransactionsContract,
  ({ context, actor, params, query }) =>
    listSeamlessTransactions(useCases(context), actor, { ...params, ...query }),
);
