/**
 * Message signing of the seamless wallet protocol (docs/seamless-wallet.md, "Signing"): HMAC-SHA256,
 * keyed by a secret the platform and the operator share, over `FIRST\nPATH\nTIMESTAMP\nBODY` where
 * FIRST is the method of a request or the status of an answer (so an answer cannot be replayed as a
 * request or as an answer to another path). The verifier accepts any of the secrets it holds (two
 * during a rotation: the new one and the one before) and a timestamp within the replay window.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a message's timestamp may be from the verifier's clock, either way. */
export const REPLAY_WINDOW_SECONDS = 300;
const SCHEME = 'v1=';

export interface SignedParts {
  /** `POST` for a request, the status (`200`) for an answer. */
  first: string;
  /** The request path as sent, with the wallet's base path (e.g. `/pyb/debit`). */
  path: string;
  /** Unix seconds, as a decimal string. */
  timestamp: string;
  /** The exact body bytes (UTF-8 text). */
  body: string;
}

const payload = (p: SignedParts): string => `${p.first}\n${p.path}\n${p.timestamp}\n${p.body}`;

/** `v1=<hex HMAC-SHA256>` of the message under `secret`. */
export function sign(secret: string, parts: SignedParts): string {
  return SCHEME + createHmac('sha256', secret).update(payload(parts), 'utf8').digest('hex');
}

export type VerifyFailure = 'BAD_SIGNATURE' | 'STALE_TIMESTAMP';

/**
 * Checks a signature against every secret in `secrets` (constant-time per secret) and the timestamp
 * against the window. `undefined` = accepted.
 */
export function verify(
  secrets: readonly string[],
  parts: SignedParts,
  signature: string | undefined,
  nowSeconds: number,
  windowSeconds = REPLAY_WINDOW_SECONDS,
): VerifyFailure | undefined {
  if (!/^[0-9]{1,12}$/.test(parts.timestamp)) return 'STALE_TIMESTAMP';
  if (Math.abs(nowSeconds - Number(parts.timestamp)) > windowSeconds) return 'STALE_TIMESTAMP';
  if (signature === undefined || !/^v1=[0-9a-f]{64}$/.test(signature)) return 'BAD_SIGNATURE';
  const given = Buffer.from(signature, 'utf8');
  let ok = false;
  for (const secret of secrets) {
    // No early exit: the time taken does not say which secret matched.
    if (timingSafeEqual(given, Buffer.from(sign(secret, parts), 'utf8'))) ok = true;
  }
  return ok ? undefined : 'BAD_SIGNATURE';
}

/** Unix seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
