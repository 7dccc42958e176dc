/**
 * Online scale, over HTTP (issue #11): 2,000 players bet at once on one round through 32 connections —
 * 14 of them from the seats, every other one standing — and one resolve settles them all, fanned out
 * on the settlement queue. Every bet is accepted once, no transaction is retried for contention, no
 * request fails with a 5xx; every position is paid exactly once and every ledger reconciles.
 *
 * The suite runs 200 players (CI time): more than the connections and the 14 seats, and more positions
 * than a resolve settles inline, so the bets contend on one round and the settlement fans out in batches
 * just as at 2,000. #11's 2,000 run these very assertions with
 * `CROWD_PLAYERS=2000 ./scripts/test test/e2e/crowd.test.ts`; bench/api.ts measures a crowd of 2,000
 * (docs/benchmarks.md).
 */
import { INLINE_SETTLE_MAX } from '@pyb/core';
import { type Ctx, getLedger, getWallet, walletTransaction } from '@pyb/core/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, freshKey, type Json } from './support/http';
import { type E2eStack, startStack } from './support/stack';

const PLAYERS = Number(process.env.CROWD_PLAYERS ?? 200);
const CONNECTIONS = 32;
const FUNDS = 1_000_000;
const SEATS = 14;

let stack: E2eStack;
let api: Client;
/** The use cases on the server's adapters, for setup at scale and for checking the books. */
let core: Ctx;
/** DynamoDB calls of the server, counted where they leave its document client. */
const seen = { transactions: 0, canceled: 0, conflicts: 0 };

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  const { useCases } = await import('@pyb/functions/context');
  core = useCases(stack.context);
  stack.context.doc.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') seen.transactions++;
      try {
        return await next(args);
      } catch (error) {
        const name = (error as { name?: string }).name ?? '';
        if (name === 'TransactionCanceledException') seen.canceled++;
        if (
          name === 'TransactionConflictException' ||
          String((error as Error).message).includes('TransactionConflict')
        )
          seen.conflicts++;
        throw error;
      }
    },
    { step: 'initialize', name: 'crowdCounter' },
  );
}, 120_000);
afterAll(() => stack?.stop());

/** Runs `task(i)` for i = 0..n-1 with at most `limit` in flight. */
async function bounded(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
}

const playerId = (i: number) => `crowd-${String(i).padStart(4, '0')}`;
const betOf = (i: number) => [
  { type: i % 2 ? 'BANKER' : 'PLAYER', amount: 5_000 + (i % 7) * 1_000 },
  ...(i % 10 === 0 ? [{ type: 'TIE', amount: 1_000 }] : []),
];

describe(`${PLAYERS} players on one round`, () => {
  it(`bet at once through ${CONNECTIONS} connections and are settled by one resolve, each paid once`, async () => {
    // A crowd that contends (more players than connections and seats) and is settled in batches.
    expect(PLAYERS).toBeGreaterThan(Math.max(INLINE_SETTLE_MAX, CONNECTIONS, SEATS));
    const { admin, operator } = stack.a;
    const table = await api.post('/v1/tables', { key: admin, body: { name: 'Crowd', variant: 'full' } });
    const tableId: string = table.body.tableId;
    expect((await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).status).toBe(201);
    const round = await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} });
    const roundId: string = round.body.roundId;
    // Wallets funded through the use case itself (the HTTP path is what is under test below).
    const actor = { operatorId: 'op-a', role: 'operator' as const, supervises: [] };
    await bounded(PLAYERS, CONNECTIONS, async (i) => {
      await walletTransaction(core, actor, {
        playerId: playerId(i),
        type: 'CREDIT',
        amount: FUNDS,
        currency: 'EUR',
        idempotencyKey: 'fund',
      });
    });

    seen.transactions = 0;
    seen.canceled = 0;
    seen.conflicts = 0;
    const statuses: number[] = new Array(PLAYERS);
    const answers: Json[] = new Array(PLAYERS);
    await bounded(PLAYERS, CONNECTIONS, async (i) => {
      const a = await api.post(`/v1/rounds/${roundId}/bets`, {
        key: operator,
        idem: freshKey(`crowd-${i}`),
        body: { playerId: playerId(i), bets: betOf(i), ...(i < SEATS && { seat: i + 1 }) },
      });
      statuses[i] = a.status;
      answers[i] = a.body;
    });
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    // One transaction per bet: none retried after a collision, none canceled.
    expect(seen).toEqual({ transactions: PLAYERS, canceled: 0, conflicts: 0 });
    expect(answers.filter((a, i) => a.position.seat !== (i < SEATS ? i + 1 : null))).toEqual([]);

    // What the table's watchers are told from here on (the broker, as the settlement sees it).
    const told: string[] = [];
    const { setPublisher } = await import('@pyb/functions/live');
    setPublisher(stack.context, {
      publish: async (messages) => {
        for (const m of messages) told.push((JSON.parse(m.payload) as { type: string }).type);
      },
    });
    const resolved = await api.post(`/v1/rounds/${roundId}/resolve`, { key: operator, body: {} });
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe('SETTLING');
    let view: Json = resolved.body;
    for (let polls = 0; view.status !== 'SETTLED'; polls++) {
      expect(polls).toBeLessThan(600);
      await new Promise((r) => setTimeout(r, 500));
      const got = await api.get(`/v1/rounds/${roundId}`, { key: operator });
      expect(got.status).toBe(200);
      view = got.body;
    }
    expect(view.positions).toHaveLength(PLAYERS);
    // The batch that finished the round told the watchers, with no call on the table after it.
    for (let polls = 0; !told.includes('ROUND_SETTLED'); polls++) {
      expect(polls, `told so far: ${told.join(', ')}`).toBeLessThan(200);
      await new Promise((r) => setTimeout(r, 50));
    }

    // Every position paid exactly once; every wallet equals its ledger equals stake and payout.
    let paid = 0;
    await bounded(PLAYERS, CONNECTIONS, async (i) => {
      const position = view.positions.find((p: Json) => p.playerId === playerId(i));
      expect(position.status).toBe('SETTLED');
      const entries: Json[] = [];
      let cursor: string | null = null;
      do {
        const page: Json = await getLedger(core, actor, {
          playerId: playerId(i),
          limit: 100,
          ...(cursor && { cursor }),
        });
        entries.push(...page.entries);
        cursor = page.nextCursor;
      } while (cursor);
      const payouts = entries.filter((e) => e.kind === 'PAYOUT');
      expect(payouts).toHaveLength(position.payout > 0 ? 1 : 0);
      expect(entries.filter((e) => e.kind === 'BET')).toHaveLength(1);
      const wallet = await getWallet(core, actor, { playerId: playerId(i) });
      expect(wallet.balance).toBe(FUNDS - position.stake + position.payout);
      expect(entries.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
      paid += position.payout;
    });
    const stored = (await stack.context.store.get('round', { roundId }))!;
    expect(stored.totals).toMatchObject({ positions: PLAYERS, payout: paid });
    expect(stored.batches?.count).toBe(Math.ceil(PLAYERS / 50));
    const settledEvents = (await stack.context.store.listAudit(view.shoeId)).filter(
      (e) => e.type === 'ROUND_SETTLED',
    );
    expect(settledEvents).toHaveLength(1);
  }, 900_000);
});
