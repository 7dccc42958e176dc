/**
 * The Idempotency-Key use case on DynamoDB Local: conditional writes decide who runs, what is
 * replayed, and what is refused. (The HTTP side is covered in test/e2e/idempotency.test.ts.)
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DomainError, type StoredResponse } from '@pyb/core';
import { DynamoIdempotencyStore, tableNames } from '@pyb/store-dynamodb';
import { createTables, localClientConfig } from '@pyb/store-dynamodb/local';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_KEPT_RESPONSE_BYTES, runIdempotent } from '../src/idempotency';

const client = new DynamoDBClient(localClientConfig(inject('dynamodbEndpoint')));
const doc = DynamoDBDocumentClient.from(client);
const names = tableNames(`idem-${process.pid}-${Date.now()}`);
const store = new DynamoIdempotencyStore(doc, names.idempotency);
// Near the real time: DynamoDB Local sweeps items whose TTL (expiresAt) is in the real past.
let now = new Date();
const deps = { store, clock: { now: () => now }, lockMs: 1_000 };

beforeAll(() => createTables(client, names, ['idempotency']));
afterAll(() => client.destroy());

const ok = (body: unknown, status = 201): StoredResponse => ({ status, body: JSON.stringify(body) });
const request = (key: string, fingerprint = 'f1', operatorId = 'op-a') => ({ operatorId, key, fingerprint });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('runIdempotent', () => {
  it('runs once and replays the first answer byte for byte', async () => {
    let runs = 0;
    const first = await runIdempotent(deps, request('k-replay'), async () => ok({ n: ++runs }));
    const second = await runIdempotent(deps, request('k-replay'), async () => ok({ n: ++runs }));
    expect(runs).toBe(1);
    expect(first).toEqual({ response: ok({ n: 1 }), replayed: false });
    expect(second).toEqual({ response: ok({ n: 1 }), replayed: true });
  });

  it('keeps no answer too large for an item (a round of thousands of positions): a retry runs again', async () => {
    let runs = 0;
    const big = () => ok({ n: ++runs, positions: 'x'.repeat(MAX_KEPT_RESPONSE_BYTES) }, 200);
    const first = await runIdempotent(deps, request('k-big'), async () => big());
    const second = await runIdempotent(deps, request('k-big'), async () => big());
    expect([runs, first.replayed, second.replayed]).toEqual([2, false, false]);
  });

  it('refuses the same key with another request (422) and runs nothing', async () => {
    await runIdempotent(deps, request('k-other'), async () => ok({}));
    let ran = false;
    const error = await refusal(
      runIdempotent(deps, request('k-other', 'f2'), async () => {
        ran = true;
        return ok({});
      }),
    );
    expect([error.kind, error.code, ran]).toEqual(['UNPROCESSABLE', 'IDEMPOTENCY_KEY_REUSED', false]);
  });

  it('answers 409 while the first request is in flight, then replays once it is done', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const running = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = runIdempotent(deps, request('k-flight'), async () => {
      entered();
      await gate;
      return ok({ first: true });
    });
    await running; // the first holds the lock before the second arrives
    const error = await refusal(runIdempotent(deps, request('k-flight'), async () => ok({ second: true })));
    expect([error.kind, error.code]).toEqual(['CONFLICT', 'IDEMPOTENCY_KEY_IN_FLIGHT']);
    release();
    await first;
    const again = await runIdempotent(deps, request('k-flight'), async () => ok({ second: true }));
    expect(again).toEqual({ response: ok({ first: true }), replayed: true });
  });

  it('lets exactly one of many concurrent requests run', async () => {
    let runs = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        runIdempotent(deps, request('k-race'), async () => {
          runs++;
          await new Promise((r) => setTimeout(r, 100));
          return ok({});
        }),
      ),
    );
    expect(runs).toBe(1);
    // Late arrivals (after the first finished) get the replay; the others were refused while it ran.
    const answers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    for (const a of answers) expect(a.response).toEqual(ok({}));
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as DomainError).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
    }
  });

  it('scopes keys per operator', async () => {
    const a = await runIdempotent(deps, request('k-shared', 'fa', 'op-a'), async () => ok({ op: 'a' }));
    const b = await runIdempotent(deps, request('k-shared', 'fb', 'op-b'), async () => ok({ op: 'b' }));
    expect([a.replayed, b.replayed, JSON.parse(b.response.body)]).toEqual([false, false, { op: 'b' }]);
  });

  it('takes over the lock of a crashed holder once it lapses', async () => {
    // A holder that never finishes: its lock stays until it lapses.
    await new Promise<void>((entered) => {
      void runIdempotent(deps, request('k-crash'), () => {
        entered();
        return new Promise<StoredResponse>(() => undefined);
      });
    });
    expect((await refusal(runIdempotent(deps, request('k-crash'), async () => ok({})))).code).toBe(
      'IDEMPOTENCY_KEY_IN_FLIGHT',
    );
    now = new Date(now.getTime() + 1_001);
    const retry = await runIdempotent(deps, request('k-crash'), async () => ok({ retried: true }));
    expect(retry).toEqual({ response: ok({ retried: true }), replayed: false });
  });

  it('forgets answers a retry may change (409, 5xx) and thrown errors', async () => {
    const conflict = await runIdempotent(deps, request('k-409'), async () => ok({}, 409));
    const next = await runIdempotent(deps, request('k-409'), async () => ok({ fine: true }));
    expect([conflict.response.status, next.replayed, next.response.status]).toEqual([409, false, 201]);
    await expect(
      runIdempotent(deps, request('k-throw'), async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await runIdempotent(deps, request('k-throw'), async () => ok({}))).replayed).toBe(false);
  });

  it('keeps refusals a retry cannot change (422) and replays them', async () => {
    await runIdempotent(deps, request('k-422'), async () => ok({ code: 'INSUFFICIENT_FUNDS' }, 422));
    const again = await runIdempotent(deps, request('k-422'), async () => ok({}));
    expect([again.replayed, again.response.status]).toEqual([true, 422]);
  });

  it('refuses a missing or malformed key before touching the table', async () => {
    expect((await refusal(runIdempotent(deps, request(''), async () => ok({})))).code).toBe(
      'IDEMPOTENCY_KEY_REQUIRED',
    );
    expect((await refusal(runIdempotent(deps, request('has space'), async () => ok({})))).code).toBe(
      'IDEMPOTENCY_KEY_INVALID',
    );
    expect((await refusal(runIdempotent(deps, request('x'.repeat(256)), async () => ok({})))).code).toBe(
      'IDEMPOTENCY_KEY_INVALID',
    );
  });
});
