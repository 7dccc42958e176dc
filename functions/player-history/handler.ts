import { playerHistoryContract } from '@pyb/contracts';
import { playerHistory } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { playerHistoryRoute } from '../src/routes';

export const handler = httpHandler(
  playerHistoryRoute,
  playerHistoryContract,
  ({ context, actor, params, query }) =>
    playerHistory(useCases(context, keysOf(context)), actor, { ...params, ...query }),
);
