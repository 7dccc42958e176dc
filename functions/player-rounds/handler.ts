import { ENDPOINTS } from '@pyb/contracts';
import { recallPlayerRounds } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler(
  'player-rounds',
  ENDPOINTS['player-rounds'],
  ({ context, actor, params, query }) =>
    recallPlayerRounds(useCases(context, keysOf(context)), actor, { ...params, ...query }),
);
