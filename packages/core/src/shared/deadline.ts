import { DomainError } from './errors';
import type { Store } from './ports/store';

/**
 * The time a request (or a job's invocation) has left, and whether its answer has been given. The
 * edge that knows it (the HTTP handler factory: Lambda's `getRemainingTimeInMillis`, middy's abort
 * signal) hands it to the use cases through their context (`withDeadline`); a use case called without
 * one has no deadline.
 */
export interface Deadline {
  /** Milliseconds the work may still take before its answer is due (Infinity: no deadline). */
  remainingMs(): number;
  /** Aborted once the answer was given (or is being given) without this work: nothing may be written after. */
  readonly signal: AbortSignal;
}

export const NO_DEADLINE: Deadline = {
  remainingMs: () => Number.POSITIVE_INFINITY,
  signal: new AbortController().signal,
};

/** Seconds a caller should wait before retrying an answer that said "not now" (409 or 503). */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The request ran out of time: what it wrote, if anything, is keyed on its Idempotency-Key, so a
 * retry with the same key finishes it or replays it, and never moves money twice.
 */
export const deadlineExceeded = (): DomainError =>
  new DomainError(
    'UNAVAILABLE',
    'DEADLINE_EXCEEDED',
    'the request ran out of time before its outcome was known; retry after Retry-After, a POST with the same Idempotency-Key (it never applies twice)',
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );

/**
 * A Store that refuses every transaction once `signal` is aborted: the one way all of a request's
 * writes go, so no write of it starts after its answer was sent, whichever loop or step it is in. A
 * transaction already sent when the signal fires may still commit: the answer then was 503
 * DEADLINE_EXCEEDED ("retry with the same key"), never one that says nothing moved.
 */
export function deadlineStore(store: Store, signal: AbortSignal): Store {
  const transact: Store['transact'] = (ops) =>
    signal.aborted ? Promise.reject(deadlineExceeded()) : store.transact(ops);
  return new Proxy(store, {
    get: (target, name) => {
      if (name === 'transact') return transact;
      const value: unknown = Reflect.get(target, name, target);
      // Bound to the store itself: its methods may use private fields a proxy does not have.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
