/**
 * The regulator data feed (docs/regulators.md, "Regulator data feed") reconciles to the unit with the
 * ledger and with the GGR report of the same day: every ledger entry of the operator's players is in
 * it exactly once, each wallet's movements add up to its balance, and the settlements and refunds of a
 * day are the day's GGR report. Open shoes are in it without secrets; the daily files are what the
 * on-demand export answers. On both stores (DynamoDB Local in the dynamodb project).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Core, csvHeader, FEED_COLUMNS, type FeedRecord } from '@pyb/core';
import {
  type Ctx,
  context,
  exportFeed,
  feedRecords,
  getFeedFile,
  listFeedFiles,
  writeDailyFeed,
} from '@pyb/core/use-cases';
import { tablePreset } from '@pyb/engine';
import { LocalFeedFiles } from '@pyb/feed-files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { bancaWinsFirst, PINNED_V2 } from '../support/dealt';
import { codeOf, playShoe, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
let ctx: Ctx;
const OP = 'op-feed';
const op = operator(OP);
const boss = admin(OP);
const reg = regulator(OP);
const PLAYERS = ['fay', 'fen', 'fox'];
const AT_PAYMENT = { decks: 1, pairBets: true, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;
const DEFERRED = { ...AT_PAYMENT, commission: { rateBps: 500, mode: 'DEFERRED' as const } };
let start = '';
let end = '';
const shoes: Record<string, string> = {};
/** Rounds the set-up played (a shoe may end before its maximum: its cut card). */
let roundsPlayed = 0;
const dir = mkdtempSync(join(tmpdir(), 'pyb-feed-it-'));

