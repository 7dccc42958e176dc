import { ENDPOINTS } from '@pyb/contracts';
import { openRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler(
  'open-round',
  ENDPOINTS['open-round'],
  // Signs the head of the contributions' close when it opens a shoe's first round.
  ({ context, actor, params, body }) =>
    openRound(useCases(context, keysOf(context)), actor, { ...params, ...body }),
);
