import { ENDPOINTS } from '@pyb/contracts';
import { getScoreboard } from '@pyb/core/use-cases';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'get-scoreboard',
  ENDPOINTS['get-scoreboard'],
  ({ context, actor, params, query }) => getScoreboard(context, actor, { ...params, ...query }),
);
