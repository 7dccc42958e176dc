import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-round', ENDPOINTS['get-round'], ({ context, actor, params }) =>
  context.core.getRound(actor, params),
);
