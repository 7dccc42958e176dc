/**
 * The shoe's digest salt (docs/provably-fair.md §11.1 "Salted digests", fairness salted.ts): 32 bytes
 * from the key service's random source at shoe open, committed in the statement, kept on the shoe
 * item and given out only in the regulator bundle. Not sealed like the server seed: it hides only
 * what the same database holds in clear (positions, debts), and sealing it would give every function
 * that commits a digest (void, the settlement batches, a player leaving) kms:Decrypt on the seal key,
 * that is the power to unseal open shoes' seeds.
 */
import { bytesToHex, saltCommitmentOf } from '@pyb/fairness';
import type { Ctx } from '../shared';

/** A new salt (hex) and the commitment the statement signs. */
export async function newDigestSalt(ctx: Pick<Ctx, 'keys'>): Promise<{ salt: string; commitment: string }> {
  const bytes = await ctx.keys.generateSeed();
  try {
    const salt = bytesToHex(bytes);
    return { salt, commitment: saltCommitmentOf(salt) };
  } finally {
    bytes.fill(0);
  }
}

/** The salt of a shoe's digests; undefined for a shoe opened before digests were salted (or unknown). */
export async function digestSaltOf(ctx: Pick<Ctx, 'store'>, shoeId: string): Promise<string | undefined> {
  return (await ctx.store.get('shoe', { shoeId }))?.digestSalt;
}
