import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'resolve-round',
  ENDPOINTS['resolve-round'],
  ({ context, actor, params }) => context.core.resolveRound(actor, params),
);
