/**
 * The verdict of the verifier page: the fairness library's own verifier (verifyShoe, bundled for the
 * browser, not rewritten) and its three-valued verdict, with the keys and the beacon network the reader
 * trusts, plus one line the page adds: which key signed, and where the reader's trust in it came from.
 *
 *   failed     a check of the library failed (the shoe contradicts itself, its seeds or its signatures)
 *   untrusted  every check passed, but it rests on a signing key or a beacon network the reader did not
 *              say to trust (none given, or another one: self-signed or unknown)
 *   verified   every check passed, with keys (and a beacon) the reader trusts
 */
import {
  type BeaconPin,
  type Check,
  keyFingerprint,
  parsePublicKey,
  type SignedKeyCertificate,
  type Verdict,
  verifyShoe,
} from '@pyb/fairness';

export type { Verdict };

export interface TrustedKey {
  /** PEM or base64 SPKI. */
  pem: string;
  /** Where the reader got it (shown next to the trust check). */
  source: string;
}

export interface Verification {
  /** The library's own verdict. */
  verdict: Verdict;
  /** The library's checks (a passed check resting on something untrusted is marked `untrusted`). */
  checks: Check[];
  /** Which key the reader trusted, and where it came from, in words. */
  trust: string;
}

/** PEM blocks (or one bare base64 key) in a pasted text. */
/** The PEM certificates in a pasted text (a TSA's, and the chain to its root), each whole. */
export function splitCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
}

export function splitPem(text: string): string[] {
  const blocks = text.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g);
  if (blocks) return blocks;
  const bare = text.trim();
  return bare ? [bare] : [];
}

/** The signing keys a bundle or proof carries: every generation's certificate (docs/provably-fair.md §4.2). */
export function bundleKeys(bundle: unknown): { keyId: string; pem: string }[] {
  const keys = (bundle as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((k) => {
    const c = (k as { certificate?: { keyId?: unknown; publicKey?: unknown } })?.certificate;
    return typeof c?.keyId === 'string' && typeof c.publicKey === 'string'
      ? [{ keyId: c.keyId, pem: c.publicKey }]
      : [];
  });
}

/**
 * Which key the reader trusted, in words: where it came from and whether it is the shoe's (the
 * library's `keys.trusted` check decides; this line only tells the reader what was compared).
 */
export function trustText(bundle: unknown, trusted: readonly TrustedKey[]): string {
  const keys = bundleKeys(bundle);
  if (keys.length === 0) return 'The input carries no signing key.';
  const ids = keys.map((k) => k.keyId).join(', ');
  if (trusted.length === 0) {
    return `No key given to trust, and none published here for ${ids}: the shoe's own key may be anyone's.`;
  }
  const known = new Map<string, string>();
  for (const key of trusted) {
    try {
      known.set(keyFingerprint(parsePublicKey(key.pem)), key.source);
    } catch {
      // A trusted "key" that is no P-256 key trusts nothing.
    }
  }
  const sources: string[] = [];
  for (const key of keys) {
    try {
      const fingerprint = keyFingerprint(parsePublicKey(key.pem));
      const source = known.get(fingerprint);
      if (source) sources.push(`${key.keyId} (SHA-256 ${fingerprint.slice(0, 16)}…) from ${source}`);
    } catch {
      // Not a P-256 key: the library's keys.chain check fails on it.
    }
  }
  return sources.length > 0
    ? `Signed by the trusted key ${sources.join('; ')}.`
    : `Signed by ${ids}, which is not a key you trust (${[...new Set(trusted.map((k) => k.source))].join(', ')}).`;
}

/**
 * The library's verifier and its three-valued verdict, with the keys the reader trusts (pasted, or the
 * ones this site publishes), the key certificates the site lists (a successor is trusted only through
 * them, never through the bundle's) and the beacon networks other than drand quicknet the reader
 * trusts, each by all its fields.
 */
export async function verifyWithTrust(
  bundle: unknown,
  trusted: readonly TrustedKey[],
  trustedBeacons: readonly BeaconPin[] = [],
  keyCertificates?: readonly SignedKeyCertificate[],
  /** Time-stamp authorities' certificates (PEM) the user pinned: never one found in the bundle. */
  trustedTimeStampAuthorities: readonly string[] = [],
): Promise<Verification> {
  const pems = trusted.flatMap((k) => {
    try {
      parsePublicKey(k.pem);
      return [k.pem];
    } catch {
      return [];
    }
  });
  const result = await verifyShoe(bundle, {
    trustedPublicKey: pems,
    trustedBeacons: [...trustedBeacons],
    ...(keyCertificates && { keyCertificates }),
    ...(trustedTimeStampAuthorities.length > 0 && { trustedTimeStampAuthorities }),
  });
  return { verdict: result.verdict, checks: result.checks, trust: trustText(bundle, trusted) };
}
