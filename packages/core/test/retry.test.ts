/**
 * The one optimistic-retry helper (`attempts`) and the request's deadline it obeys: time is an input
 * here (a Deadline whose remaining time the test sets), so nothing waits and nothing depends on speed.
 */
import { describe, expect, it } from 'vitest';
import { context, withDeadline } from '../src/shared/context';
import { type Deadline, deadlineStore, NO_DEADLINE } from '../src/shared/deadline';
import { DomainError } from '../src/shared/errors';
import type { Store, WriteOp } from '../src/shared/ports/store';
import { attempts, MAX_ATTEMPTS, tooMuchContention } from '../src/shared/retry';

/** A deadline whose remaining time the test moves (`spend`), and its abort. */
function testDeadline(ms: number) {
  let left = ms;
  const controller = new AbortController();
  const deadline: Deadline = { remainingMs: () => left, signal: controller.signal };
  const spend = (n: number) => {
    left -= n;
  };
  return { deadline, spend, abort: () => controller.abort() };
}

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
};

describe('attempts (the optimistic-retry helper)', () => {
  it('without a deadline, counts tries: MAX_ATTEMPTS of them', () => {
    expect([...attempts({ deadline: NO_DEADLINE })]).toEqual(
      Array.from({ length: MAX_ATTEMPTS }, (_, i) => i),
    );
  });

  it('stops while the time left is shorter than the slowest try so far (backoff included)', () => {
    const { deadline, spend } = testDeadline(1_000);
    const made: number[] = [];
    for (const attempt of attempts({ deadline })) {
      made.push(attempt);
      spend(attempt === 1 ? 300 : 100); // tries of 100 ms, one of 300 ms
    }
    // 1000 → 900 → 600 → 500 → 400 → 300 (300 < 300? no) → 200: 200 < 300, stop before the 7th.
    expect(made).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('makes the first try whatever the time left (a request with no contention is not refused)', () => {
    const { deadline } = testDeadline(0);
    expect([...attempts({ deadline }, 3)].slice(0, 1)).toEqual([0]);
  });

  it('throws DEADLINE_EXCEEDED once the answer was given (the signal aborted), before another try', () => {
    const { deadline, abort } = testDeadline(10_000);
    const tries = attempts({ deadline });
    expect(tries.next().value).toBe(0);
    abort();
    expect(codeOf(() => tries.next())).toBe('DEADLINE_EXCEEDED');
  });

  it('ends a loop with 409 CONCURRENT_UPDATE and when to retry (Retry-After)', () => {
    const error = tooMuchContention('changing the position');
    expect([error.kind, error.code, error.details]).toEqual([
      'CONFLICT',
      'CONCURRENT_UPDATE',
      { retryAfterSeconds: 1 },
    ]);
  });
});

describe('a request’s store (withDeadline)', () => {
  const credit = (operatorId: string): WriteOp =>
    ({ kind: 'put', entity: 'operator', key: { operatorId }, item: { operatorId } }) as never;
  /** A store that only records what is written to it (core has no Store adapter of its own). */
  const recording = () => {
    const written: string[] = [];
    const store = {
      transact: async (ops: readonly WriteOp[]) => {
        written.push(...ops.map((op) => (op.key as { operatorId: string }).operatorId));
      },
      get: async (_entity: string, key: { operatorId: string }) =>
        written.includes(key.operatorId) ? key : undefined,
    } as unknown as Store;
    return { store, written };
  };

  it('refuses every write once the signal aborted, and still reads', async () => {
    const { store, written } = recording();
    const { deadline, abort } = testDeadline(10_000);
    const guarded = deadlineStore(store, deadline.signal);
    await guarded.transact([credit('before')]);
    abort();
    await expect(guarded.transact([credit('after')])).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    expect(await guarded.get('operator', { operatorId: 'before' })).toBeDefined();
    expect(written).toEqual(['before']);
  });

  it('is a view of the container’s context: its deadline and store are the request’s, what it caches is the container’s', async () => {
    const { store, written } = recording();
    const base = context({ store, keys: {} as never });
    const { deadline, abort } = testDeadline(10_000);
    const request = withDeadline(base, deadline);
    expect([request.deadline, base.deadline]).toEqual([deadline, NO_DEADLINE]);
    request.decks = 'dealt shoes' as never;
    expect(base.decks).toBe('dealt shoes');
    abort();
    await expect(request.store.transact([credit('x')])).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    await base.store.transact([credit('x')]); // the container's own store is not the request's
    expect(written).toEqual(['x']);
  });
});
