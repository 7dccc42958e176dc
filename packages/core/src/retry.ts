import { DomainError } from './errors';
import { type Store, TransactionCanceled, type WriteOp } from './ports/store';

/** Attempts before a write that keeps colliding gives up (each collision means another write won). */
export const MAX_ATTEMPTS = 80;

/** Jittered exponential backoff, capped: spreads concurrent writers on one item. */
export function backoff(attempt: number): Promise<void> {
  const cap = Math.min(250, 8 * 2 ** Math.min(attempt, 5));
  return new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * cap));
}

export const tooMuchContention = (what: string): DomainError =>
  new DomainError('CONFLICT', 'CONCURRENT_UPDATE', `${what} kept colliding with concurrent writes; retry`);

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
