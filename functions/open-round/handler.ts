import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'open-round',
  ENDPOINTS['open-round'],
  ({ context, actor, params, body }) => context.core.openRound(actor, { ...params, ...body }),
);
