/**
 * Reduce and cancel for a seamless operator over HTTP (`POST /v1/rounds/{roundId}/bets/reduce` and
 * `/bets/cancel`, docs/seamless-wallet.md §5 "Reduce and withdraw"): the local server's handlers, the
 * operator provisioned seamless through its wallet route, the reference operator wallet over real
 * HTTP (signed with the secret the record names, `env:`). What the stake taken back must be: a
 * `BET_WITHDRAWAL` entry answered, a `REFUND` credit booked once in the operator's books; the same
 * request again answers the first answer and credits nothing more; a refund whose answer never comes
 * leaves the call done, the credit in the outbox (`CREDIT_PENDING`), delivered once the queue runs.
 */
import type { InProcessOutboxQueue, Wallet } from '@pyb/core';
import { outboxOf, secretsOf } from '@pyb/functions/seamless';
import { SeamlessWalletClient } from '@pyb/seamless-wallet';
import { ReferenceWallet } from '@pyb/seamless-wallet/reference-wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsInOrder } from '../support/order';
import { HOLD_MS, WALLET_DEADLINE_MS } from '../support/seamless';
import { type Answer, type Client, client, freshKey, type Json } from './support/http';
import { type E2eStack, startStack } from './support/stack';

// The last test reconciles the books every earlier one wrote (docs/testing.md, "Order and load").
stepsInOrder();

const SECRET = 'e2e-seamless-withdraw-secret-0123456789';
const FUNDS = 100_000;
const OP = 'op-a';

let stack: E2eStack;
let api: Client;
let wallet: ReferenceWallet;
/** The outbox the handlers hand unacknowledged refunds to (the local server's in-process queue). */
let outbox: InProcessOutboxQueue;
let roundId: string;
/** The period the seamless-transactions listing reads, on the API's clock (it skips the beacon's waits). */
const period = () => {
  const now = stack.context.clock.now().getTime();
  return `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`;
};

beforeAll(async () => {
  stack = await startStack({ env: { E2E_WALLET_SECRET: SECRET } });
  api = client(stack.url);
  wallet = await ReferenceWallet.start({ secrets: [SECRET], holdMs: HOLD_MS });
  // The functions' wallets (functions/src/seamless.ts) with a deadline no loaded machine reaches: a
  // `timeout` fault below is the wallet dropping the held connection (test/support/seamless.ts).
  const clients = new Map<string, Wallet>();
  stack.context.wallets = (record) => {
    let c = clients.get(record.operatorId);
    if (!c) {
      c = new SeamlessWalletClient({
        baseUrl: record.seamless!.baseUrl,
        secrets: secretsOf(stack.context, record.seamless!.secretRef),
        timeoutMs: WALLET_DEADLINE_MS,
      });
      clients.set(record.operatorId, c);
    }
    return c;
  };
  outbox = outboxOf(stack.context) as InProcessOutboxQueue;
  const switched = await api.post(`/v1/operators/${OP}/wallet`, {
    key: stack.platform,
    body: { walletMode: 'seamless', seamless: { baseUrl: wallet.url, secretRef: 'env:E2E_WALLET_SECRET' } },
  });
  expect([switched.status, switched.body.walletMode]).toEqual([200, 'seamless']);
  const { admin, operator } = stack.a;
  const tableId = (
    await api.post('/v1/tables', { key: admin, body: { name: 'Seamless withdraw', variant: 'mini' } })
  ).body.tableId;
  await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
  roundId = (await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} })).body.roundId;
});

afterAll(async () => {
  await wallet?.close();
  await stack?.stop();
});

let players = 0;
const player = () => {
  const id = `swd-${++players}`;
  wallet.fund(id, 'EUR', FUNDS);
  return id;
};

