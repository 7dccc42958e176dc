import { ENDPOINTS } from '@pyb/contracts';
import { buildSeamlessWalletOpenApi } from '@pyb/contracts/openapi';
import { httpHandler } from '../src/http';

let document: Record<string, unknown> | undefined;

export const handler = httpHandler('get-seamless-openapi', ENDPOINTS['get-seamless-openapi'], async () => {
  document ??= buildSeamlessWalletOpenApi() as unknown as Record<string, unknown>;
  return document;
});
