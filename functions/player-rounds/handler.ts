import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'player-rounds',
  ENDPOINTS['player-rounds'],
  ({ context, actor, params, query }) => context.core.recallPlayerRounds(actor, { ...params, ...query }),
);