async function collect(from: string, to: string): Promise<FeedRecord[]> {
  const out: FeedRecord[] = [];
  for await (const r of feedRecords(ctx, OP, from, to)) out.push(r);
  return out;
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00.000Z`) + 86_400_000).toISOString();

beforeAll(async () => {
  stack = await createTestStack('feed', PINNED_V2);
  core = stack.core;
  ctx = context({ store: stack.store, keys: stack.keys, clock: stack.clock });
  start = stack.clock.now().toISOString();
  for (const playerId of PLAYERS) {
    await core.walletTransaction(op, {
      playerId,
      type: 'CREDIT',
      amount: 10_000_000,
      currency: 'EUR',
      idempotencyKey: `fund-${playerId}`,
    });
  }
  await core.walletTransaction(op, {
    playerId: 'fay',
    type: 'DEBIT',
    amount: 1_234,
    currency: 'EUR',
    reference: 'cash out, "partial"',
    idempotencyKey: 'cash-out-fay',
  });
  await core.setResponsibleGaming(op, {
    playerId: 'fen',
    idempotencyKey: 'rg-fen',
    limits: { lossDay: 9_000_000 },
  });
  for (const [name, config] of [
    ['at-payment', AT_PAYMENT],
    ['deferred', DEFERRED],
  ] as const) {
    const tableId = (await core.createTable(boss, { name, variant: 'custom', config })).tableId;
    shoes[name] = (await core.openShoe(boss, { tableId })).shoeId;
    const played = await playShoe({
      core,
      actor: op,
      tableId,
      players: PLAYERS,
      config: tablePreset('custom', { ...config, name }),
      seed: `feed-${name}`,
      voidRounds: [2],
      // The deferred table's shoe opens on a Banca win: a debt, hence its COMMISSION collection.
      ...(name === 'deferred' && { dealing: { stack, deals: bancaWinsFirst } }),
      maxRounds: 5,
    });
    roundsPlayed += played.length;
    if (name === 'deferred') {
      // Leaving collects the deferred commission (a movement outside rounds) and ends the session.
      for (const playerId of PLAYERS) await core.leaveTable(op, { tableId, playerId });
      await core.closeShoe(boss, { shoeId: shoes[name]!, reason: 'END_OF_SESSION' });
    }
  }
  end = new Date(stack.clock.now().getTime() + 1).toISOString();
}, 240_000);
afterAll(async () => {
  await stack?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('the regulator feed', () => {
  it('holds every ledger entry once; each wallet adds up to its balance; the summary counts what it holds', async () => {
    const records = await collect(start, end);
    const movements = records.filter((r) => r.type === 'movement');
    for (const playerId of PLAYERS) {
      const ledger = await wholeLedger(core, op, playerId);
      const mine = movements
        .filter((m) => m.playerId === playerId)
        .sort((a, b) => (a.seq as number) - (b.seq as number));
      expect(
        mine.map((m) => [m.seq, m.kind, m.amount]),
        playerId,
      ).toEqual(ledger.map((e) => [e.seq, e.kind, e.amount]));
      const wallet = await core.getWallet(op, { playerId });
      expect(
        mine.reduce((s, m) => s + (m.amount as number), 0),
        playerId,
      ).toBe(wallet.balance);
    }
    const kinds = new Set(movements.map((m) => m.kind));
    for (const kind of [
      'CREDIT',
      'DEBIT',
      'RG_SETTINGS',
      'BET',
      'PAYOUT',
      'REFUND',
      'COMMISSION',
      'SESSION_END',
    ])
      expect(kinds, kind).toContain(kind);
    // Movements outside rounds come from the time index; a bet wrote nothing there.
    // (A range lies in one UTC day: the set-up's first and, if it crossed midnight, its second.)
    const outside = [];
    for (const day of new Set([start.slice(0, 10), end.slice(0, 10)])) {
      const range = { from: day === start.slice(0, 10) ? start : `${day}T00:00:00.000Z`, to: nextDay(day) };
      outside.push(...(await stack.store.listMovements(OP, range, { limit: 100 })).items);
    }
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((e) => e.roundId === undefined)).toBe(true);
    const summary = records.at(-1)!;
    expect(summary.type).toBe('summary');
    const counts: Record<string, number> = {};
    for (const r of records.slice(0, -1)) counts[r.type] = (counts[r.type] ?? 0) + 1;
    expect(summary.counts).toEqual(counts);
    expect(counts.round).toBe(roundsPlayed);
    expect(counts.refund).toBeGreaterThan(0);
    expect(counts.bet).toBe((counts.settlement ?? 0) + (counts.refund ?? 0));
  });

  it("reconciles each day with the GGR report: stakes, returns, GGR, voids, and −GGR is what the settled rounds' bets and payouts moved", async () => {
    const days = [...new Set([start.slice(0, 10), end.slice(0, 10)])];
    for (const date of days) {
      const from = `${date}T00:00:00.000Z`;
      const records = await collect(from, nextDay(date));
      const ggr = await core.ggrReport(reg, { operatorId: OP, date });
      const eur = ggr.totals.find((t) => t.currency === 'EUR');
      const totals = (records.at(-1)!.totals as { currency: string; [k: string]: unknown }[]).find(
        (t) => t.currency === 'EUR',
      );
      expect([totals?.stakes ?? 0, totals?.returns ?? 0, totals?.ggr ?? 0, totals?.voids ?? 0], date).toEqual(
        [eur?.stakes ?? 0, eur?.returns ?? 0, eur?.ggr ?? 0, eur?.voids ?? 0],
      );
      const settled = new Set(
        records.filter((r) => r.type === 'round' && r.status === 'SETTLED').map((r) => r.roundId),
      );
      const moved = records
        .filter(
          (r) =>
            r.type === 'movement' &&
            settled.has(r.roundId) &&
            ['BET', 'BET_WITHDRAWAL', 'PAYOUT'].includes(r.kind as string),
        )
        .reduce((s, r) => s + (r.amount as number), 0);
      expect(0 - moved, date).toBe(eur?.ggr ?? 0); // 0 - 0 is +0 (-0 is not toBe 0): a day with no settled round
    }
  });

  it('shows a shoe as it stood at the end of the range: no server seed before its close, never the sealed seed', async () => {
    const open = (await stack.store.get('shoe', { shoeId: shoes['at-payment']! }))!;
    const closed = (await stack.store.get('shoe', { shoeId: shoes.deferred! }))!;
    const all = await collect(start, end);
    const shoeOf = (records: FeedRecord[], shoeId: string) =>
      records.find((r) => r.type === 'shoe' && r.shoeId === shoeId);
    expect(shoeOf(all, open.shoeId)).toMatchObject({ status: 'OPEN', commitment: open.commitment });
    expect(shoeOf(all, open.shoeId)).not.toHaveProperty('serverSeed');
    expect(shoeOf(all, closed.shoeId)).toMatchObject({
      status: 'CLOSED',
      serverSeed: closed.serverSeed,
      closedAt: closed.closedAt,
    });
    const text = JSON.stringify(all);
    expect(text).not.toContain(open.sealedSeed);
    expect(text).not.toContain(closed.sealedSeed);
    // Up to the instant of its close, the closed shoe was in play: no seed.
    const before = shoeOf(await collect(start, closed.closedAt!), closed.shoeId);
    expect(before?.status).not.toBe('CLOSED');
    expect(before).not.toHaveProperty('serverSeed');
  });

  it('writes the daily files the on-demand export answers; lists and serves them; CSV has the fixed columns', async () => {
    const files = new LocalFeedFiles(dir);
    // The day the cash-out was booked: the set-up may cross midnight UTC (a clock started at 23:59:58).
    const cashOut = (await collect(start, end)).find((r) => r.type === 'movement' && r.kind === 'DEBIT');
    const date = String(cashOut?.at).slice(0, 10);
    const written = await writeDailyFeed(ctx, files, { operatorId: OP, date });
    expect(written.map((f) => f.key)).toEqual([
      `feed/${OP}/${date}/feed.ndjson`,
      `feed/${OP}/${date}/feed.csv`,
    ]);
    const listed = await listFeedFiles(files, reg, { operatorId: OP, from: date, to: date });
    expect(listed.files.map((f) => [f.name, f.bytes])).toEqual(
      written.map((f) => [f.key.split('/').at(-1), f.bytes]).sort(),
    );
    const whole = { from: `${date}T00:00:00.000Z`, to: nextDay(date) };
    const ndjson = await getFeedFile(files, reg, { operatorId: OP, date, name: 'feed.ndjson' });
    const onDemand = await exportFeed(ctx, reg, { operatorId: OP, ...whole, format: 'ndjson' });
    expect(ndjson).toEqual({ contentType: 'application/x-ndjson', body: onDemand.body });
    const lines = onDemand.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as FeedRecord);
    expect(lines.at(-1)?.type).toBe('summary');
    const csv = await getFeedFile(files, reg, { operatorId: OP, date, name: 'feed.csv' });
    expect(csv.contentType).toMatch(/^text\/csv/);
    const rows = csv.body.split('\r\n');
    expect(rows[0]).toBe(csvHeader().trimEnd());
    expect(rows.at(-1)).toBe('');
    expect(rows.length - 2).toBe(lines.length);
    // The quoted reference of the debit survives, in its column.
    const debit = rows.find((r) => r.startsWith('movement,') && r.includes('DEBIT'))!;
    expect(debit).toContain('"cash out, ""partial"""');
    expect(FEED_COLUMNS[0]).toBe('type');
  });

  it('refuses what it must: another operator, a bad or too long range, a missing file', async () => {
    const files = new LocalFeedFiles(dir);
    const day = { from: '2026-12-01T00:00:00.000Z', to: '2026-12-02T00:00:00.000Z' };
    expect(
      await codeOf(exportFeed(ctx, regulator('op-other'), { operatorId: OP, ...day, format: 'csv' })),
    ).toBe('OPERATOR_NOT_FOUND');
    expect(
      await codeOf(exportFeed(ctx, operator('op-other'), { operatorId: OP, ...day, format: 'csv' })),
    ).toBe('OPERATOR_NOT_FOUND');
    expect(
      await codeOf(exportFeed(ctx, reg, { operatorId: OP, from: day.to, to: day.from, format: 'csv' })),
    ).toBe('FEED_RANGE_INVALID');
    expect(
      await codeOf(exportFeed(ctx, reg, { operatorId: OP, from: '2026-12-01', to: day.to, format: 'csv' })),
    ).toBe('FEED_RANGE_INVALID');
    expect(
      await codeOf(
        exportFeed(ctx, reg, {
          operatorId: OP,
          from: day.from,
          to: '2026-12-02T00:00:00.001Z',
          format: 'ndjson',
        }),
      ),
    ).toBe('FEED_RANGE_TOO_LARGE');
    expect(
      await codeOf(listFeedFiles(files, reg, { operatorId: OP, from: '2026-01-01', to: '2026-03-01' })),
    ).toBe('FEED_RANGE_TOO_LARGE');
    expect(
      await codeOf(getFeedFile(files, reg, { operatorId: OP, date: '2001-01-01', name: 'feed.csv' })),
    ).toBe('FEED_FILE_NOT_FOUND');
    expect(await codeOf(getFeedFile(files, reg, { operatorId: OP, date: '2001-01-01', name: '../x' }))).toBe(
      'FEED_FILE_NOT_FOUND',
    );
    // An empty range has its summary only.
    const empty = await exportFeed(ctx, reg, {
      operatorId: OP,
      from: '2001-01-01T00:00:00Z',
      to: '2001-01-01T01:00:00Z',
      format: 'ndjson',
    });
    expect(
      empty.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    ).toEqual(['summary']);
  });
});
