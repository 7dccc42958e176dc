/**
 * The outside witness of a head's time (docs/time-stamps.md): RFC 3161 time-stamp authorities the
 * platform does not control. The adapter (`@pyb/timestamp` `headAnchors`) batches the digests of a
 * window under one Merkle root, asks every configured TSA at once and keeps the tokens that verify
 * against that TSA's pinned certificates; the local TSA signs with a key of its own for dev and tests.
 */
import type { HeadAnchor } from '@pyb/fairness';

/** An anchor as the platform keeps it: the bundle's shape (without `seq`), and the earliest time a TSA vouches for. */
export interface StoredAnchor extends Omit<HeadAnchor, 'seq'> {
  /** ISO: the head existed by then — the earliest genTime + accuracy among the tokens (each verified against its TSA's pins). */
  existedBy: string;
}

export type TimeStampAnswer =
  | { status: 'ANCHORED'; anchor: StoredAnchor }
  /** No TSA gave a token that verifies (all down, rejecting, or signing with a key not pinned). */
  | { status: 'UNAVAILABLE'; reason: string };

export interface TimeStamper {
  /** Anchors a 32-byte head digest. Rejects only on a broken setup. */
  anchor(digest: Uint8Array): Promise<TimeStampAnswer>;
  /**
   * The TSAs asked and the certificates (PEM) their tokens are checked against: what the site
   * publishes for verifiers to pin (GET /v1/signing-key), as they pin its signing key and beacon.
   */
  authorities?(): readonly { tsa: string; certificates: readonly string[] }[];
}
