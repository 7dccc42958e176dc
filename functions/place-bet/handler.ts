import { ENDPOINTS } from '@pyb/contracts';
import { placeBet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { seamlessOf } from '../src/seamless';

export const handler = httpHandler(
  'place-bet',
  ENDPOINTS['place-bet'],
  ({ context, actor, params, body, idempotencyKey }) =>
    placeBet(useCases(context, undefined, seamlessOf(context)), actor, {
      ...params,
      ...body,
      idempotencyKey,
    }),
);
