import { cancelBetsContract } from '@pyb/contracts';
import { withdrawBets } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { cancelBetsRoute } from '../src/routes';
import { seamlessOf } from '../src/seamless';

export const handler = httpHandler(
  cancelBetsRoute,
  cancelBetsContract,
  ({ context, actor, params, body, idempotencyKey }) =>
    withdrawBets(useCases(context, undefined, seamlessOf(context)), actor, {
      ...params,
      ...body,
      idempotencyKey,
    }),
);
