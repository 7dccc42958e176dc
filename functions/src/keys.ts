import type { KeyService } from '@pyb/core';
import { createKeyService, keyServiceConfigFromEnv } from '@pyb/keys';
import type { AppContext } from './context';

/**
 * The key service of the container (KMS on AWS, the local one in dev), built on first use from the
 * context's environment: KEY_SERVICE, SEED_KEY_ID, SIGNING_KEY_ID, LOCAL_KEYS_DIR (@pyb/keys). Only
 * the functions that seal, sign or publish keys import this module, so only their bundles hold the
 * key services; the KMS client itself is loaded on first use (@pyb/keys `KmsKeyService`).
 */
export function keysOf(context: AppContext): KeyService {
  context.keys ??= createKeyService(keyServiceConfigFromEnv(context.env));
  return context.keys;
}
