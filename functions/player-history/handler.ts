import { ENDPOINTS } from '@pyb/contracts';
import { playerHistory } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler(
  'player-history',
  ENDPOINTS['player-history'],
  ({ context, actor, params, query }) =>
    playerHistory(useCases(context, keysOf(context)), actor, { ...params, ...query }),
);
