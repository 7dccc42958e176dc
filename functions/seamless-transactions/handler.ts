import { ENDPOINTS } from '@pyb/contracts';
import { listSeamlessTransactions } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'seamless-transactions',
  ENDPOINTS['seamless-transactions'],
  ({ context, actor, params, query }) =>
    listSeamlessTransactions(useCases(context), actor, { ...params, ...query }),
);
