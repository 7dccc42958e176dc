import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';
import { signingKeyView } from '../src/views';

export const handler = httpHandler('get-signing-key', ENDPOINTS['get-signing-key'], async ({ context }) =>
  signingKeyView(await context.keys.publicKey()),
);
