/**
 * The verdict of the verifier page: the fairness library's own verifier (verifyShoe, bundled for the
 * browser, not rewritten) with the keys and the beacon network the reader trusts, plus one line the
 * page adds: which key signed, and where the reader's trust in it came from.
 *
 *   failed     a check of the library failed (the shoe contradicts itself, its seeds or its signatures)
 *   untrusted  every check passed, but it rests on a signing key or a beacon network the reader did not
 *              say to trust (none given, or another one: self-signed or unknown)
 *   verified   every check passed, with keys (and a beacon) the reader trusts
 */
import { type Check, keyFingerprint, parsePublicKey, verifyShoe } from '@pyb/fairness';

export type Verdict = 'verified' | 'failed' | 'untrusted';

export interface TrustedKey {
  /** PEM or base64 SPKI. */
  pem: string;
  /** Where the reader got it (shown next to the trust check). */
  source: string;
}

export interface Verification {
  verdict: Verdict;
  /** The library's checks, then the trust check. */
  checks: Check[];
}

/** PEM blocks (or one bare base64 key) in a pasted text. */
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

/** Where the trust in the statement's key comes from, in words (the library says whether it holds). */
function trustCheck(bundle: unknown, trusted: readonly TrustedKey[]): Check {
  const keys = bundleKeys(bundle);
  if (keys.length === 0) return { id: 'trust.keys', ok: false, detail: 'the shoe carries no signing key' };
  if (trusted.length === 0) {
    return {
      id: 'trust.keys',
      ok: false,
      detail: `no trusted key given: the shoe's key ${keys.map((k) => k.keyId).join(', ')} may be anyone's`,
    };
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
    ? { id: 'trust.keys', ok: true, detail: `signed by trusted key ${sources.join('; ')}` }
    : {
        id: 'trust.keys',
        ok: false,
        detail: `signed by a key that is not trusted: ${keys.map((k) => k.keyId).join(', ')}`,
      };
}

/**
 * `trusted`: keys the reader trusts (pasted, or the ones this site publishes); `trustedBeacons`: chain
 * hashes of beacon networks other than drand quicknet the reader trusts.
 */
export function verifyWithTrust(
  bundle: unknown,
  trusted: readonly TrustedKey[],
  trustedBeacons: readonly string[] = [],
): Verification {
  const pems = trusted.flatMap((k) => {
    try {
      parsePublicKey(k.pem);
      return [k.pem];
    } catch {
      return [];
    }
  });
  const result = verifyShoe(bundle, { trustedPublicKey: pems, trustedBeacons: [...trustedBeacons] });
  const trust = trustCheck(bundle, trusted);
  return { verdict: result.verdict, checks: [...result.checks, trust] };
}
