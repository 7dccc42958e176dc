import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-wallet', ENDPOINTS['get-wallet'], ({ context, actor, params }) =>
  context.core.getWallet(actor, params),
);
