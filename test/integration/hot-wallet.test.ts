/**
 * Answers that tell the truth under load (#23): the real HTTP handlers, invoked as Lambda invokes
 * them, on a store slowed on purpose and with a deadline short beside its delay, so that contention
 * and running out of time are certain rather than likely. Whatever the timing, no answer is a 500, a
 * 201 is exactly one ledger entry and any other answer none, a 409 or 503 says when to retry, and a
 * 503's retry with the same Idempotency-Key applies once.
 */
import { issueApiKey, type Store } from '@pyb/core';
import type { AppContext } from '@pyb/functions/context';
import { ANSWER_RESERVE_MS } from '@pyb/functions/deadline';
import type { HttpEvent, HttpResult } from '@pyb/functions/http';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { admin, operator } from '../support/actors';
import { slowStore } from '../support/faulty-store';
import { fundPlayers } from '../support/fixture';
import { wholeLedger } from '../support/game';
import { MemoryIdempotencyStore, MemoryPrincipalStore } from '../support/memory-edges';
import { createTestStack, type TestStack } from '../support/stack';

vi.hoisted(() => {
  process.env.LOG_LEVEL ??= 'SILENT';
});
const { setAppContext } = await import('@pyb/functions/context');
const { handler: placeBet } = await import('@pyb/functions/handlers/place-bet');
const { handler: walletTransaction } = await import('@pyb/functions/handlers/wallet-transaction');

let stack: TestStack;
let apiKey = '';
const principals = new MemoryPrincipalStore();
const idempotency = new MemoryIdempotencyStore();

beforeAll(async () => {
  stack = await createTestStack('hot');
  apiKey = (await issueApiKey(principals, stack.clock, { operatorId: 'op-1', role: 'operator' })).key;
});
afterAll(async () => {
  setAppContext(undefined);
  await stack?.cleanup();
});

/** The handlers' context on `store` (a fresh one: its caches start empty, like a new container). */
function edgeOn(store: Store): AppContext {
  const context = {
    env: {},
    store,
    principals,
    idempotency,
    clock: stack.clock,
    keys: stack.keys,
    beacon: stack.beacon,
    ctxs: new WeakMap(),
  } as unknown as AppContext;
  setAppContext(context);
  return context;
}

/** Lambda's context of one invocation that has `ms` left for the use case (plus the answer's reserve). */
const lambdaWith = (ms: number | undefined): Context => {
  const end = Date.now() + ANSWER_RESERVE_MS + (ms ?? 0);
  return {
    awsRequestId: 'hot',
    functionName: 'pyb-test-hot-wallet',
    ...(ms !== undefined && { getRemainingTimeInMillis: () => end - Date.now() }),
  } as Context;
};

