/**
 * What the regulator bundle adds for salted digests (salted.ts, docs/provably-fair.md §12): the shoe's
 * digest salt, and each player's deferred commission at the close (SHOE_CLOSED `commission.digest`).
 * Never in the public proof: with the salt, a digest is searchable again.
 */
import * as z from 'zod';
import { count, hex32, id } from './bundle-fields';

export const BundleCommissionSchema = () =>
  z.object({ playerId: id(), collected: count(), owed: count() }).strict();

export const saltedEvidence = () => ({
  /** hex, 32 bytes: the key of every salted digest; absent for a shoe opened without one. */
  digestSalt: hex32().optional(),
  /** Each player's commission at the close, as SHOE_CLOSED `commission.digest` committed it. */
  commission: z.array(BundleCommissionSchema()).optional(),
});
