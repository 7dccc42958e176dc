import { replayRoundContract } from '@pyb/contracts';
import { replayRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { replayRoundRoute } from '../src/routes';

export const handler = httpHandler(replayRoundRoute, replayRoundContract, ({ context, actor, params }) =>
  replayRound(useCases(context, keysOf(context)), actor, params),
);
