import { buildOpenApi } from '@pyb/contracts/openapi';
import { buildSeamlessWalletOpenApi } from '@pyb/contracts/seamless-openapi';
import { ROUTES } from './routes';

/**
 * The documents the two Meta endpoints serve, keyed by handler: pure functions of the contracts, the
 * same on every request. A Lambda bundle of those handlers holds the document already rendered
 * (infra/src/esbuild-options.ts sets `process.env.PYB_SERVED_DOCUMENT` to it when it bundles them), so
 * its cold start parses neither zod nor every endpoint's schemas; unbundled (the local stack, tests)
 * the handler builds it here on its first request.
 */
export const SERVED_DOCUMENTS = {
  'get-openapi': () => buildOpenApi(ROUTES),
  'get-seamless-openapi': () => buildSeamlessWalletOpenApi(),
} as const;

export type ServedDocument = keyof typeof SERVED_DOCUMENTS;
