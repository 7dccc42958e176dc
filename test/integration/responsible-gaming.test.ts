/**
 * Responsible gaming (#16, docs/responsible-gaming.md): every limit and each exclusion refuses a bet
 * in the bet's own transaction with nothing written; a tightening applies at once, a relaxation 24 h
 * later; two bets racing a limit never pass it together; table sessions open on the first bet, end on
 * leave or after the inactivity time-out, and their id is on the position and the ledger entries; the
 * loss counter is the ledger's game entries summed. On the memory store and on DynamoDB Local.
 */
import type { RgLimit } from '@pyb/contracts';
import type { Core } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
const MINUTE = 60_000;
beforeAll(async () => {
  stack = await createTestStack('rg');
  core = stack.core;
});
/** Time passes (the stack's clock moves forward at once, for the core and the beacon alike). */
const pass = (ms: number) => stack.clock.sleep!(ms);
const inMinutes = (m: number) => new Date(stack.clock.now().getTime() + m * MINUTE).toISOString();
/**
 * Moves the stack's clock forward to the next `time` (UTC, `HH:MM:SS`), on a Sunday when asked: the
 * counters are per UTC day, week and month, so a test of one period runs at noon, whatever the hour
 * of the run (PYB_CLOCK_START puts it at a midnight), and a test of the roll sets its own midnight.
 */
