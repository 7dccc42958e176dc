import { ENDPOINTS } from '@pyb/contracts';
import { withdrawBets } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { seamlessOf } from '../src/seamless';

export const handler = httpHandler(
  'reduce-bets',
  ENDPOINTS['reduce-bets'],
  ({ context, actor, params, body, idempotencyKey }) =>
    withdrawBets(useCases(context, undefined, seamlessOf(context)), actor, {
      ...params,
      ...body,
      idempotencyKey,
    }),
);
