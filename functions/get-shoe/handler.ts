import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-shoe', ENDPOINTS['get-shoe'], ({ context, actor, params }) =>
  context.core.getShoe(actor, params),
);
