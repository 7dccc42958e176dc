/**
 * The daily GGR report (docs/regulators.md, "GGR report") reconciles to the unit with the ledger: for
 * the rounds finished in a day, GGR is the opposite of what the BET, BET_WITHDRAWAL and PAYOUT entries
 * moved, and the voids are what the REFUND entries gave back — per table, on both stores.
 */
import type { Core } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { codeOf, playShoe, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
const OP = 'op-ggr';
const op = operator(OP);
const boss = admin(OP);
const PLAYERS = ['gia', 'gus', 'gil'];
const AT_PAYMENT = { decks: 1, pairBets: true, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;
const DEFERRED = { ...AT_PAYMENT, commission: { rateBps: 500, mode: 'DEFERRED' as const } };
const tables: Record<string, string> = {};
const roundTable = new Map<string, string>();

beforeAll(async () => {
  stack = await createTestStack('ggr');
  core = stack.core;
  await fundPlayers(core, op, PLAYERS, 10_000_000);
  for (const [name, config] of [
    ['at-payment', AT_PAYMENT],
    ['deferred', DEFERRED],
  ] as const) {
    const tableId = (await core.createTable(boss, { name, variant: 'custom', config })).tableId;
    tables[name] = tableId;
    await core.openShoe(boss, { tableId });
    const played = await playShoe({
      core,
      actor: op,
      tableId,
      players: PLAYERS,
      config: tablePreset('custom', { ...config, name }),
      seed: `ggr-${name}`,
      voidRounds: [2, 5],
      maxRounds: 8,
    });
    for (const r of played) roundTable.set(r.roundId, tableId);
  }
}, 240_000);
afterAll(async () => {
  await stack?.cleanup();
});

/** The UTC days the rounds finished on (a run across midnight spans two). */
async function daysPlayed(): Promise<string[]> {
  const days = new Set<string>();
  for (const roundId of roundTable.keys()) {
    const round = (await stack.store.get('round', { roundId }))!;
    const at = round.status === 'VOIDED' ? round.voidedAt : round.settledAt;
    days.add(at!.slice(0, 10));
  }
  return [...days].sort();
}

describe('the daily GGR report', () => {
  it('reconciles to the unit with the ledger, per table: GGR = −(bets + withdrawals + payouts), voids = refunds', async () => {
    const reports = await Promise.all(
      (await daysPlayed()).map((date) => core.ggrReport(regulator(OP), { operatorId: OP, date })),
    );
    const report = (tableId: string) => {
      const rows = reports.flatMap((r) => r.rows.filter((row) => row.tableId === tableId));
      const sum = (
        k:
          | 'ggr'
          | 'voids'
          | 'stakes'
          | 'returns'
          | 'rounds'
          | 'voidedRounds'
          | 'commissionDeferred'
          | 'commission',
      ) => rows.reduce((n, row) => n + row[k], 0);
      return { sum, currencies: new Set(rows.map((row) => row.currency)) };
    };
    const ledger = new Map<string, { ggr: number; voids: number; bets: number; payouts: number }>();
    for (const tableId of Object.values(tables))
      ledger.set(tableId, { ggr: 0, voids: 0, bets: 0, payouts: 0 });
    const voided = new Set<string>();
    for (const roundId of roundTable.keys()) {
      if ((await core.getRound(op, { roundId })).status === 'VOIDED') voided.add(roundId);
    }
    for (const playerId of PLAYERS) {
      for (const entry of await wholeLedger(core, op, playerId)) {
        const tableId = entry.roundId ? roundTable.get(entry.roundId) : undefined;
        if (!tableId) continue;
        const t = ledger.get(tableId)!;
        if (voided.has(entry.roundId!)) {
          if (entry.kind === 'REFUND') t.voids += entry.amount;
          continue;
        }
        if (entry.kind === 'BET' || entry.kind === 'BET_WITHDRAWAL' || entry.kind === 'PAYOUT')
          t.ggr -= entry.amount;
        if (entry.kind === 'BET' || entry.kind === 'BET_WITHDRAWAL') t.bets -= entry.amount;
        if (entry.kind === 'PAYOUT') t.payouts += entry.amount;
      }
    }
    for (const [name, tableId] of Object.entries(tables)) {
      const { sum, currencies } = report(tableId);
      const expected = ledger.get(tableId)!;
      expect([...currencies], name).toEqual(['EUR']);
      expect([sum('rounds'), sum('voidedRounds')], name).toEqual([6, 2]);
      expect(sum('ggr'), name).toBe(expected.ggr);
      expect(sum('stakes'), name).toBe(expected.bets);
      expect(sum('returns'), name).toBe(expected.payouts);
      expect(sum('voids'), name).toBe(expected.voids);
      expect(sum('voids'), name).toBeGreaterThan(0);
      expect(sum('stakes') - sum('returns'), name).toBe(sum('ggr'));
    }
    // Deferred commission is counted where it was charged, and not in the GGR.
    expect(report(tables.deferred!).sum('commission')).toBe(0);
    expect(report(tables['at-payment']!).sum('commissionDeferred')).toBe(0);
    // The totals are the rows summed.
    for (const r of reports) {
      const eur = r.totals.find((t) => t.currency === 'EUR');
      expect(eur?.ggr ?? 0).toBe(r.rows.reduce((n, row) => n + row.ggr, 0));
    }
  });

  it('a day without rounds is empty; a bad date and another operator are refused', async () => {
    const empty = await core.ggrReport(op, { date: '2001-01-01' });
    expect([empty.rows, empty.totals, empty.complete, empty.from, empty.to]).toEqual([
      [],
      [],
      true,
      '2001-01-01T00:00:00.000Z',
      '2001-01-02T00:00:00.000Z',
    ]);
    expect(await codeOf(core.ggrReport(op, { date: '2026-02-30' }))).toBe('INVALID_INPUT');
    expect(await codeOf(core.ggrReport(op, { date: '1 Dec 2026' }))).toBe('INVALID_INPUT');
    expect(await codeOf(core.ggrReport(regulator('op-other'), { operatorId: OP, date: '2026-12-01' }))).toBe(
      'OPERATOR_NOT_FOUND',
    );
    expect(await codeOf(core.ggrReport(operator('op-other'), { operatorId: OP, date: '2026-12-01' }))).toBe(
      'OPERATOR_NOT_FOUND',
    );
  });
});
