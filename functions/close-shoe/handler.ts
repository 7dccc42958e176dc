import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('close-shoe', ENDPOINTS['close-shoe'], ({ context, actor, params }) =>
  context.core.closeShoe(actor, params),
);
