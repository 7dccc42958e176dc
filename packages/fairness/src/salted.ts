/**
 * Salted digests (docs/provably-fair.md §11.1, "Salted digests"). The chain is public in the proof, and
 * an unsalted SHA-256 of `[{id, commission, ledgerSeq}]` is searched back to a player and an amount in
 * seconds (F5): the space of ids and amounts is small. So each shoe has a secret 32-byte **digest salt**,
 * committed in its signed statement (`saltCommitment`) and revealed only in the regulator bundle
 * (`digestSalt`); every digest over player ids or amounts, and every void note, is an HMAC keyed by it.
 * A shoe whose statement has no `saltCommitment` (opened before this) keeps its unsalted digests.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { digest, sortedRecords } from './audit';
import type { RecordedPosition } from './bundle';
import { bytesToHex, hexToBytes, isHex, utf8ToBytes } from './bytes';
import { canonicalJson } from './canonical';

export const DIGEST_SALT_BYTES = 32;

function saltBytes(salt: string): Uint8Array {
  if (!isHex(salt, DIGEST_SALT_BYTES))
    throw new TypeError(`a digest salt is ${DIGEST_SALT_BYTES} bytes of hex`);
  return hexToBytes(salt);
}

/** saltCommitment = hex(SHA-256(salt bytes)): signed in the statement at open, before any bet. */
export const saltCommitmentOf = (salt: string): string => bytesToHex(sha256(saltBytes(salt)));

/**
 * The digest of a shoe's records: with a salt hex(HMAC-SHA256(key = salt bytes, message =
 * UTF-8(JCS(records sorted by id)))), without one (an older shoe) audit.ts `digest` (plain SHA-256).
 */
export function saltedDigest(salt: string | undefined, records: readonly { readonly id: string }[]): string {
  if (salt === undefined) return digest(records);
  return bytesToHex(hmac(sha256, saltBytes(salt), utf8ToBytes(canonicalJson(sortedRecords(records)))));
}

/**
 * ROUND_VOIDED `noteDigest`: hex(HMAC-SHA256(key = salt bytes, message = UTF-8(JCS(note)))), the JCS
 * of a string being the quoted string — it starts with `"`, a records digest's message with `[`, so
 * the two never share a message.
 */
export const noteDigest = (salt: string, note: string): string =>
  bytesToHex(hmac(sha256, saltBytes(salt), utf8ToBytes(canonicalJson(note))));

/*
 * The records each round commits into the audit chain by a digest (docs/provably-fair.md §11.1). The
 * core writes them, the verifiers recompute them: one definition, here.
 */

/** BETTING_CLOSED `data.betsDigest`: the accepted bets, final at "no va más". */
export const betsRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  bets: p.bets,
  stake: p.stake,
  calls: p.calls,
});
/** ROUND_SETTLED `data.settlementsDigest`: what each position was paid and by which ledger entry. */
export const settlementRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  stake: p.stake,
  settlement: p.settlement,
  ledgerSeq: p.ledgerSeq,
});
/** ROUND_VOIDED `data.refundsDigest`: the stakes given back. */
export const refundRecord = (p: RecordedPosition) => ({
  id: p.playerId,
  bets: p.bets,
  stake: p.stake,
  ledgerSeq: p.ledgerSeq,
});

export const betsDigest = (positions: readonly RecordedPosition[], salt?: string): string =>
  saltedDigest(salt, positions.map(betsRecord));
export const settlementsDigest = (positions: readonly RecordedPosition[], salt?: string): string =>
  saltedDigest(salt, positions.map(settlementRecord));
export const refundsDigest = (positions: readonly RecordedPosition[], salt?: string): string =>
  saltedDigest(salt, positions.map(refundRecord));

/** SHOE_CLOSED `commission.digest`: each player's deferred commission at the close. */
export const commissionRecord = (c: { playerId: string; collected: number; owed: number }) => ({
  id: c.playerId,
  collected: c.collected,
  owed: c.owed,
});
/** PLAYER_LEFT `collectionDigest`: the commission collected as he left, and its ledger entry. */
export const collectionRecord = (c: { playerId: string; commission: number; ledgerSeq: number | null }) => ({
  id: c.playerId,
  commission: c.commission,
  ledgerSeq: c.ledgerSeq,
});
