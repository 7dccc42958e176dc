import { ENDPOINTS } from '@pyb/contracts';
import { replayRound } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler('replay-round', ENDPOINTS['replay-round'], ({ context, actor, params }) =>
  replayRound(useCases(context, keysOf(context)), actor, params),
);
