import { ENDPOINTS } from '@pyb/contracts';
import { buildOpenApi } from '@pyb/contracts/openapi';
import { httpHandler } from '../src/http';
import { ROUTES } from '../src/routes';

let document: Record<string, unknown> | undefined;

export const handler = httpHandler('get-openapi', ENDPOINTS['get-openapi'], async () => {
  document ??= buildOpenApi(ROUTES) as unknown as Record<string, unknown>;
  return document;
});
