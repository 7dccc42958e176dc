import {
  checkIdempotencyKey,
  DomainError,
  type IdempotencyRecord,
  type IdempotencyStore,
  keyReused,
  requestHash,
  type StoredResponse,
} from '@pyb/core';

/**
 * HTTP idempotency, the one place: `Idempotency-Key` semantics (brief §7, as Stripe and the IETF draft use them), scoped per operator:
 * - first use: the request runs under an in-flight lock and its answer is stored;
 * - same key, same request, answered: the stored answer is replayed, nothing runs again;
 * - same key, other request: 422 IDEMPOTENCY_KEY_REUSED;
 * - same key while the first is still running: 409 IDEMPOTENCY_KEY_IN_FLIGHT;
 * - a holder that crashed leaves a lock that lapses after `lockMs`; the next retry takes it over
 *   (the money-moving use cases are themselves idempotent on the same key, so a re-run pays nothing
 *   twice).
 * Answers a retry could change (409 conflicts, 5xx) are not stored: the key is released.
 */
export interface IdempotencyDeps {
  store: IdempotencyStore;
  clock: { now(): Date };
  /** How long an in-flight lock holds: longer than the longest request (the Lambda timeout). */
  lockMs?: number;
  /** How long a key is remembered. */
  ttlSeconds?: number;
}

export interface IdempotentRequest {
  operatorId: string;
  key: string;
  fingerprint: string;
}

export interface IdempotentResult {
  response: StoredResponse;
  replayed: boolean;
}

export const IDEMPOTENCY_LOCK_MS = 60_000;
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** What makes two requests "the same": method, route, path parameters and body (core's requestHash). */
export const requestFingerprint = (request: {
  method: string;
  route: string;
  params: Record<string, string>;
  body: unknown;
}): string => requestHash('http', { ...request, body: request.body ?? null });

/**
 * The largest answer kept for replay. A round's answer lists its positions, and a round takes thousands
 * of bettors: an idempotency record must not grow with them (DynamoDB's 400 KB item limit, and a write
 * unit per KB). A larger answer is not kept: its key is released and a retry runs again, which is safe
 * because the routes that answer that much (resolve, void) are idempotent state machines themselves.
 */
export const MAX_KEPT_RESPONSE_BYTES = 32 * 1024;

/** Answers worth replaying: successes and refusals a retry cannot change, small enough to keep. */
const keeps = (response: StoredResponse): boolean =>
  response.status < 500 &&
  response.status !== 409 &&
  response.status !== 429 &&
  new TextEncoder().encode(response.body).length <= MAX_KEPT_RESPONSE_BYTES;

export async function runIdempotent(
  deps: IdempotencyDeps,
  request: IdempotentRequest,
  run: () => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  const key = checkIdempotencyKey(request.key);
  const lockMs = deps.lockMs ?? IDEMPOTENCY_LOCK_MS;
  const now = deps.clock.now();
  const token = crypto.randomUUID();
  const record: IdempotencyRecord = {
    operatorId: request.operatorId,
    key,
    fingerprint: request.fingerprint,
    state: 'IN_FLIGHT',
    lockToken: token,
    lockedUntil: now.getTime() + lockMs,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + (deps.ttlSeconds ?? IDEMPOTENCY_TTL_SECONDS),
  };
  const existing = await deps.store.beginIdempotent(record, Math.floor(now.getTime() / 1000));
  if (existing !== undefined) {
    if (existing.fingerprint !== request.fingerprint) {
      throw keyReused();
    }
    if (existing.state === 'DONE' && existing.response !== undefined) {
      return { response: existing.response, replayed: true };
    }
    const lapsed = existing.lockedUntil <= now.getTime();
    const taken =
      lapsed &&
      (await deps.store.takeOverIdempotent(
        request.operatorId,
        key,
        existing.lockToken,
        token,
        now.getTime() + lockMs,
      ));
    if (!taken) {
      throw new DomainError(
        'CONFLICT',
        'IDEMPOTENCY_KEY_IN_FLIGHT',
        'a request with this Idempotency-Key is still being processed; retry later',
      );
    }
  }
  let response: StoredResponse;
  try {
    response = await run();
  } catch (error) {
    await deps.store.releaseIdempotent(request.operatorId, key, token).catch(() => undefined);
    throw error;
  }
  if (keeps(response)) {
    await deps.store.completeIdempotent(request.operatorId, key, token, response);
  } else {
    await deps.store.releaseIdempotent(request.operatorId, key, token);
  }
  return { response, replayed: false };
}
