/**
 * Idempotency keys and request hashes, defined once: the HTTP layer (functions/src/idempotency.ts)
 * and the money-moving use cases (their ledger entries are keyed by the client's key) check the key
 * with the same grammar and hash requests the same way.
 */
import { eventHash } from '@pyb/fairness';
import { DomainError } from '../errors';

/** 1-255 visible ASCII characters (no space, no control character). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The client's Idempotency-Key: IDEMPOTENCY_KEY_REQUIRED when absent, _INVALID when malformed. */
export function checkIdempotencyKey(value: unknown): string {
  if (value === undefined || value === null || value === '') {
    throw new DomainError(
      'INVALID',
      'IDEMPOTENCY_KEY_REQUIRED',
      'this request changes state: send an Idempotency-Key header',
    );
  }
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new DomainError(
      'INVALID',
      'IDEMPOTENCY_KEY_INVALID',
      'an Idempotency-Key is 1 to 255 visible ASCII characters',
    );
  }
  return value;
}

/**
 * Domain-separated SHA-256 (hex) of a request, over its RFC 8785 JSON (so key order does not matter):
 * the same key with another request is refused. `kind` names what is hashed (`bet`, `wallet`,
 * `http`, ...), so two kinds of request never share a hash.
 */
export const requestHash = (kind: string, body: unknown): string => eventHash(`request:${kind}`, body);

export const keyReused = (): DomainError =>
  new DomainError(
    'UNPROCESSABLE',
    'IDEMPOTENCY_KEY_REUSED',
    'this Idempotency-Key was used for a different request; use a new key for a new request',
  );
