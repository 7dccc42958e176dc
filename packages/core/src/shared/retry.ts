import { type Deadline, deadlineExceeded, RETRY_AFTER_SECONDS } from './deadline';
import { DomainError } from './errors';
import {
  type Entity,
  type EntityKeys,
  type Expect,
  type Store,
  TransactionCanceled,
  type WriteOp,
} from './ports/store';

/** Attempts at most before a write that keeps colliding gives up (each collision means another write won). */
export const MAX_ATTEMPTS = 80;

/**
 * The one optimistic-retry helper: every read-check-write loop of the use cases is
 * `for (const attempt of attempts(ctx)) { read; check; try the conditional write; await backoff(attempt) }`
 * followed by `throw tooMuchContention(...)`. It yields attempt numbers while
 * - fewer than MAX_ATTEMPTS were made, and
 * - the deadline leaves time for one more as slow as the slowest so far (backoff included): a loop
 *   that would otherwise run past it stops while its writes are still refused, so its answer, 409
 *   CONCURRENT_UPDATE, is true (nothing of it was written) and comes before the deadline;
 * and throws DEADLINE_EXCEEDED at once if the answer was already given (the signal aborted).
 */
export function* attempts(ctx: { deadline: Deadline }, max: number = MAX_ATTEMPTS): Generator<number, void> {
  const { deadline } = ctx;
  let before = deadline.remainingMs();
  let slowest = 0;
  for (let attempt = 0; attempt < max; attempt++) {
    if (deadline.signal.aborted) throw deadlineExceeded();
    if (attempt > 0) {
      const left = deadline.remainingMs();
      slowest = Math.max(slowest, before - left);
      before = left;
      if (left < slowest) return;
    }
    yield attempt;
  }
}

/** Jittered exponential backoff, capped: spreads concurrent writers on one item. */
export function backoff(attempt: number): Promise<void> {
  const cap = Math.min(250, 8 * 2 ** Math.min(attempt, 5));
  return new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * cap));
}

/** The answer of a loop `attempts` stopped: none of its tries was written (a retry is safe). */
export const tooMuchContention = (what: string): DomainError =>
  new DomainError(
    'CONFLICT',
    'CONCURRENT_UPDATE',
    `${what} kept colliding with concurrent writes and was not done; retry after Retry-After`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );

/**
 * Sets `path` of an item once (a signed receipt, an outside time-stamp): the write holds only while the
 * path is unset (and `expect` holds). A refused write is read back — a concurrent caller's value wins —
 * and otherwise tried again: a refusal for another write to the item (or a transient one) must never
 * pass for "already set".
 */
export async function writeOnce<E extends Entity, T>(
  ctx: { deadline: Deadline; store: Store },
  what: string,
  once: { entity: E; key: EntityKeys[E]; path: string; value: T; expect: Expect },
): Promise<T> {
  const op = {
    kind: 'update',
    entity: once.entity,
    key: once.key,
    set: { [once.path]: once.value },
    expect: { ...once.expect, [once.path]: null },
  } as WriteOp;
  for (const attempt of attempts(ctx)) {
    try {
      await ctx.store.transact([op]);
      return once.value;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      const item = await ctx.store.get(once.entity, once.key);
      const theirs = once.path
        .split('.')
        .reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], item);
      if (theirs !== undefined && theirs !== null) return theirs as T;
      await backoff(attempt);
    }
  }
  throw tooMuchContention(what);
}

/** Runs `fn` with a bounded number of items in flight; results in input order, first error thrown after all settle. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = await fn(items[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}

/** Runs one conditional transaction; false when a condition refused it (another writer moved first). */
export async function tryTransact(store: Store, ops: readonly WriteOp[]): Promise<boolean> {
  try {
    await store.transact(ops);
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceled) return false;
    throw error;
  }
}
