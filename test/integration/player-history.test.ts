/**
 * The player's game history (docs/api.md, "Player history"; UKGC RTS 1B): rounds by date range, each
 * the recall's replay, with totals that reconcile to the unit with the ledger; range bounds, paging,
 * tenancy and a player with no rounds — on both stores.
 */
import { HISTORY_MAX_DAYS } from '@pyb/contracts';
import type { Core } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { codeOf, type PlayedRound, playShoe, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
const OP = 'op-hist';
const op = operator(OP);
const PLAYERS = ['hana', 'hugo'];
const CONFIG = { decks: 1, pairBets: true, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;
let played: PlayedRound[] = [];
/** openedAt of each played round, in play order. */
let opened: string[] = [];
const WIDE = { from: '2000-01-01T00:00:00.000Z', to: '2000-12-31T00:00:00.000Z' };

beforeAll(async () => {
  stack = await createTestStack('history');
  core = stack.core;
  await fundPlayers(core, op, [...PLAYERS, 'nobody'], 10_000_000);
  const tableId = (await core.createTable(admin(OP), { name: 'hist', variant: 'custom', config: CONFIG }))
    .tableId;
  await core.openShoe(admin(OP), { tableId });
  played = await playShoe({
    core,
    actor: op,
    tableId,
    players: PLAYERS,
    config: tablePreset('custom', { ...CONFIG, name: 'hist' }),
    seed: 'history',
    voidRounds: [3],
    maxRounds: 9,
  });
  opened = [];
  for (const r of played) opened.push((await stack.store.get('round', { roundId: r.roundId }))!.openedAt);
}, 240_000);
afterAll(async () => {
  await stack?.cleanup();
});

/** A range holding every played round. */
const all = () => ({
  from: opened[0]!,
  to: new Date(Date.parse(opened.at(-1)!) + 1).toISOString(),
});

/** Every page of the history. */
async function pages(playerId: string, range: { from: string; to: string }, limit: number) {
  const out = [];
  let cursor: string | undefined;
  do {
    const page = await core.playerHistory(op, { playerId, ...range, limit, ...(cursor && { cursor }) });
    out.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/**
 * What the ledger moved for the given rounds: net bets (with withdrawals) and payouts of the played
 * ones, refunds of the voided ones, and the net of every entry of them all.
 */
async function ledgerOf(playerId: string, roundIds: Set<string>, voided: Set<string>) {
  const t = { bets: 0, payouts: 0, refunds: 0, net: 0 };
  for (const e of await wholeLedger(core, op, playerId)) {
    if (!e.roundId || !roundIds.has(e.roundId)) continue;
    t.net += e.amount;
    if (voided.has(e.roundId)) {
      if (e.kind === 'REFUND') t.refunds += e.amount;
      continue;
    }
    if (e.kind === 'BET' || e.kind === 'BET_WITHDRAWAL') t.bets -= e.amount;
    if (e.kind === 'PAYOUT') t.payouts += e.amount;
  }
  return t;
}

describe('player history', () => {
  it('lists the rounds of a date range with totals that reconcile to the unit with the ledger', async () => {
    expect(played.length).toBeGreaterThanOrEqual(7);
    expect(new Set(opened).size).toBe(opened.length);
    // The range [round 2's open, round 7's open): rounds 2..6.
    const range = { from: opened[1]!, to: opened[6]! };
    for (const playerId of PLAYERS) {
      const expected = played.slice(1, 6).filter((r) => r.bets.has(playerId));
      const ids = new Set(expected.map((r) => r.roundId));
      const [page] = await pages(playerId, range, 50);
      expect(page!.rounds.map((r) => r.roundId)).toEqual(expected.map((r) => r.roundId).reverse());
      const voided = new Set([played[2]!.roundId]);
      const ledger = await ledgerOf(playerId, ids, voided);
      const t = page!.totals!;
      expect(t.rounds).toBe(expected.length);
      expect(t.currency).toBe('EUR');
      expect(t.stakes).toBe(ledger.bets);
      expect(t.returns).toBe(ledger.payouts);
      expect(t.refunds).toBe(ledger.refunds);
      expect(t.winLoss).toBe(ledger.payouts - ledger.bets);
      expect(t.winLoss).toBe(ledger.net);
      expect(t.open).toBe(0);
      // Each round: the recall's detail, this player's position, balance around it, session id.
      for (const round of page!.rounds) {
        expect(round.positions.map((p) => p.playerId)).toEqual([playerId]);
        const p = round.positions[0]!;
        expect(p.sessionId).toMatch(/^ses_/);
        expect(p.balance.currency).toBe('EUR');
        expect(p.balance.after! - p.balance.before!).toBe((p.payout ?? 0) - p.stake);
        expect(round.shoe.statement.rulesVersion).toBeTruthy();
        expect(round.tableId && round.shoeId && round.openedAt).toBeTruthy();
      }
    }
    // The void in the range shows as a refund, in the totals of those who bet in it.
    const voided = played[2]!;
    const bettor = [...voided.bets.keys()][0];
    if (bettor)
      expect((await core.playerHistory(op, { playerId: bettor, ...range })).totals!.refunds).toBeGreaterThan(
        0,
      );
  });

  it('pages the range with cursors; the totals cover the whole range on every page', async () => {
    const playerId = PLAYERS[0]!;
    const whole = (await pages(playerId, all(), 50))[0]!;
    expect(whole.nextCursor).toBeNull();
    const paged = await pages(playerId, all(), 2);
    expect(paged.flatMap((p) => p.rounds.map((r) => r.roundId))).toEqual(whole.rounds.map((r) => r.roundId));
    expect(paged.length).toBe(Math.ceil(whole.rounds.length / 2));
    for (const p of paged) expect(p.totals).toEqual(whole.totals);
    // A range that starts after the newest rounds: skipped newer positions do not shift the page.
    const older = { from: opened[0]!, to: opened[4]! };
    const o = await pages(playerId, older, 1);
    const expected = played
      .slice(0, 4)
      .filter((r) => r.bets.has(playerId))
      .map((r) => r.roundId)
      .reverse();
    expect(o.flatMap((p) => p.rounds.map((r) => r.roundId))).toEqual(expected);
    expect(await codeOf(core.playerHistory(op, { playerId, ...all(), cursor: 'bogus' }))).toBe(
      'CURSOR_INVALID',
    );
  });

  it('refuses a range that is empty, reversed or longer than the bound', async () => {
    const playerId = PLAYERS[0]!;
    const at = '2026-01-01T00:00:00.000Z';
    const days = (n: number) => new Date(Date.parse(at) + n * 86_400_000).toISOString();
    expect(await codeOf(core.playerHistory(op, { playerId, from: at, to: at }))).toBe(
      'HISTORY_RANGE_INVALID',
    );
    expect(await codeOf(core.playerHistory(op, { playerId, from: days(1), to: at }))).toBe(
      'HISTORY_RANGE_INVALID',
    );
    expect(await codeOf(core.playerHistory(op, { playerId, from: at, to: days(HISTORY_MAX_DAYS + 1) }))).toBe(
      'HISTORY_RANGE_INVALID',
    );
    const longest = await core.playerHistory(op, { playerId, from: at, to: days(HISTORY_MAX_DAYS) });
    expect(longest.to).toBe(days(HISTORY_MAX_DAYS));
  });

  it("a player with no rounds has an empty history; another operator's player is not found", async () => {
    const empty = await core.playerHistory(op, { playerId: 'nobody', ...WIDE });
    expect([
      empty.rounds,
      empty.nextCursor,
      empty.totals!.rounds,
      empty.totals!.winLoss,
      empty.totals!.currency,
    ]).toEqual([[], null, 0, 0, null]);
    expect(await codeOf(core.playerHistory(operator('op-other'), { playerId: PLAYERS[0]!, ...all() }))).toBe(
      'PLAYER_NOT_FOUND',
    );
    expect(
      await codeOf(
        core.playerHistory(operator('op-other'), { playerId: PLAYERS[0]!, operatorId: OP, ...all() }),
      ),
    ).toBe('PLAYER_NOT_FOUND');
    // The operator's admin reads it.
    expect(
      (await core.playerHistory(admin(OP), { playerId: PLAYERS[0]!, ...all() })).rounds.length,
    ).toBeGreaterThan(0);
  });
});