const bet = async (playerId: string, bets: [string, number][]) => {
  const placed = await api.post(`/v1/rounds/${roundId}/bets`, {
    key: stack.a.operator,
    body: { playerId, bets: bets.map(([type, amount]) => ({ type, amount })) },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body;
};
const reduce = (playerId: string, bets: [string, number][], idem: string) =>
  api.post(`/v1/rounds/${roundId}/bets/reduce`, {
    key: stack.a.operator,
    idem,
    body: { playerId, bets: bets.map(([type, amount]) => ({ type, amount })) },
  });
const cancel = (playerId: string, idem: string, types?: string[]) =>
  api.post(`/v1/rounds/${roundId}/bets/cancel`, {
    key: stack.a.operator,
    idem,
    body: { playerId, ...(types && { types }) },
  });

/** The operator's bookings of a txId. */
const bookingsOf = (txId: string) => wallet.books().filter((b) => b.txId === txId);
/** The credit requests the wallet received for a txId (a held one included). */
const creditsSent = (txId: string) =>
  wallet.received.filter((r) => r.operation === 'credit' && (r.body as { txId?: string }).txId === txId)
    .length;
/** The platform's seamless records of op-a in a state, as the regulator's listing shows them. */
const txIdsIn = async (state: string): Promise<string[]> => {
  const listed = await api.get(`/v1/operators/${OP}/seamless-transactions?${period()}&state=${state}`, {
    key: stack.a.regulator,
  });
  expect(listed.status).toBe(200);
  return listed.body.transactions.map((t: Json) => t.txId);
};

/** A refund acknowledged in the request: the entry, the position, the wallet's books and balance. */
function expectRefund(answer: Answer, playerId: string, amount: number, balance: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const { entry } = answer.body;
  expect(entry).toMatchObject({ kind: 'BET_WITHDRAWAL', amount, balanceAfter: balance });
  expect(entry.entryId).toMatch(/^crd_/);
  expect(answer.body.balance).toBe(balance);
  // Booked once as a REFUND credit under the entry's txId; the entry's reference is that booking.
  expect(bookingsOf(entry.entryId)).toEqual([
    expect.objectContaining({
      operation: 'credit',
      kind: 'REFUND',
      playerId,
      amount,
      operatorTxId: entry.reference,
      balanceAfter: balance,
    }),
  ]);
  expect(wallet.balanceOf(playerId)).toBe(balance);
}

/** The same request again: the first answer (replayed), and nothing more sent to the wallet or booked. */
async function expectReplay(again: () => Promise<Answer>, first: Answer) {
  const txId = first.body.entry.entryId as string;
  const [sent, books] = [creditsSent(txId), wallet.books().length];
  const retry = await again();
  expect([retry.status, retry.body]).toEqual([first.status, first.body]);
  expect(first.headers.get('idempotency-replayed')).toBeNull();
  expect(retry.headers.get('idempotency-replayed')).toBe('true');
  expect([creditsSent(txId), wallet.books().length]).toEqual([sent, books]);
}

describe('reduce-bets for a seamless operator', () => {
  it('credits the amount taken off as a REFUND (a BET_WITHDRAWAL entry), once; the same request again replays it', async () => {
    const p = player();
    expect(
      (
        await bet(p, [
          ['BANKER', 5_000],
          ['TIE', 1_000],
        ])
      ).balance,
    ).toBe(94_000);
    const idem = freshKey('reduce');
    const first = await reduce(p, [['BANKER', 2_000]], idem);
    expectRefund(first, p, 2_000, 96_000);
    expect(first.body.position.bets.map((b: Json) => [b.type, b.amount])).toEqual([
      ['BANKER', 3_000],
      ['TIE', 1_000],
    ]);
    expect(first.body.position.stake).toBe(4_000);
    await expectReplay(() => reduce(p, [['BANKER', 2_000]], idem), first);
    // The same key with another body is refused, and moves nothing.
    const other = await reduce(p, [['BANKER', 1_000]], idem);
    expect([other.status, other.contentType, other.body.code]).toEqual([
      422,
      'application/problem+json',
      'IDEMPOTENCY_KEY_REUSED',
    ]);
    expect(wallet.balanceOf(p)).toBe(96_000);
  });

  it('whose refund times out: the call is done, the credit waits in the outbox and is delivered later, once', async () => {
    const p = player();
    await bet(p, [['BANKER', 3_000]]);
    outbox.pause();
    // The refund reaches the wallet, is not booked, and its connection is dropped: no answer.
    wallet.inject({ operation: 'credit', fault: { kind: 'timeout', apply: false } });
    const idem = freshKey('reduce-timeout');
    const first = await reduce(p, [['BANKER', 1_000]], idem);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const txId = first.body.entry.entryId as string;
    // Not acknowledged: the position is reduced all the same; the balance is the wallet's last answer
    // plus the refund on its way, and the entry has no booking yet.
    expect(first.body.entry).toMatchObject({ kind: 'BET_WITHDRAWAL', amount: 1_000, reference: null });
    expect([first.body.balance, first.body.position.stake]).toEqual([98_000, 2_000]);
    expect(await txIdsIn('CREDIT_PENDING')).toContain(txId);
    expect(outbox.sent).toContain(txId);
    expect(bookingsOf(txId)).toEqual([]);
    expect(wallet.balanceOf(p)).toBe(97_000);
    // The same request while the refund is on its way: the same answer, no credit sent again.
    await expectReplay(() => reduce(p, [['BANKER', 1_000]], idem), first);
    expect(creditsSent(txId)).toBe(1);
    // The queue runs: delivered, booked once.
    outbox.resume();
    await outbox.idle();
    expect(outbox.deadLetters).toEqual([]);
    expect(bookingsOf(txId)).toEqual([expect.objectContaining({ kind: 'REFUND', amount: 1_000 })]);
    expect(wallet.balanceOf(p)).toBe(98_000);
    expect(await txIdsIn('CREDITED')).toContain(txId);
    expect(await txIdsIn('CREDIT_PENDING')).not.toContain(txId);
    // A retry now answers with the wallet's booking.
    const later = await reduce(p, [['BANKER', 1_000]], idem);
    expect([later.status, later.body.balance, later.body.entry.reference]).toEqual([
      200,
      98_000,
      bookingsOf(txId)[0]!.operatorTxId,
    ]);
    expect(creditsSent(txId)).toBe(2);
  });
});

describe('cancel-bets for a seamless operator', () => {
  it('credits a type withdrawn whole, then the rest, each as a REFUND once; the same request again replays it', async () => {
    const p = player();
    await bet(p, [
      ['PLAYER', 1_500],
      ['TIE', 500],
    ]);
    const tie = freshKey('cancel-tie');
    const first = await cancel(p, tie, ['TIE']);
    expectRefund(first, p, 500, 98_500);
    expect(first.body.position.bets.map((b: Json) => b.type)).toEqual(['PLAYER']);
    await expectReplay(() => cancel(p, tie, ['TIE']), first);
    const all = freshKey('cancel-all');
    const rest = await cancel(p, all);
    expectRefund(rest, p, 1_500, FUNDS);
    expect(rest.body.position.stake).toBe(0);
    await expectReplay(() => cancel(p, all), rest);
    // Nothing left to withdraw.
    const none = await cancel(p, freshKey('cancel-none'));
    expect([none.status, none.body.code]).toEqual([422, 'BET_NOT_PLACED']);
  });

  it('whose refund is booked but its answer lost: delivered again from the outbox, booked once', async () => {
    const p = player();
    await bet(p, [['PLAYER', 2_000]]);
    outbox.pause();
    wallet.inject({ operation: 'credit', fault: { kind: 'timeout', apply: true } });
    const idem = freshKey('cancel-timeout');
    const first = await cancel(p, idem);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const txId = first.body.entry.entryId as string;
    expect(first.body.entry).toMatchObject({ kind: 'BET_WITHDRAWAL', amount: 2_000, reference: null });
    expect(first.body.balance).toBe(FUNDS);
    // The wallet booked it; the platform does not know yet: pending, in the outbox.
    expect(bookingsOf(txId)).toHaveLength(1);
    expect(await txIdsIn('CREDIT_PENDING')).toContain(txId);
    expect(outbox.sent).toContain(txId);
    await expectReplay(() => cancel(p, idem), first);
    outbox.resume();
    await outbox.idle();
    expect(outbox.deadLetters).toEqual([]);
    // Sent again with the same txId: acknowledged with the first booking, nothing booked twice.
    expect(creditsSent(txId)).toBe(2);
    expect(bookingsOf(txId)).toHaveLength(1);
    expect(wallet.balanceOf(p)).toBe(FUNDS);
    expect(await txIdsIn('CREDITED')).toContain(txId);
  });
});

describe('the books of this file', () => {
  it("reconcile: each booking a listed record, each listed DEBITED or CREDITED record booked, nothing unresolved, the net the operator's books to the unit", async () => {
    const listed = await api.get(`/v1/operators/${OP}/seamless-transactions?${period()}&limit=100`, {
      key: stack.a.regulator,
    });
    expect([listed.status, listed.body.nextCursor]).toEqual([200, null]);
    const { summary, transactions } = listed.body;
    expect(summary.unresolved).toEqual({ count: 0, transactions: [] });
    const books = wallet.books();
    const booked = books.reduce((s, b) => s + b.amount, 0);
    expect(summary.net.map((n: Json) => [n.currency, n.net])).toEqual([['EUR', booked]]);
    // No debit was given up here: the bookings are exactly the DEBITED and CREDITED records, once each.
    const moving = transactions.filter((t: Json) => t.state === 'DEBITED' || t.state === 'CREDITED');
    expect(moving.map((t: Json) => t.txId).sort()).toEqual(books.map((b) => b.txId).sort());
    expect(summary.count).toBe(transactions.length);
  });
});
