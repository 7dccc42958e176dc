/**
 * The verdict of the verifier page, from the fairness library's own verifier (verifyBundle, bundled
 * for the browser, not rewritten) plus one question the library does not answer yet: is the key that
 * signed the bundle a key the reader trusts?
 *
 *   failed     a check of the library failed (the bundle contradicts itself, its seeds or its signatures)
 *   untrusted  every check passed, but a signing key in the bundle is not one the reader trusts
 *              (none given, or another one: self-signed or unknown)
 *   verified   every check passed and every signing key in the bundle is trusted
 *
 * Phase 2: the library's verifier returns this three-valued verdict itself (#10); this module then
 * only maps its answer.
 */
import { type Check, keyFingerprint, parsePublicKey, verifyBundle } from '@pyb/fairness';

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

/** The public keys a bundle carries: the statement's, and the close's when the key was rotated. */
export function bundleKeys(bundle: unknown): { keyId: string; pem: string }[] {
  const b = bundle as {
    publicKey?: unknown;
    statement?: { keyId?: unknown };
    audit?: { publicKey?: unknown; close?: { keyId?: unknown } };
  };
  const out: { keyId: string; pem: string }[] = [];
  if (typeof b?.publicKey === 'string')
    out.push({ keyId: String(b.statement?.keyId ?? '?'), pem: b.publicKey });
  if (typeof b?.audit?.publicKey === 'string')
    out.push({ keyId: String(b.audit.close?.keyId ?? '?'), pem: b.audit.publicKey });
  return out;
}

function trustCheck(bundle: unknown, trusted: readonly TrustedKey[]): Check {
  const keys = bundleKeys(bundle);
  if (keys.length === 0) return { id: 'trust.keys', ok: false, detail: 'the bundle carries no public key' };
  if (trusted.length === 0) {
    return {
      id: 'trust.keys',
      ok: false,
      detail: `no trusted key given: the bundle's key ${keys.map((k) => k.keyId).join(', ')} may be anyone's`,
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
  const untrusted: string[] = [];
  const sources: string[] = [];
  for (const key of keys) {
    let fingerprint: string;
    try {
      fingerprint = keyFingerprint(parsePublicKey(key.pem));
    } catch {
      untrusted.push(`${key.keyId} (not a P-256 key)`);
      continue;
    }
    const source = known.get(fingerprint);
    if (source) sources.push(`${key.keyId} (SHA-256 ${fingerprint.slice(0, 16)}…) from ${source}`);
    else untrusted.push(`${key.keyId} (SHA-256 ${fingerprint.slice(0, 16)}…)`);
  }
  return untrusted.length === 0
    ? { id: 'trust.keys', ok: true, detail: `signed by trusted key ${sources.join('; ')}` }
    : { id: 'trust.keys', ok: false, detail: `signed by a key that is not trusted: ${untrusted.join('; ')}` };
}

export function verifyWithTrust(bundle: unknown, trusted: readonly TrustedKey[]): Verification {
  const checks = verifyBundle(bundle);
  const consistent = checks.length > 0 && checks.every((c) => c.ok);
  const trust = trustCheck(bundle, trusted);
  const verdict: Verdict = !consistent ? 'failed' : trust.ok ? 'verified' : 'untrusted';
  return { verdict, checks: [...checks, trust] };
}
