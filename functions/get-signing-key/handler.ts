import { ENDPOINTS } from '@pyb/contracts';
import { signingKey } from '@pyb/core';
import { httpHandler } from '../src/http';
import { signingKeyView } from '../src/views';

export const handler = httpHandler(
  'get-signing-key',
  ENDPOINTS['get-signing-key'],
  async ({ context, query }) => signingKeyView(await signingKey(context.keys, query)),
);
