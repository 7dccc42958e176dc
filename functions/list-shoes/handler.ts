import { ENDPOINTS } from '@pyb/contracts';
import { listShoes } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'list-shoes',
  ENDPOINTS['list-shoes'],
  ({ context, actor, params, query }) => listShoes(useCases(context), actor, { ...params, ...query }),
);
