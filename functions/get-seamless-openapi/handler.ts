import { getSeamlessOpenapiContract } from '@pyb/contracts';
import { buildSeamlessWalletOpenApi } from '@pyb/contracts/seamless-openapi';
import { httpHandler } from '../src/http';
import { getSeamlessOpenapiRoute } from '../src/routes';

let document: Record<string, unknown> | undefined;

export const handler = httpHandler(getSeamlessOpenapiRoute, getSeamlessOpenapiContract, async () => {
  document ??= buildSeamlessWalletOpenApi() as unknown as Record<string, unknown>;
  return document;
});
