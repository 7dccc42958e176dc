import { placeBetContract } from '@pyb/contracts';
import { placeBet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { publishingBet } from '../src/live';
import { placeBetRoute } from '../src/routes';
import { seamlessOf } from '../src/seamless';

export const handler = httpHandler(
  placeBetRoute,
  placeBetContract,
  ({ context, actor, params, body, idempotencyKey }) =>
    placeBet(useCases(context, undefined, seamlessOf(context)), actor, {
      ...params,
      ...body,
      idempotencyKey,
    }).then((result) => publishingBet(context, actor.operatorId, result)),
);
