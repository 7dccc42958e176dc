/**
 * Seamless reconciliation (docs/seamless-wallet.md §9) on both stores: the listing of a period with
 * its summary (totals per state, kind and currency; the net the operator's books must show; the
 * unresolved ones named), paging and the state filter, tenancy, bad periods; the daily job's stored
 * report and its redelivery of stuck credits and rollbacks through the outbox.
 */
import type { Clock, OutboxQueue, SeamlessTxRecord } from '@pyb/core';
import {
  type Ctx,
  context,
  getSeamlessReport,
  listSeamlessTransactions,
  reconcileSeamlessDay,
} from '@pyb/core/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { stepsInOrder } from '../support/order';
import { createTestStack, type TestStack } from '../support/stack';

// The daily job's runs follow each other (a re-run replaces the report the first run stored).
stepsInOrder();

let stack: TestStack;
let ctx: Ctx;
/** The clock the use cases read: set per test. */
let nowMs = Date.parse('2026-11-21T00:10:00.000Z');
const clock: Clock = { now: () => new Date(nowMs), sleep: async () => {} };

const OP = `op-rec-${Date.now().toString(36)}`;
const OTHER = `${OP}-x`;
const DAY = '2026-11-20';
const at = (hhmm: string, day = DAY) => `${day}T${hhmm}:00.000Z`;
let n = 0;

function tx(over: Partial<SeamlessTxRecord> & Pick<SeamlessTxRecord, 'op' | 'state'>): SeamlessTxRecord {
  n++;
  const prefix = over.op === 'DEBIT' ? 'dbt' : over.op === 'CREDIT' ? 'crd' : 'rbk';
  const createdAt = over.createdAt ?? at('10:00');
  return {
    txId: `${prefix}_rec${String(n).padStart(13, '0')}`,
    operatorId: OP,
    playerId: `player-${n % 3}`,
    currency: 'EUR',
    amount: 1000,
    roundId: `rnd_${n}`,
    tableId: 'tbl_rec',
    betRef: `rnd_${n}:player-${n % 3}:bet-${n}`,
    attempts: 1,
    createdAt,
    updatedAt: createdAt,
    ...over,
  };
}

// One day of an operator's wallet calls, in every state (and one of another operator, one the day after).
const DAY_TXS: SeamlessTxRecord[] = [
  tx({ op: 'DEBIT', state: 'DEBITED', amount: 1000 }),
  tx({ op: 'DEBIT', state: 'DEBITED', amount: 2500, createdAt: at('00:00') }),
  tx({ op: 'DEBIT', state: 'DEBITED', amount: 700, currency: 'USD' }),
  tx({ op: 'DEBIT', state: 'DEBIT_REFUSED', amount: 400, refusal: { code: 'INSUFFICIENT_FUNDS' } }),
  tx({ op: 'DEBIT', state: 'ROLLED_BACK', amount: 300 }),
  tx({ op: 'ROLLBACK', state: 'ROLLED_BACK', amount: 300, applied: true }),
  tx({ op: 'CREDIT', state: 'CREDITED', creditKind: 'PAYOUT', amount: 1950 }),
  tx({ op: 'CREDIT', state: 'CREDITED', creditKind: 'REFUND', amount: 500 }),
  tx({ op: 'CREDIT', state: 'CREDITED', creditKind: 'PAYOUT', amount: 1400, currency: 'USD' }),
  // Unresolved: a credit and a rollback still pending, a debit whose outcome never came, a refused credit.
  tx({ op: 'CREDIT', state: 'CREDIT_PENDING', creditKind: 'PAYOUT', amount: 2000, createdAt: at('23:00') }),
  tx({ op: 'ROLLBACK', state: 'ROLLBACK_PENDING', amount: 600, createdAt: at('09:00') }),
  tx({ op: 'DEBIT', state: 'DEBIT_PENDING', amount: 800, createdAt: at('08:00') }),
  tx({
    op: 'CREDIT',
    state: 'CREDIT_PENDING',
    creditKind: 'COMMISSION_RELEASE',
    amount: 50,
    refusal: { code: 'UNKNOWN_PLAYER' },
    createdAt: at('07:00'),
  }),
  // Pending but young at 00:10 the next day (a run before the schedule's): not unresolved yet.
  tx({ op: 'CREDIT', state: 'CREDIT_PENDING', creditKind: 'PAYOUT', amount: 90, createdAt: at('23:59') }),
];
const ELSEWHERE: SeamlessTxRecord[] = [
  tx({ op: 'CREDIT', state: 'CREDIT_PENDING', creditKind: 'PAYOUT', operatorId: OTHER }),
  tx({ op: 'CREDIT', state: 'CREDIT_PENDING', creditKind: 'PAYOUT', createdAt: at('00:00', '2026-11-21') }),
];

