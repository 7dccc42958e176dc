import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'void-round',
  ENDPOINTS['void-round'],
  ({ context, actor, params, body }) => context.core.voidRound(actor, { ...params, ...body }),
);