const post = (path: string, params: Record<string, string>, body: unknown, key: string): HttpEvent =>
  ({
    version: '2.0',
    rawPath: path,
    rawQueryString: '',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    pathParameters: params,
    requestContext: { requestId: `gw-${key}`, http: { method: 'POST', path } },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

const STAKE = 1_000;
const betOn = (roundId: string, playerId: string, key: string) =>
  post(
    `/v1/rounds/${roundId}/bets`,
    { roundId },
    { playerId, bets: [{ type: 'PLAYER', amount: STAKE }] },
    key,
  );

const answerOf = (result: HttpResult) => ({
  status: result.statusCode,
  code: result.statusCode >= 400 ? (JSON.parse(result.body) as { code: string }).code : undefined,
  retryAfter: result.headers['Retry-After'],
  replayed: result.headers['Idempotency-Replayed'] === 'true',
});

const overrides = {
  limits: {
    TIE: { min: 100, max: 100_000 },
    PLAYER: { min: 100, max: 100_000 },
    BANKER: { min: 100, max: 100_000 },
  },
};

async function roundInPlay(name: string): Promise<string> {
  const table = await stack.core.createTable(admin(), { name, variant: 'mini', config: overrides });
  await stack.core.openShoe(admin(), { tableId: table.tableId });
  return (await stack.core.openRound(operator(), { tableId: table.tableId })).roundId;
}

const ledgerEntry = (playerId: string, key: string) =>
  stack.store.get('ledger', { operatorId: 'op-1', playerId, key: `c:${key}` });
const balanceOf = async (playerId: string) => (await stack.core.getWallet(operator(), { playerId })).balance;

describe('a hot wallet on a slowed store', () => {
  it('100 concurrent bets, 20 ms a store call, 600 ms to answer: no 500, each 201 one ledger entry, the rest none; a 503 retried with its key applies once', async () => {
    const roundId = await roundInPlay('hot-wallet');
    await fundPlayers(stack.core, operator(), ['hot'], 50_000);
    await fundPlayers(stack.core, operator(), ['hot-warm'], 1_000);
    const slow = slowStore(stack.store, 20);
    edgeOn(slow);
    const keys = Array.from({ length: 100 }, (_, i) => `hot-bet-${i}`);
    // A warm container: the round's facts and the table's configuration are cached before the rush.
    expect((await placeBet(betOn(roundId, 'hot-warm', 'warm-1'), lambdaWith(undefined))).statusCode).toBe(
      201,
    );
    const answers = (
      await Promise.all(keys.map((key) => placeBet(betOn(roundId, 'hot', key), lambdaWith(600))))
    ).map(answerOf);
    await slow.idle(); // the work left behind a 503 has ended (its writes refused)

    expect(answers.filter((a) => a.status >= 500 && a.code !== 'DEADLINE_EXCEEDED')).toEqual([]);
    for (const a of answers) {
      expect([201, 409, 422, 503]).toContain(a.status);
      if (a.status === 409) expect([a.code, a.retryAfter]).toEqual(['CONCURRENT_UPDATE', '1']);
      if (a.status === 503) expect([a.code, a.retryAfter]).toEqual(['DEADLINE_EXCEEDED', '1']);
    }
    // Commits on one wallet are one at a time, each a write (20 ms) after a read that saw the previous
    // one: at most ~600 / 20 fit before the deadline, so most of the 100 could not be placed in time.
    expect(answers.filter((a) => a.status !== 201).length).toBeGreaterThan(50);

    // A 503 is "retry with the same key": retried on the store as it is, each applies once.
    edgeOn(stack.store);
    const final = [...answers];
    for (const [i, a] of answers.entries()) {
      if (a.status !== 503) continue;
      final[i] = answerOf(await placeBet(betOn(roundId, 'hot', keys[i]!), lambdaWith(undefined)));
      expect([201, 422]).toContain(final[i]!.status);
    }

    const placed = keys.filter((_, i) => final[i]!.status === 201);
    const entered = await Promise.all(keys.map(async (key) => (await ledgerEntry('hot', key)) !== undefined));
    expect(keys.map((key, i) => [key, entered[i]])).toEqual(
      keys.map((key, i) => [key, final[i]!.status === 201]),
    );
    const bets = (await wholeLedger(stack.core, operator(), 'hot')).filter((e) => e.kind === 'BET');
    expect(bets).toHaveLength(placed.length);
    expect(await balanceOf('hot')).toBe(50_000 - STAKE * placed.length);
  });

  it('a deadline that falls while the store is still reading: 503 DEADLINE_EXCEEDED, nothing written; the retry with the same key places the bet once', async () => {
    const roundId = await roundInPlay('late-read');
    await fundPlayers(stack.core, operator(), ['late-read'], 10_000);
    const slow = slowStore(stack.store, 200);
    edgeOn(slow);
    // 50 ms to answer, 200 ms a read: the deadline falls before the bet's first read is back.
    const late = answerOf(await placeBet(betOn(roundId, 'late-read', 'late-1'), lambdaWith(50)));
    expect(late).toMatchObject({ status: 503, code: 'DEADLINE_EXCEEDED', retryAfter: '1' });
    await slow.idle();
    expect(await ledgerEntry('late-read', 'late-1')).toBeUndefined();
    expect(await balanceOf('late-read')).toBe(10_000);

    edgeOn(stack.store);
    const retried = answerOf(await placeBet(betOn(roundId, 'late-read', 'late-1'), lambdaWith(undefined)));
    const again = answerOf(await placeBet(betOn(roundId, 'late-read', 'late-1'), lambdaWith(undefined)));
    expect([retried.status, again.status, again.replayed]).toEqual([201, 201, true]);
    expect(await balanceOf('late-read')).toBe(10_000 - STAKE);
  });

  it('a deadline that falls while the write is on its way: 503; the retry with the same key replays it, the money moved once', async () => {
    const roundId = await roundInPlay('late-write');
    await fundPlayers(stack.core, operator(), ['late-write'], 10_000);
    // The transaction is written at once, its acknowledgement takes 200 ms: the 50 ms deadline falls between.
    const slow = slowStore(stack.store, 200, 'after-write');
    edgeOn(slow);
    const late = answerOf(await placeBet(betOn(roundId, 'late-write', 'late-2'), lambdaWith(50)));
    expect(late).toMatchObject({ status: 503, code: 'DEADLINE_EXCEEDED', retryAfter: '1' });
    await slow.idle();

    edgeOn(stack.store);
    const retried = answerOf(await placeBet(betOn(roundId, 'late-write', 'late-2'), lambdaWith(undefined)));
    expect(retried.status).toBe(201);
    const bets = (await wholeLedger(stack.core, operator(), 'late-write')).filter((e) => e.kind === 'BET');
    expect(bets).toHaveLength(1);
    expect(await balanceOf('late-write')).toBe(10_000 - STAKE);
  });

  it('an Idempotency-Key whose request hit its deadline is released, not left in flight: the retry runs at once and credits once', async () => {
    const slow = slowStore(stack.store, 200);
    edgeOn(slow);
    const credit = (key: string) =>
      post(
        '/v1/wallets/late-credit/transactions',
        { playerId: 'late-credit' },
        { type: 'CREDIT', amount: 5_000, currency: 'EUR' },
        key,
      );
    const late = answerOf(await walletTransaction(credit('credit-1'), lambdaWith(50)));
    expect(late).toMatchObject({ status: 503, code: 'DEADLINE_EXCEEDED', retryAfter: '1' });
    expect([...idempotency.records.keys()].filter((k) => k.endsWith('#credit-1'))).toEqual([]);

    // Without waiting for the first request's work (still reading): not IDEMPOTENCY_KEY_IN_FLIGHT.
    edgeOn(stack.store);
    const retried = answerOf(await walletTransaction(credit('credit-1'), lambdaWith(undefined)));
    expect(retried.status).toBe(201);
    await slow.idle();
    const replay = answerOf(await walletTransaction(credit('credit-1'), lambdaWith(undefined)));
    expect([replay.status, replay.replayed]).toEqual([201, true]);
    expect(await balanceOf('late-credit')).toBe(5_000);
  });
});
