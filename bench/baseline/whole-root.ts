/**
 * A reference row of bench/bundles.ts: get-wallet as every function was built before the composition
 * root was split — all use cases (createCore) and the key service (KMS client, local curves) in every
 * bundle. Not deployed; measured beside the real bundles to show what the split saves.
 */
import { ENDPOINTS } from '@pyb/contracts';
import { createCore } from '@pyb/core';
import { useCases } from '@pyb/functions/context';
import { httpHandler } from '@pyb/functions/http';
import { keysOf } from '@pyb/functions/keys';

export const handler = httpHandler('get-wallet', ENDPOINTS['get-wallet'], ({ context, actor, params }) => {
  useCases(context, keysOf(context));
  return createCore({ store: context.store, keys: keysOf(context), clock: context.clock }).getWallet(
    actor,
    params,
  );
});
