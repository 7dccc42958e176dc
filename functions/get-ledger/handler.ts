import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'get-ledger',
  ENDPOINTS['get-ledger'],
  ({ context, actor, params, query }) => context.core.getLedger(actor, { ...params, ...query }),
);
