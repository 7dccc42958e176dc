import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('open-shoe', ENDPOINTS['open-shoe'], ({ context, actor, params }) =>
  context.core.openShoe(actor, params),
);