async function passUntil(time: string, { sunday = false } = {}) {
  const now = stack.clock.now().getTime();
  let t = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T${time}.000Z`);
  while (t <= now || (sunday && new Date(t).getUTCDay() !== 0)) t += 24 * 60 * MINUTE;
  await pass(t - now);
}
afterAll(() => stack?.cleanup());

const op = operator();
const player = (amount = 1_000_000) => fundedPlayer(core, op, { prefix: 'rg', amount });

async function round() {
  const { table, round } = await tableWithRound(core, op, { name: 'RG', variant: 'mini' });
  return { tableId: table.tableId, roundId: round.roundId };
}

let keys = 0;
const bet = (roundId: string, playerId: string, amount: number) =>
  core.placeBet(op, {
    roundId,
    playerId,
    bets: [{ type: 'PLAYER', amount }],
    idempotencyKey: `bet-${++keys}`,
  });

type Settings = Omit<Parameters<Core['setResponsibleGaming']>[1], 'playerId' | 'idempotencyKey'>;
const settings = (playerId: string, body: Settings) =>
  core.setResponsibleGaming(op, { playerId, idempotencyKey: `rg-${++keys}`, ...body });

/** A refused bet wrote nothing: the wallet and its ledger as before, no position. */
async function refusedWithNothingWritten(roundId: string, playerId: string, amount: number) {
  const before = await core.getWallet(op, { playerId });
  const ledger = await wholeLedger(core, op, playerId);
  const key = `bet-${keys + 1}`;
  const code = await codeOf(bet(roundId, playerId, amount));
  expect(await core.getWallet(op, { playerId })).toEqual(before);
  expect(await wholeLedger(core, op, playerId)).toEqual(ledger);
  expect(await stack.store.get('ledger', { operatorId: 'op-1', playerId, key: `c:${key}` })).toBeUndefined();
  return code;
}

describe('responsible-gaming limits in the bet transaction', () => {
  it('refuses each money limit with RG_LIMIT_REACHED and writes nothing', async () => {
    await passUntil('12:00:00');
    const limits: RgLimit[] = ['lossDay', 'lossWeek', 'lossMonth', 'wagerDay', 'wagerWeek', 'wagerMonth'];
    for (const limit of limits) {
      const p = await player();
      const { roundId } = await round();
      await settings(p, { limits: { [limit]: 10_000 } });
      await bet(roundId, p, 6_000);
      const position = (await stack.store.get('position', { roundId, playerId: p }))!;
      expect(await refusedWithNothingWritten(roundId, p, 5_000)).toBe('RG_LIMIT_REACHED');
      expect(await stack.store.get('position', { roundId, playerId: p })).toEqual(position);
      // Up to the limit exactly is fine.
      await bet(roundId, p, 4_000);
      const status = await core.getResponsibleGaming(op, { playerId: p });
      expect([status.counters.day.wager, status.counters.week.loss, status.counters.month.loss]).toEqual([
        10_000, 10_000, 10_000,
      ]);
    }
  });

  it('refuses a stake per round above the limit (the position counts, not the call)', async () => {
    const p = await player();
    const { roundId } = await round();
    await settings(p, { limits: { stakePerRound: 5_000 } });
    await bet(roundId, p, 3_000);
    expect(await refusedWithNothingWritten(roundId, p, 2_500)).toBe('RG_LIMIT_REACHED');
    await bet(roundId, p, 2_000);
    // A reduction is always allowed.
    await core.withdrawBets(op, { roundId, playerId: p, types: ['PLAYER'], idempotencyKey: `w-${++keys}` });
    const second = await round();
    await bet(second.roundId, p, 5_000);
  });

  it('applies a tightening at once and a relaxation 24 hours later, each change in the ledger', async () => {
    const p = await player();
    await settings(p, { limits: { stakePerRound: 2_000 } });
    const relaxed = await settings(p, { limits: { stakePerRound: 10_000, wagerDay: null } });
    expect(relaxed.limits).toEqual({ stakePerRound: 2_000 });
    expect(relaxed.pending.map((x) => [x.limit, x.value])).toEqual([['stakePerRound', 10_000]]);
    const { roundId } = await round();
    expect(await refusedWithNothingWritten(roundId, p, 5_000)).toBe('RG_LIMIT_REACHED');
    await pass(24 * 60 * MINUTE - MINUTE);
    expect(await refusedWithNothingWritten(roundId, p, 5_000)).toBe('RG_LIMIT_REACHED');
    await pass(2 * MINUTE);
    await bet(roundId, p, 5_000);
    expect((await core.getResponsibleGaming(op, { playerId: p })).limits).toEqual({
      stakePerRound: 10_000,
    });
    // Tighter again: at once.
    await settings(p, { limits: { stakePerRound: 1_000 } });
    const next = await round();
    expect(await refusedWithNothingWritten(next.roundId, p, 1_500)).toBe('RG_LIMIT_REACHED');
    const entries = (await wholeLedger(core, op, p)).filter((e) => e.kind === 'RG_SETTINGS');
    expect(entries.map((e) => [e.amount, e.reference?.split('@')[0]])).toEqual([
      [0, 'stakePerRound=2000'],
      [0, 'stakePerRound=10000'],
      [0, 'stakePerRound=1000'],
    ]);
  });

  it('refuses every bet during a self-exclusion or a cooling-off, which can be extended, never shortened', async () => {
    const p = await player();
    const { roundId } = await round();
    await bet(roundId, p, 1_000);
    const until = inMinutes(60);
    const cooling = await settings(p, { exclusion: { kind: 'COOLING_OFF', until } });
    expect(cooling.exclusion).toMatchObject({ kind: 'COOLING_OFF', until });
    expect(await refusedWithNothingWritten(roundId, p, 1_000)).toBe('PLAYER_EXCLUDED');
    // The cooling-off gave back the bet already open (rounds/exclusion.ts): nothing is left to withdraw.
    expect(await stack.store.get('position', { roundId, playerId: p })).toMatchObject({ stake: 0 });
    expect(
      await codeOf(
        core.withdrawBets(op, { roundId, playerId: p, types: ['PLAYER'], idempotencyKey: `w-${++keys}` }),
      ),
    ).toBe('BET_NOT_PLACED');
    const earlier = inMinutes(30);
    expect(await codeOf(settings(p, { exclusion: { kind: 'COOLING_OFF', until: earlier } }))).toBe(
      'EXCLUSION_ACTIVE',
    );
    await pass(61 * MINUTE);
    await bet(roundId, p, 1_000);
    const q = await player();
    await settings(q, { exclusion: { kind: 'SELF_EXCLUSION', until: null } });
    expect(await refusedWithNothingWritten(roundId, q, 1_000)).toBe('PLAYER_EXCLUDED');
    expect(await codeOf(settings(q, { exclusion: { kind: 'SELF_EXCLUSION', until: inMinutes(30) } }))).toBe(
      'EXCLUSION_ACTIVE',
    );
  });

  it('never lets two bets racing a limit pass it together', async () => {
    await passUntil('12:00:00');
    const p = await player();
    await settings(p, { limits: { wagerDay: 10_000 } });
    const rounds = await Promise.all([round(), round(), round(), round()]);
    const results = await Promise.allSettled(rounds.map((r) => bet(r.roundId, p, 4_000)));
    const accepted = results.filter((r) => r.status === 'fulfilled').length;
    expect(accepted).toBe(2);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('RG_LIMIT_REACHED');
    }
    const status = await core.getResponsibleGaming(op, { playerId: p });
    expect(status.counters.day.wager).toBe(8_000);
    const wallet = await core.getWallet(op, { playerId: p });
    expect(wallet.balance).toBe(1_000_000 - 8_000);
  });

  it('starts each period from zero at 00:00 UTC: the day, on a Monday the ISO week, on the 1st the month; a limit holds per period', async () => {
    await passUntil('23:59:30', { sunday: true });
    const p = await player();
    await settings(p, { limits: { wagerDay: 10_000 } });
    const first = await round();
    await bet(first.roundId, p, 6_000);
    expect(await refusedWithNothingWritten(first.roundId, p, 5_000)).toBe('RG_LIMIT_REACHED');
    const sunday = (await core.getResponsibleGaming(op, { playerId: p })).counters;
    await passUntil('00:00:01');
    const second = await round();
    await bet(second.roundId, p, 5_000);
    const monday = (await core.getResponsibleGaming(op, { playerId: p })).counters;
    expect([sunday.day.wager, sunday.week.wager, monday.day.wager, monday.week.wager]).toEqual([
      6_000, 6_000, 5_000, 5_000,
    ]);
    expect(new Date(`${sunday.day.period}T00:00:00Z`).getUTCDay()).toBe(0);
    expect(monday.week.period).toBe(`W${monday.day.period}`);
    // The month goes on counting unless this Monday is the 1st.
    const newMonth = monday.day.period.endsWith('-01');
    expect([monday.month.period === sunday.month.period, monday.month.wager]).toEqual(
      newMonth ? [false, 5_000] : [true, 11_000],
    );
  });
});

describe('table sessions', () => {
  it('opens on the first bet, ends after the inactivity time-out; its id is on the position and the entries', async () => {
    const p = await player();
    await settings(p, { sessionTimeoutMinutes: 10 });
    const { tableId, roundId } = await round();
    const first = await bet(roundId, p, 1_000);
    const sessionId = first.position.sessionId;
    expect(sessionId).toMatch(/^ses_/);
    expect(first.entry.sessionId).toBe(sessionId);
    await pass(9 * MINUTE);
    const again = await bet(roundId, p, 1_000);
    expect(again.entry.sessionId).toBe(sessionId);
    await pass(11 * MINUTE); // 11 minutes after the last bet: ended, lazily
    const status = await core.getResponsibleGaming(op, { playerId: p });
    expect(status.sessions).toEqual([
      expect.objectContaining({
        sessionId,
        tableId,
        endedAt: new Date(Date.parse(status.sessions[0]!.lastActivityAt) + 10 * MINUTE).toISOString(),
        minutesPlayed: 19,
        staked: 2_000,
        net: -2_000,
      }),
    ]);
    const next = await round();
    const later = await bet(next.roundId, p, 1_000);
    expect(later.entry.sessionId).toMatch(/^ses_/);
    expect(later.entry.sessionId).not.toBe(sessionId);
  });

  it('refuses a bet past the session-length limit', async () => {
    const p = await player();
    await settings(p, { sessionTimeoutMinutes: 60, limits: { sessionMinutes: 30 } });
    const { roundId } = await round();
    await bet(roundId, p, 1_000);
    await pass(25 * MINUTE);
    await bet(roundId, p, 1_000);
    await pass(6 * MINUTE);
    expect(await refusedWithNothingWritten(roundId, p, 1_000)).toBe('RG_LIMIT_REACHED');
  });

  it('ends on leave (a SESSION_END entry); the loss counter is the ledger of the day summed', async () => {
    await passUntil('12:00:00');
    const p = await player();
    const { tableId, roundId } = await round();
    const placed = await bet(roundId, p, 5_000);
    await core.resolveRound(op, { roundId });
    await core.leaveTable(op, { tableId, playerId: p });
    const status = await core.getResponsibleGaming(op, { playerId: p });
    const session = status.sessions.find((s) => s.sessionId === placed.position.sessionId)!;
    expect(session.endedAt).not.toBeNull();
    const ledger = await wholeLedger(core, op, p);
    const game = ledger.filter((e) =>
      ['BET', 'BET_WITHDRAWAL', 'PAYOUT', 'REFUND', 'COMMISSION'].includes(e.kind),
    );
    const net = game.reduce((s, e) => s + e.amount, 0);
    // 0 - net, not -net: a coup that gives the stake back nets 0, and -0 is not 0 to toBe.
    expect(status.counters.day.loss).toBe(0 - net);
    expect(session.net).toBe(net);
    expect(ledger.at(-1)).toMatchObject({
      kind: 'SESSION_END',
      amount: 0,
      sessionId: placed.position.sessionId,
    });
    // Every game entry of the round carries the session.
    expect(game.every((e) => e.sessionId === placed.position.sessionId)).toBe(true);
  });
});
