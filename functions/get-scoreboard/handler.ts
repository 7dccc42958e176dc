import { getScoreboardContract } from '@pyb/contracts';
import { getScoreboard } from '@pyb/core/use-cases';
import { httpHandler } from '../src/http';
import { getScoreboardRoute } from '../src/routes';

export const handler = httpHandler(
  getScoreboardRoute,
  getScoreboardContract,
  ({ context, actor, params, query }) => getScoreboard(context, actor, { ...params, ...query }),
);
