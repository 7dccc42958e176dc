/**
 * A reference row of bench/bundles.ts: get-wallet as every function was built before the composition
 * root was split — all use cases (createCore) and the key service (KMS client, local curves) in every
 * bundle, and every endpoint's contract and route (the `ENDPOINTS` registry and the `ROUTES` table, as
 * handlers took theirs before per-endpoint contracts). Not deployed; measured beside the real bundles
 * to show what the splits save.
 */
import { ENDPOINTS } from '@pyb/contracts/endpoints';
import { createCore } from '@pyb/core';
import { useCases } from '@pyb/functions/context';
import { httpHandler } from '@pyb/functions/http';
import { keysOf } from '@pyb/functions/keys';
import { ROUTES } from '@pyb/functions/routes';

const route = ROUTES.find((r) => r.handler === 'get-wallet');
if (!route) throw new Error('no get-wallet route');

export const handler = httpHandler(route, ENDPOINTS['get-wallet'], ({ context, actor, params }) => {
  useCases(context, keysOf(context));
  return createCore({ store: context.store, keys: keysOf(context), clock: context.clock }).getWallet(
    actor,
    params,
  );
});
