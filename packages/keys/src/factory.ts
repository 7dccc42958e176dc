/**
 * Picks the adapter. Explicit config wins; otherwise the environment decides:
 *   KEY_SERVICE=kms   -> AWS KMS with SEED_KEY_ID (symmetric) and SIGNING_KEY_ID (ECC_NIST_P256)
 *   KEY_SERVICE=local -> LocalKeyService in LOCAL_KEYS_DIR (default .data/keys)
 *   unset             -> kms when SEED_KEY_ID is set, else local.
 * The local service itself refuses NODE_ENV=production or STAGE=prod, so a production function
 * missing its KMS settings fails at start instead of signing with a dev key; a Lambda bundle does not
 * even hold it (infra/src/esbuild-options.ts, LAMBDA_BUNDLE_DEFINE) and refuses the same way.
 */
import type { KeyService } from '@pyb/core';
import { KeyServiceError, LOCAL_KEYS_REFUSED } from './errors';
import { KmsKeyService, type KmsKeyServiceOptions } from './kms';
import { LocalKeyService } from './local';

export type KeyServiceConfig =
  | ({ kind: 'kms' } & KmsKeyServiceOptions)
  | { kind: 'local'; dir: string; stage?: string; env?: Record<string, string | undefined> };

export function keyServiceConfigFromEnv(
  env: Record<string, string | undefined> = process.env,
): KeyServiceConfig {
  const kind = env.KEY_SERVICE ?? (env.SEED_KEY_ID ? 'kms' : 'local');
  if (kind === 'kms') {
    const sealKeyId = env.SEED_KEY_ID;
    const signKeyId = env.SIGNING_KEY_ID;
    if (!sealKeyId || !signKeyId) {
      throw new KeyServiceError(
        'KEY_SERVICE_MISCONFIGURED',
        'KEY_SERVICE=kms needs SEED_KEY_ID and SIGNING_KEY_ID',
      );
    }
    return { kind: 'kms', sealKeyId, signKeyId, ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}) };
  }
  if (kind === 'local') {
    return {
      kind: 'local',
      dir: env.LOCAL_KEYS_DIR ?? '.data/keys',
      ...(env.STAGE ? { stage: env.STAGE } : {}),
      env,
    };
  }
  throw new KeyServiceError('KEY_SERVICE_MISCONFIGURED', `KEY_SERVICE must be kms or local, got ${kind}`);
}

export function createKeyService(config: KeyServiceConfig = keyServiceConfigFromEnv()): KeyService {
  if (config.kind === 'kms') {
    const { kind: _kind, ...options } = config;
    return new KmsKeyService(options);
  }
  if (process.env.PYB_LAMBDA_BUNDLE !== '1') return new LocalKeyService(config);
  throw new KeyServiceError('LOCAL_KEYS_IN_PRODUCTION', LOCAL_KEYS_REFUSED);
}
