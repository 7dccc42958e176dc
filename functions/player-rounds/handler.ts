import { playerRoundsContract } from '@pyb/contracts';
import { recallPlayerRounds } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { playerRoundsRoute } from '../src/routes';

export const handler = httpHandler(
  playerRoundsRoute,
  playerRoundsContract,
  ({ context, actor, params, query }) =>
    recallPlayerRounds(useCases(context, keysOf(context)), actor, { ...params, ...query }),
);
