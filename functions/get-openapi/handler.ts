import { getOpenapiContract } from '@pyb/contracts';
import { buildOpenApi } from '@pyb/contracts/openapi';
import { httpHandler } from '../src/http';
import { getOpenapiRoute, ROUTES } from '../src/routes';

let document: Record<string, unknown> | undefined;

export const handler = httpHandler(getOpenapiRoute, getOpenapiContract, async () => {
  document ??= buildOpenApi(ROUTES) as unknown as Record<string, unknown>;
  return document;
});
