import type { KeyService } from '@pyb/core';
import { eventHash, hexToBytes } from '@pyb/fairness';

/**
 * The same key service, but seeds derived from a label and a counter: shoes (and so coups) are the
 * same on every run, which makes a test's assertions about outcomes reproducible.
 */
export function deterministicSeeds(keys: KeyService, label: string): KeyService {
  let n = 0;
  return {
    generateSeed: async () => hexToBytes(eventHash(label, n++)),
    sealSeed: (seed, context) => keys.sealSeed(seed, context),
    unsealSeed: (sealed, context) => keys.unsealSeed(sealed, context),
    sign: (message, keyId) => keys.sign(message, keyId),
    publicKey: (keyId) => keys.publicKey(keyId),
  };
}
