/**
 * The shared HMAC secret of an operator in seamless mode, from AWS Secrets Manager (one secret per
 * operator; docs/seamless-wallet.md, "Secrets and rotation"). Secrets Manager's stage labels give the
 * rotation without downtime: the platform signs with AWSCURRENT and accepts answers under AWSCURRENT
 * or AWSPREVIOUS, so a new version can be put while calls are in flight. Read at most once per
 * `ttlMs` per process (a rotation reaches every Lambda within it), both stages in parallel.
 */
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { SeamlessSecrets } from './client';

export const SECRET_CACHE_MS = 60_000;
/** A shorter secret is refused: HMAC-SHA256 wants at least 32 bytes of key. */
export const MIN_SECRET_LENGTH = 32;

export interface SecretsManagerSecretsOptions {
  secretId: string;
  client?: SecretsManagerClient;
  ttlMs?: number;
  now?: () => number;
}

export function secretsManagerSecrets(options: SecretsManagerSecretsOptions): () => Promise<SeamlessSecrets> {
  const client = options.client ?? new SecretsManagerClient({});
  const ttl = options.ttlMs ?? SECRET_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; value: Promise<SeamlessSecrets> } | undefined;

  const stage = async (VersionStage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string | undefined> => {
    try {
      const out = await client.send(new GetSecretValueCommand({ SecretId: options.secretId, VersionStage }));
      return out.SecretString;
    } catch (error) {
      // No previous version yet (never rotated): only the current one is valid.
      if (VersionStage === 'AWSPREVIOUS' && error instanceof ResourceNotFoundException) return undefined;
      throw error;
    }
  };

  const load = async (): Promise<SeamlessSecrets> => {
    const [current, previous] = await Promise.all([stage('AWSCURRENT'), stage('AWSPREVIOUS')]);
    if (!current || current.length < MIN_SECRET_LENGTH)
      throw new Error(
        `seamless secret ${options.secretId}: AWSCURRENT missing or shorter than ${MIN_SECRET_LENGTH}`,
      );
    return previous && previous !== current ? { current, previous } : { current };
  };

  return () => {
    if (!cached || now() - cached.at >= ttl) {
      const value = load();
      cached = { at: now(), value };
      // A failed read is not cached: the next call tries again.
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}
