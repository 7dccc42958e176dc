import type { Wallet, Wallets } from '@pyb/core';
import { type SeamlessSecrets, SeamlessWalletClient } from '@pyb/seamless-wallet';
import { secretsManagerSecrets } from '@pyb/seamless-wallet/secrets-manager';
import type { AppContext } from './context';

/**
 * The seamless operators' wallets of the container (core's `Wallets` port): one signed HTTP client per
 * operator, from its record's `seamless.baseUrl` and `seamless.secretRef`, built on first use and
 * rebuilt when the record changes. `secretRef`:
 *   `env:<NAME>`         a variable of this process: `current[,previous]` (the local stack, tests);
 *   anything else        a Secrets Manager secret id (its name `pyb-<stage>/seamless/<operatorId>`, or
 *                        its ARN): AWSCURRENT signs, AWSPREVIOUS still verifies, cached 60 s, so a
 *                        rotation reaches every container within a minute (docs/seamless-wallet.md §3).
 * Only the functions that call wallets import this module (and hold the Secrets Manager client).
 */
export function walletsOf(context: AppContext): Wallets {
  if (context.wallets) return context.wallets;
  const built = new Map<string, { ref: string; wallet: Wallet }>();
  context.wallets = (operator) => {
    const seamless = operator.seamless;
    if (!seamless) throw new Error(`operator ${operator.operatorId} has no seamless wallet configured`);
    const ref = `${seamless.baseUrl} ${seamless.secretRef}`;
    const hit = built.get(operator.operatorId);
    if (hit?.ref === ref) return hit.wallet;
    const wallet = new SeamlessWalletClient({
      baseUrl: seamless.baseUrl,
      secrets: secretsOf(context.env, seamless.secretRef),
    });
    built.set(operator.operatorId, { ref, wallet });
    return wallet;
  };
  return context.wallets;
}

/** Where an operator's signing secrets come from (see walletsOf). */
export function secretsOf(
  env: Record<string, string | undefined>,
  secretRef: string,
): () => Promise<SeamlessSecrets> {
  if (secretRef.startsWith('env:')) {
    const name = secretRef.slice('env:'.length);
    return async () => {
      const [current, previous] = (env[name] ?? '').split(',').map((s) => s.trim());
      if (!current) throw new Error(`seamless secret ${secretRef}: the variable ${name} is not set`);
      return previous ? { current, previous } : { current };
    };
  }
  return secretsManagerSecrets({ secretId: secretRef });
}
