/**
 * Signing-key generations and their validity (docs/provably-fair.md §4.2). Each generation has a
 * certificate: generation 1 signs its own; generation n + 1's is signed by generation n, at the
 * handover, while generation n may still sign (afterwards the key policy forbids it to). Generation
 * n is valid from its `validFrom` until generation n + 1's: a statement, head or close must be signed
 * by the generation valid at its own timestamp, so a later key cannot sign something dated earlier.
 *
 * A rotation is witnessed from outside: every generation after the first is certified with an RFC 3161
 * time-stamp over its signed certificate (`keyCertificateDigest`), taken before the key signs anything,
 * and a verifier that pins the TSAs lets the generation sign only from the earliest time a token allows
 * (verify-keys.ts, `keys.stamped`). A successor minted later by an insider holding today's key (F3) can
 * get no token dated in the past, so it cannot sign anything dated before it was made.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { TimeStampAnchor } from './anchors';
import { bytesToBase64 } from './bytes';
import { canonicalJson } from './canonical';
import { keyFingerprint, parsePublicKey, verifyBase64Signature } from './signature';

export const KEY_SCHEME = 'pyb-key/1';

export interface KeyCertificate {
  scheme: typeof KEY_SCHEME;
  keyId: string;
  /** 1, 2, 3, … */
  generation: number;
  /** base64 DER SubjectPublicKeyInfo of the key (ECDSA P-256). */
  publicKey: string;
  /** ISO 8601 UTC: the key signs from then on, until the next generation's validFrom. */
  validFrom: string;
  /** The generation before (its certificate signs this one); null for generation 1. */
  previousKeyId: string | null;
}

export interface SignedKeyCertificate {
  certificate: KeyCertificate;
  /** base64 DER ECDSA: by the previous generation, or by itself for generation 1. */
  signature: string;
  /** Generations after the first: the outside time-stamp of `keyCertificateDigest`, taken at the rotation. */
  anchor?: TimeStampAnchor;
}

export const keyCertificateBytes = (certificate: KeyCertificate): Uint8Array =>
  new TextEncoder().encode(canonicalJson(certificate));

/**
 * The bytes a rotation's time-stamp covers: SHA-256 of the UTF-8 JCS of `{ certificate, signature }`,
 * so the token fixes the certificate and the predecessor's signature of it (as `headDigest` for heads).
 */
export const keyCertificateDigest = (
  signed: Pick<SignedKeyCertificate, 'certificate' | 'signature'>,
): Uint8Array =>
  sha256(
    new TextEncoder().encode(canonicalJson({ certificate: signed.certificate, signature: signed.signature })),
  );

export function keyCertificate(input: Omit<KeyCertificate, 'scheme' | 'publicKey'> & { spki: Uint8Array }) {
  const certificate: KeyCertificate = {
    scheme: KEY_SCHEME,
    keyId: input.keyId,
    generation: input.generation,
    publicKey: bytesToBase64(input.spki),
    validFrom: input.validFrom,
    previousKeyId: input.previousKeyId,
  };
  return certificate;
}

/** A generation whose certificate checked out: its key and the interval it may sign in. */
export interface ValidKey {
  keyId: string;
  generation: number;
  spki: Uint8Array;
  fingerprint: string;
  /** ms since the epoch. */
  from: number;
  /** ms since the epoch; Infinity for the newest generation known. */
  until: number;
}

export type KeyChainVerdict =
  | { ok: true; keys: ValidKey[] }
  | { ok: false; detail: string; keys: ValidKey[] };

/**
 * Checks the certificates of every generation, oldest first: numbered 1, 2, 3, … without gaps, each
 * naming the one before, each signed by the one before (generation 1 by itself), validFrom strictly
 * increasing. Resolves the keys that checked out up to the first problem; rejects only if the curve
 * cannot be loaded (`verifyDerSignature`).
 */
export async function verifyKeyChain(signed: readonly SignedKeyCertificate[]): Promise<KeyChainVerdict> {
  const keys: ValidKey[] = [];
  const fail = (detail: string): KeyChainVerdict => ({ ok: false, detail, keys });
  if (signed.length === 0) return fail('no key certificate');
  for (const [i, { certificate: c, signature }] of signed.entries()) {
    const previous = keys[i - 1];
    if (c.scheme !== KEY_SCHEME) return fail(`certificate ${i + 1} is not ${KEY_SCHEME}`);
    if (c.generation !== i + 1) return fail(`certificate ${i + 1} is numbered generation ${c.generation}`);
    if ((c.previousKeyId ?? null) !== (previous?.keyId ?? null)) {
      return fail(
        `generation ${c.generation} names ${c.previousKeyId ?? 'no'} previous key, expected ${previous?.keyId ?? 'none'}`,
      );
    }
    let spki: Uint8Array;
    try {
      spki = parsePublicKey(c.publicKey);
    } catch (error) {
      return fail(`generation ${c.generation}: ${(error as Error).message}`);
    }
    const from = Date.parse(c.validFrom);
    if (!Number.isFinite(from))
      return fail(`generation ${c.generation}: validFrom ${c.validFrom} is not a time`);
    if (previous && from <= previous.from) {
      return fail(
        `generation ${c.generation} is valid from ${c.validFrom}, not after generation ${previous.generation}`,
      );
    }
    const signer = previous?.spki ?? spki;
    if (!(await verifyBase64Signature(keyCertificateBytes(c), signature, signer))) {
      return fail(
        `the certificate of generation ${c.generation} (${c.keyId}) is not signed by ${previous ? `generation ${previous.generation} (${previous.keyId})` : 'its own key'}`,
      );
    }
    if (previous) previous.until = from;
    keys.push({
      keyId: c.keyId,
      generation: c.generation,
      spki,
      fingerprint: keyFingerprint(spki),
      from,
      until: Number.POSITIVE_INFINITY,
    });
  }
  return { ok: true, keys };
}

/** Whether `at` (ISO) falls in the key's interval [from, until). */
export function validAt(key: ValidKey, at: string): boolean {
  const t = Date.parse(at);
  return Number.isFinite(t) && t >= key.from && t < key.until;
}

export const intervalText = (key: ValidKey): string =>
  `${new Date(key.from).toISOString()} .. ${Number.isFinite(key.until) ? new Date(key.until).toISOString() : 'now'}`;
