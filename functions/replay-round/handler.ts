import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('replay-round', ENDPOINTS['replay-round'], ({ context, actor, params }) =>
  context.core.replayRound(actor, params),
);
