import { ENDPOINTS } from '@pyb/contracts';
import { closeShoe } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler(
  'close-shoe',
  ENDPOINTS['close-shoe'],
  ({ context, actor, params, body }) =>
    closeShoe(useCases(context, keysOf(context)), actor, { ...params, ...body }),
);
