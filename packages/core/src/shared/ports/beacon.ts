/**
 * The public randomness beacon (docs/provably-fair.md §5): the drand network a shoe's statement names,
 * and its rounds once published. The HTTP adapter (packages/beacon) reads drand's relays; the local
 * beacon signs rounds with a key of its own for dev and tests. Adapters only fetch: the use cases
 * verify every round's signature before they use it.
 */
import type { BeaconNetwork, BeaconRound } from '@pyb/fairness';

export type BeaconAnswer =
  | { status: 'PUBLISHED'; round: BeaconRound }
  /**
   * Not available yet: its time has not come, or no relay answered with it. Never a reason to use
   * anything else: the caller waits and asks again.
   */
  | { status: 'PENDING'; retryAfterSeconds: number; reason: string };

export interface Beacon {
  /**
   * The network every round comes from (named in each shoe statement). A promise: the local beacon
   * derives its public key with the BLS curve, which is loaded on first use (fairness `bls`).
   */
  network(): Promise<BeaconNetwork>;
  /** Round `round`, or why it is not available yet. Rejects only on a broken setup. */
  round(round: number): Promise<BeaconAnswer>;
}