class RecordingOutbox implements OutboxQueue {
  sent: string[][] = [];
  async send(txIds: readonly string[]): Promise<void> {
    this.sent.push([...txIds]);
  }
}

/** The use cases' context with this outbox (the job sends to ctx.outbox). */
const withOutbox = (outbox: OutboxQueue): Ctx => {
  ctx.outbox = outbox;
  return ctx;
};

const period = { from: at('00:00'), to: at('00:00', '2026-11-21') };

beforeAll(async () => {
  stack = await createTestStack('seamless-rec');
  ctx = context({ store: stack.store, keys: stack.keys, clock });
  for (const t of [...DAY_TXS, ...ELSEWHERE]) {
    await stack.store.transact([{ kind: 'put', entity: 'seamlessTx', key: { txId: t.txId }, item: t }]);
  }
}, 120_000);
afterAll(async () => {
  await stack?.cleanup();
});

describe('the transactions of a period', () => {
  it('summarises the whole period: totals per state, kind and currency, the net, the unresolved named', async () => {
    const out = await listSeamlessTransactions(ctx, operator(OP), { operatorId: OP, ...period, limit: 100 });
    expect(out.summary!.count).toBe(DAY_TXS.length);
    expect(out.summary!.totals).toContainEqual({
      state: 'DEBITED',
      kind: 'DEBIT',
      currency: 'EUR',
      count: 2,
      amount: 3500,
    });
    expect(out.summary!.totals).toContainEqual({
      state: 'CREDITED',
      kind: 'REFUND',
      currency: 'EUR',
      count: 1,
      amount: 500,
    });
    const sum = (pick: (t: SeamlessTxRecord) => boolean) => DAY_TXS.filter(pick).length;
    expect(out.summary!.totals.reduce((c, r) => c + r.count, 0)).toBe(sum(() => true));
    // Booked movements: credits acknowledged − debits kept; rolled back, refused and pending move nothing.
    expect(out.summary!.net).toEqual([
      { currency: 'EUR', debited: 3500, credited: 2450, net: -1050 },
      { currency: 'USD', debited: 700, credited: 1400, net: 700 },
    ]);
    const unresolved = out.summary!.unresolved;
    expect(unresolved.count).toBe(4);
    expect(unresolved.transactions.map((u) => [u.kind, u.state, u.reason, u.createdAt])).toEqual([
      ['COMMISSION_RELEASE', 'CREDIT_PENDING', 'REFUSED', at('07:00')],
      ['DEBIT', 'DEBIT_PENDING', 'PENDING', at('08:00')],
      ['ROLLBACK', 'ROLLBACK_PENDING', 'PENDING', at('09:00')],
      ['PAYOUT', 'CREDIT_PENDING', 'PENDING', at('23:00')],
    ]);
  });

  it('answers a period over several midnights in one page and no nextCursor when it holds fewer than the limit, as at noon', async () => {
    // Four UTC days (a call at 00:30 asking from the last hour to tomorrow spans three): 64 partitions.
    const around = { from: at('23:30', '2026-11-19'), to: at('00:30', '2026-11-22') };
    const out = await listSeamlessTransactions(ctx, operator(OP), { operatorId: OP, ...around, limit: 100 });
    expect(out.nextCursor).toBeNull();
    expect(out.transactions.map((t) => t.txId).sort()).toEqual(
      [...DAY_TXS, ELSEWHERE[1]!].map((t) => t.txId).sort(),
    );
  });

  it('pages with a cursor (summary on the first page only), each transaction once; a state filter', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listSeamlessTransactions(ctx, operator(OP), {
        operatorId: OP,
        ...period,
        limit: 4,
        ...(cursor && { cursor }),
      });
      expect(page.transactions.length).toBeLessThanOrEqual(4);
      expect(page.summary === null).toBe(pages > 0);
      seen.push(...page.transactions.map((t) => t.txId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 50);
    expect(seen).toHaveLength(new Set(seen).size);
    expect([...seen].sort()).toEqual(DAY_TXS.map((t) => t.txId).sort());

    const pending = await listSeamlessTransactions(ctx, operator(OP), {
      operatorId: OP,
      ...period,
      state: 'CREDIT_PENDING',
      limit: 100,
    });
    expect(pending.transactions.map((t) => t.state)).toEqual([
      'CREDIT_PENDING',
      'CREDIT_PENDING',
      'CREDIT_PENDING',
    ]);
    const refused = await listSeamlessTransactions(ctx, operator(OP), {
      operatorId: OP,
      ...period,
      state: 'DEBIT_REFUSED',
    });
    expect(refused.transactions).toEqual([
      expect.objectContaining({ kind: 'DEBIT', refusal: 'INSUFFICIENT_FUNDS', amount: 400, attempts: 1 }),
    ]);
    // The summary is the period's, whatever the filter.
    expect(pending.summary!.count).toBe(DAY_TXS.length);
  });

  it('operator keys read their own operator, regulators those they supervise; anyone else finds nothing', async () => {
    await expect(
      listSeamlessTransactions(ctx, regulator(OP), { operatorId: OP, ...period }),
    ).resolves.toMatchObject({ operatorId: OP });
    await expect(
      listSeamlessTransactions(ctx, admin(OP), { operatorId: OP, ...period }),
    ).resolves.toMatchObject({ operatorId: OP });
    for (const actor of [operator(OTHER), regulator(OTHER)]) {
      await expect(listSeamlessTransactions(ctx, actor, { operatorId: OP, ...period })).rejects.toMatchObject(
        {
          code: 'OPERATOR_NOT_FOUND',
        },
      );
    }
  });

  it('refuses a period that is backwards, empty, not UTC timestamps or longer than 31 days', async () => {
    for (const bad of [
      { from: period.to, to: period.from },
      { from: period.from, to: period.from },
      { from: 'yesterday', to: period.to },
      { from: '2026-10-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' },
    ]) {
      await expect(
        listSeamlessTransactions(ctx, operator(OP), { operatorId: OP, ...bad }),
        JSON.stringify(bad),
      ).rejects.toMatchObject({ code: 'SEAMLESS_RANGE_INVALID' });
    }
  });
});

