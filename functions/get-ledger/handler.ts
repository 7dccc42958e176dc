import { ENDPOINTS } from '@pyb/contracts';
import { getLedger } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'get-ledger',
  ENDPOINTS['get-ledger'],
  ({ context, actor, params, query }) => getLedger(useCases(context), actor, { ...params, ...query }),
);
