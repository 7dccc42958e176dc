/**
 * Signed chain heads (docs/provably-fair.md §11.3): when a shoe's contributions close, and when each
 * round is settled or voided, the hash of the event just appended is signed with the statement key
 * and handed to the caller as a receipt. A later rewrite of the chain up to that event, by anyone,
 * no longer matches a receipt somebody holds.
 */
import { canonicalJson } from './canonical';

export const HEAD_SCHEME = 'pyb-head/1';

/**
 * The events whose chain head is signed. BETTING_CLOSED only in a pyb-shoe/3 shoe: the receipt names
 * the beacon round its coup will be drawn from (docs/provably-fair.md §15.11). SEED_CONTRIBUTED: the
 * contributor's receipt (its answer), kept by him and not in the bundle: a seed slipped in before his,
 * or the order changed, no longer matches it (C1).
 */
export const SIGNED_HEAD_EVENTS = [
  'SEED_CONTRIBUTED',
  'CONTRIBUTIONS_CLOSED',
  'BETTING_CLOSED',
  'ROUND_SETTLED',
  'ROUND_VOIDED',
] as const;
export type SignedHeadEvent = (typeof SIGNED_HEAD_EVENTS)[number];

export interface HeadStatement {
  scheme: typeof HEAD_SCHEME;
  shoeId: string;
  commitment: string;
  /** The event the head is the hash of (its seq), and what it is. */
  seq: number;
  type: SignedHeadEvent;
  roundId: string | null;
  /** hex: the event's hash, i.e. the chain head right after it. */
  head: string;
  /** ISO 8601 UTC time of signing. */
  at: string;
  keyId: string;
}

export interface SignedHead {
  statement: HeadStatement;
  /** base64 DER ECDSA P-256 / SHA-256 over UTF-8(JCS(statement)). */
  signature: string;
}

export const headStatementBytes = (statement: HeadStatement): Uint8Array =>
  new TextEncoder().encode(canonicalJson(statement));
