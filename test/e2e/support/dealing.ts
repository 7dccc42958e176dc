/**
 * The e2e stack as test/support/dealt needs it: a test that needs a given shoe opens its first round
 * in the test process, on the server's own store, keys and beacon (a core whose clock stands still
 * for that one call); every other call goes over HTTP.
 */
import { createCore } from '@pyb/core';
import type { DealingStack } from '../../support/dealt';
import type { E2eStack } from './stack';

export function dealingOf(stack: E2eStack): DealingStack {
  const { context } = stack;
  return {
    store: context.store,
    keys: stack.signing,
    clock: context.clock,
    keysDir: stack.keysDir,
    coreWith: (overrides) =>
      createCore({
        store: context.store,
        keys: stack.signing,
        clock: context.clock,
        ...(context.beacon && { beacon: context.beacon }),
        ...overrides,
      }),
  };
}
