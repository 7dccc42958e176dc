/**
 * ECDSA P-256 / SHA-256 signature checks as KMS produces them (SigningAlgorithm ECDSA_SHA_256,
 * MessageType RAW): the signature is over SHA-256 of the message bytes, DER-encoded, and the public
 * key is a DER SubjectPublicKeyInfo (what GetPublicKey returns).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { onFirstUse } from '@pyb/engine';
import { base64ToBytes, bytesToBase64, bytesToHex, equalBytes } from './bytes';

/**
 * The P-256 curve, loaded on the first signature check rather than with the package: parsing its code
 * (38 KiB) was part of every cold start of the functions that hold the verifier (replay-round,
 * player-rounds, player-history; docs/benchmarks.md, "Lambda bundles"), though a refused request checks
 * no signature and a replay checks one only after reading the shoe, its chain and its key — and starts
 * the load before those reads (`prepareSignatureChecks`). The bundler splits it into a chunk of its own
 * (its field and point code shared with the beacon's BLS curve).
 */
const p256 = /* @__PURE__ */ onFirstUse(() => import('./p256').then((m) => m.p256));

/** SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (0 unused bits) } of an uncompressed point. */
const P256_SPKI_PREFIX = Uint8Array.from([
  0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
  0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
]);

/** The 65-byte uncompressed point inside a P-256 SPKI; throws for any other key. */
export function p256PointOfSpki(spki: Uint8Array): Uint8Array {
  if (
    spki.length !== P256_SPKI_PREFIX.length + 65 ||
    !equalBytes(spki.subarray(0, P256_SPKI_PREFIX.length), P256_SPKI_PREFIX)
  ) {
    throw new TypeError('not an ECDSA P-256 SubjectPublicKeyInfo');
  }
  const point = spki.subarray(P256_SPKI_PREFIX.length);
  if (point[0] !== 0x04) throw new TypeError('P-256 key is not an uncompressed point');
  return point;
}

/**
 * Starts loading the curve and checks nothing: a caller that will check a signature after some I/O (a
 * replay reads the shoe, its chain and its key first) calls it before the I/O, so the curve's code is
 * parsed while the reads are in flight instead of on the request's path. Never rejects: a failed load
 * is not kept, and the check itself tries again and rejects.
 */
export function prepareSignatureChecks(): void {
  p256().catch(() => undefined);
}

/** Accepts a PEM "PUBLIC KEY" block or bare base64 of the DER SPKI. */
export function parsePublicKey(text: string): Uint8Array {
  const pem = /-----BEGIN PUBLIC KEY-----([\s\S]*?)-----END PUBLIC KEY-----/.exec(text);
  const spki = base64ToBytes(pem ? pem[1]! : text.trim());
  p256PointOfSpki(spki);
  return spki;
}

export function spkiToPem(spki: Uint8Array): string {
  const b64 = bytesToBase64(spki);
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

/** hex(SHA-256(SPKI DER)): what a verifier compares with the operator's published key. */
export const keyFingerprint = (spki: Uint8Array): string => bytesToHex(sha256(spki));

/**
 * Resolves true when `der` is a valid ECDSA P-256 signature of SHA-256(message) under `spki`, false
 * when it is not or anything is malformed; rejects only if the curve's code cannot be loaded (a broken
 * install, never a verdict on the signature). High-S signatures are accepted: KMS and OpenSSL do not
 * normalise S. Asynchronous because the curve is loaded on first use (`p256`).
 */
export async function verifyDerSignature(
  message: Uint8Array,
  der: Uint8Array,
  spki: Uint8Array,
): Promise<boolean> {
  let point: Uint8Array;
  try {
    point = p256PointOfSpki(spki);
  } catch {
    return false;
  }
  const curve = await p256();
  try {
    return curve.verify(der, message, point, { format: 'der', lowS: false, prehash: true });
  } catch {
    return false;
  }
}

/**
 * `verifyDerSignature` of a signature as evidence carries it, base64 DER: false when it is not base64.
 * Rejects, like it, only if the curve cannot be loaded.
 */
export function verifyBase64Signature(
  message: Uint8Array,
  signature: string,
  spki: Uint8Array,
): Promise<boolean> {
  let der: Uint8Array;
  try {
    der = base64ToBytes(signature);
  } catch {
    return Promise.resolve(false);
  }
  return verifyDerSignature(message, der, spki);
}