describe('the daily job', () => {
  it('stores yesterday’s report, redelivers the stuck transactions (not refused, not young ones)', async () => {
    nowMs = Date.parse('2026-11-21T00:10:00.000Z');
    await expect(getSeamlessReport(ctx, operator(OP), { operatorId: OP, date: DAY })).rejects.toMatchObject({
      code: 'SEAMLESS_REPORT_NOT_FOUND',
    });
    const outbox = new RecordingOutbox();
    const report = await reconcileSeamlessDay(withOutbox(outbox), { operatorId: OP });
    expect(report).toMatchObject({
      operatorId: OP,
      date: DAY,
      from: period.from,
      to: period.to,
      redelivered: 3,
    });
    // The pending credit and rollback, and the debit whose bet never came back (its delivery rolls it back).
    const stuck = DAY_TXS.filter((t) => t.state.endsWith('_PENDING') && !t.refusal && t.amount !== 90);
    expect(stuck.map((t) => t.op).sort()).toEqual(['CREDIT', 'DEBIT', 'ROLLBACK']);
    expect(outbox.sent.flat().sort()).toEqual(stuck.map((t) => t.txId).sort());
    // The stored report is the endpoint's summary of that day, as of the job's run.
    const listed = await listSeamlessTransactions(ctx, operator(OP), { operatorId: OP, ...period });
    const stored = await getSeamlessReport(ctx, regulator(OP), { operatorId: OP, date: DAY });
    expect(stored).toEqual(report);
    expect(stored.summary).toEqual(listed.summary);
    await expect(
      getSeamlessReport(ctx, operator(OTHER), { operatorId: OP, date: DAY }),
    ).rejects.toMatchObject({
      code: 'OPERATOR_NOT_FOUND',
    });
  });

  it('a re-run of a day replaces its report (later, the young credit is unresolved and redelivered too)', async () => {
    nowMs = Date.parse('2026-11-21T06:00:00.000Z');
    const outbox = new RecordingOutbox();
    const report = await reconcileSeamlessDay(withOutbox(outbox), { operatorId: OP, date: DAY });
    expect(report.redelivered).toBe(4);
    expect(report.summary.unresolved.count).toBe(5);
    expect(await getSeamlessReport(ctx, operator(OP), { operatorId: OP, date: DAY })).toEqual(report);
  });

  it('a day without transactions has an empty report; a bad date is refused', async () => {
    const outbox = new RecordingOutbox();
    const empty = await reconcileSeamlessDay(withOutbox(outbox), { operatorId: OP, date: '2026-11-10' });
    expect(empty.summary).toEqual({
      count: 0,
      totals: [],
      net: [],
      unresolved: { count: 0, transactions: [] },
    });
    expect(outbox.sent).toEqual([]);
    await expect(
      reconcileSeamlessDay(withOutbox(outbox), { operatorId: OP, date: '2026-02-30' }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
