/**
 * The independent implementation (independent.ts) of docs/provably-fair.md §3–§6, §10–§11: the
 * commitment, JCS, statement signatures, the audit hash, the contributions digest, the beacon round
 * and its BLS check, the shoe entropy, the key chain and a round's event order — Node's crypto, and
 * @noble/curves for the pairing alone.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import type { Anchor } from './independent-timestamps';

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** §3 */
export const independentCommitment = (serverSeedHex: string): string =>
  createHash('sha256').update(Buffer.from(serverSeedHex, 'hex')).digest('hex');

/**
 * §2 canonical JSON (RFC 8785) for what the statement and audit events contain: objects, arrays,
 * strings, booleans, null and integers. Keys sorted by UTF-16 code units; JSON.stringify already
 * escapes strings as RFC 8785 requires.
 */
export function jcs(value: unknown): string {
  if (typeof value === 'string' && LONE.test(value)) throw new Error('§3: unpaired surrogate');
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`this JCS handles integers only: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `{${entries.map(([k, v]) => `${jcs(k)}:${jcs(v)}`).join(',')}}`;
}

/** §4: ECDSA P-256 / SHA-256 over UTF-8(JCS(statement)), DER signature, SPKI or PEM key. */
export function independentSignatureOk(
  statement: unknown,
  signatureBase64: string,
  publicKey: string,
): boolean {
  const key = publicKey.includes('BEGIN PUBLIC KEY')
    ? createPublicKey(publicKey)
    : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
  return verify(
    'sha256',
    Buffer.from(jcs(statement), 'utf8'),
    { key, dsaEncoding: 'der' },
    Buffer.from(signatureBase64, 'base64'),
  );
}

/** §10: the hash of one audit event. */
export const independentEventHash = (prevHash: string, event: unknown): string =>
  createHash('sha256')
    .update(`${prevHash}\n${jcs(event)}`, 'utf8')
    .digest('hex');

const sha256hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** §4.1: SHA-256 of the UTF-8 JCS of a value (hex) — what a head's or a rotation's time-stamp covers. */
export const jcsSha256 = (value: unknown): string => sha256hex(jcs(value));

/** §5.2: the digest of the contributions, in index order. */
export const independentContributionsDigest = (
  contributions: readonly { index: number; kind: string; seed: string }[],
) =>
  sha256hex(
    Buffer.from(jcs(contributions.map((c) => ({ index: c.index, kind: c.kind, seed: c.seed }))), 'utf8'),
  );

/** §5.3: the first round published at or after the close plus the margin. */
export function independentBeaconRound(
  genesis: number,
  period: number,
  closedAt: string,
  margin: number,
): number {
  const t = Date.parse(closedAt) / 1000 + margin;
  return t <= genesis ? 1 : Math.ceil((t - genesis) / period) + 1;
}

/** §5: when a beacon round is published, ms since the epoch: genesis + (round − 1) · period. */
export const independentPublishedMs = (genesis: number, period: number, round: number): number =>
  (genesis + (round - 1) * period) * 1000;

/** §5.1: the BLS check of a round (G1 signature of SHA-256(be64(round)), G2 key, RFC 9380 hash-to-curve). */
export function independentBeaconOk(publicKeyHex: string, round: number, signatureHex: string): boolean {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(round));
  const bls = bls12_381.shortSignatures;
  try {
    return bls.verify(
      Buffer.from(signatureHex, 'hex'),
      bls.hash(createHash('sha256').update(message).digest()),
      Buffer.from(publicKeyHex, 'hex'),
    );
  } catch {
    return false;
  }
}

/** §6: the shoe entropy, the text the stream of §7 takes as its client input. */
export function independentEntropy(
  shoeId: string,
  commitment: string,
  contributionsDigest: string,
  beacon: { chainHash: string; round: number; signature: string },
): string {
  const randomness = sha256hex(Buffer.from(beacon.signature, 'hex'));
  return sha256hex(
    Buffer.from(
      jcs({
        scheme: 'pyb-shoe/2',
        shoeId,
        commitment,
        contributions: contributionsDigest,
        beacon: { chainHash: beacon.chainHash, round: beacon.round, randomness },
      }),
      'utf8',
    ),
  );
}

export interface Certificate {
  certificate: {
    keyId: string;
    generation: number;
    publicKey: string;
    validFrom: string;
    previousKeyId: string | null;
  };
  signature: string;
  /** Generations after the first: the rotation's time-stamp (independent-timestamps.ts). */
  anchor?: Anchor;
}

/** §4.2: the key chain; each key with the interval it may sign in, or an error. */
export function independentKeys(certificates: readonly Certificate[]) {
  const keys: { keyId: string; publicKey: string; from: number; until: number }[] = [];
  certificates.forEach(({ certificate: c, signature }, i) => {
    const previous = keys[i - 1];
    if (c.generation !== i + 1 || c.previousKeyId !== (previous?.keyId ?? null))
      throw new Error('broken chain');
    const signer = previous?.publicKey ?? c.publicKey;
    if (!independentSignatureOk(c, signature, signer)) throw new Error(`certificate ${i + 1} not signed`);
    const from = Date.parse(c.validFrom);
    if (previous) {
      if (from <= previous.from) throw new Error('validity goes back');
      previous.until = from;
    }
    keys.push({ keyId: c.keyId, publicKey: c.publicKey, from, until: Number.POSITIVE_INFINITY });
  });
  return keys;
}

/**
 * §4.2: the digest a rotation's time-stamp covers, SHA-256 of the JCS of `{ certificate, signature }`
 * (hex), and the Merkle leaf the TSA's root is over (docs/time-stamps.md §3.3: SHA-256(0x00 ‖ d)).
 */
export function independentRotationDigest(entry: Certificate): { digest: string; leaf: string } {
  const digest = jcsSha256({
    certificate: { ...entry.certificate, scheme: 'pyb-key/1' },
    signature: entry.signature,
  });
  return { digest, leaf: sha256hex(Buffer.concat([Buffer.from([0]), Buffer.from(digest, 'hex')])) };
}

/** §11.2: a round's events in chain order. */
export function independentRoundOrderOk(types: readonly string[], status: 'SETTLED' | 'VOIDED'): boolean {
  const text = types.join(',');
  return status === 'SETTLED'
    ? text === 'ROUND_OPENED,BETTING_CLOSED,COUP_DEALT,ROUND_SETTLED'
    : text === 'ROUND_OPENED,ROUND_VOIDED' || text === 'ROUND_OPENED,BETTING_CLOSED,ROUND_VOIDED';
}

/** A base64 DER SPKI of a key given as PEM or base64 DER. */
export const spki = (key: string): string =>
  (key.includes('BEGIN PUBLIC KEY')
    ? createPublicKey(key)
    : createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' })
  )
    .export({ format: 'der', type: 'spki' })
    .toString('base64');
