import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bet } from '../src/bets';
import { type BetType, tablePreset } from '../src/config';
import type { Winner } from '../src/coup';
import { type CoupOutcome, commissionOn, settle, worstCaseCommission } from '../src/settlement';

const atPayment = tablePreset('full', { pairBets: true });
const deferred = tablePreset('full', { pairBets: true, commission: { mode: 'DEFERRED' } });
const tie9 = tablePreset('full', { pairBets: true, tiePays: 9 });

const outcomes: CoupOutcome[] = [];
for (const winner of ['PLAYER', 'BANKER', 'TIE'] as Winner[]) {
  for (const playerPair of [false, true]) {
    for (const bankerPair of [false, true]) outcomes.push({ winner, playerPair, bankerPair });
  }
}

/** Expected [result, payout] of a 1000 bet, written out by hand from seed 000/004 and the brief. */
function expected(type: BetType, o: CoupOutcome, tiePays: number): ['WIN' | 'LOSE' | 'PUSH', number] {
  if (type === 'PLAYER')
    return o.winner === 'PLAYER' ? ['WIN', 2000] : o.winner === 'TIE' ? ['PUSH', 1000] : ['LOSE', 0];
  if (type === 'BANKER')
    return o.winner === 'BANKER' ? ['WIN', 2000] : o.winner === 'TIE' ? ['PUSH', 1000] : ['LOSE', 0];
  if (type === 'TIE') return o.winner === 'TIE' ? ['WIN', 1000 * (tiePays + 1)] : ['LOSE', 0];
  if (type === 'PLAYER_PAIR') return o.playerPair ? ['WIN', 12_000] : ['LOSE', 0];
  return o.bankerPair ? ['WIN', 12_000] : ['LOSE', 0];
}

describe('settlement', () => {
  for (const o of outcomes) {
    const label = `${o.winner}${o.playerPair ? ' +P pair' : ''}${o.bankerPair ? ' +B pair' : ''}`;
    it(`every bet type on ${label}, both commission modes, tie 8:1 and 9:1`, () => {
      for (const type of ['PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR'] as BetType[]) {
        const bet = { type, amount: 1000 };
        const [result, grossPayout] = expected(type, o, 8);
        const bankerWins = type === 'BANKER' && result === 'WIN';

        const now = settle(atPayment, [bet], o).bets[0]!;
        expect(now).toEqual({
          type,
          amount: 1000,
          result,
          payout: bankerWins ? 1950 : grossPayout,
          commission: bankerWins ? 50 : 0,
          commissionOwed: 0,
        });

        const later = settle(deferred, [bet], o).bets[0]!;
        expect(later).toEqual({
          type,
          amount: 1000,
          result,
          payout: grossPayout,
          commission: 0,
          commissionOwed: bankerWins ? 50 : 0,
        });

        const nine = settle(tie9, [bet], o).bets[0]!;
        expect(nine.payout).toBe(bankerWins ? 1950 : expected(type, o, 9)[1]);
      }
    });
  }

  it('seed 000 example: on a tie, Banca 10 + Empate 10 get 10 back and 80 + 10', () => {
    const bets: Bet[] = [
      { type: 'BANKER', amount: 10 },
      { type: 'TIE', amount: 10 },
    ];
    const s = settle(atPayment, bets, { winner: 'TIE', playerPair: false, bankerPair: false });
    expect(s).toMatchObject({ stake: 20, payout: 100, commission: 0, commissionOwed: 0 });
    expect(s.bets.map((b) => b.result)).toEqual(['PUSH', 'WIN']);
  });

  it('commission: the house keeps the fraction (ceil to the minor unit)', () => {
    expect(commissionOn(atPayment, 1000)).toBe(50);
    expect(commissionOn(atPayment, 15)).toBe(1); // 0.75
    expect(commissionOn(atPayment, 20)).toBe(1); // exactly 1
    expect(commissionOn(atPayment, 21)).toBe(2); // 1.05
    expect(commissionOn(atPayment, 1)).toBe(1); // 0.05
    expect(commissionOn(atPayment, 0)).toBe(0);
    expect(commissionOn(tablePreset('full', { commission: { rateBps: 0 } }), 999)).toBe(0);
    expect(commissionOn(tablePreset('full', { commission: { rateBps: 250 } }), 999)).toBe(25); // 24.975
    expect(commissionOn(atPayment, Number.MAX_SAFE_INTEGER)).toBe(450_359_962_737_050); // no float error
    expect(() => commissionOn(atPayment, -1)).toThrow(RangeError);
    expect(() => commissionOn(atPayment, 1.5)).toThrow(RangeError);
  });

  it('a Banca win of 15 pays 29 at payment, or 30 and owes 1 deferred', () => {
    const win: CoupOutcome = { winner: 'BANKER', playerPair: false, bankerPair: false };
    expect(settle(atPayment, [{ type: 'BANKER', amount: 15 }], win)).toMatchObject({
      payout: 29,
      commission: 1,
    });
    expect(settle(deferred, [{ type: 'BANKER', amount: 15 }], win)).toMatchObject({
      payout: 30,
      commissionOwed: 1,
    });
  });

  it('worst-case commission covers every open Banca bet winning (DEFERRED only)', () => {
    const bets: Bet[] = [
      { type: 'BANKER', amount: 15 },
      { type: 'TIE', amount: 1000 },
    ];
    expect(worstCaseCommission(deferred, bets)).toBe(1);
    expect(worstCaseCommission(deferred, [...bets, { type: 'BANKER', amount: 1000 }])).toBe(51);
    expect(worstCaseCommission(atPayment, bets)).toBe(0);
    expect(worstCaseCommission(deferred, [{ type: 'PLAYER', amount: 1000 }])).toBe(0);
  });

  const betsArb = fc
    .record({
      main: fc.constantFrom<BetType | undefined>('PLAYER', 'BANKER', undefined),
      mainAmount: fc.integer({ min: 1, max: 10_000_000 }),
      tie: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
      playerPair: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
      bankerPair: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    })
    .map((r) => {
      const bets: Bet[] = [];
      if (r.main) bets.push({ type: r.main, amount: r.mainAmount });
      if (r.tie) bets.push({ type: 'TIE', amount: r.tie });
      if (r.playerPair) bets.push({ type: 'PLAYER_PAIR', amount: r.playerPair });
      if (r.bankerPair) bets.push({ type: 'BANKER_PAIR', amount: r.bankerPair });
      return bets;
    });
  const outcomeArb = fc.constantFrom(...outcomes);
  const rateArb = fc.integer({ min: 0, max: 10_000 });

  it('property: money conservation to the unit — what players win is what the house loses', () => {
    fc.assert(
      fc.property(
        fc.array(betsArb, { maxLength: 14 }),
        outcomeArb,
        rateArb,
        fc.boolean(),
        (table, o, rateBps, later) => {
          const config = tablePreset('full', {
            pairBets: true,
            commission: { rateBps, mode: later ? 'DEFERRED' : 'AT_PAYMENT' },
          });
          let house = 0;
          let players = 0;
          for (const bets of table) {
            const s = settle(config, bets, o);
            // the stake moves to the house when the bet is placed; the payout (and any debt) moves back
            players += s.payout - s.stake - s.commissionOwed;
            house += s.stake - s.payout + s.commissionOwed;
            // independently: the house's result per bet from the odds of each bet type
            let reference = 0;
            for (const bet of bets) {
              const [result, per1000] = expected(bet.type, o, config.tiePays);
              const commission =
                bet.type === 'BANKER' && result === 'WIN' ? Math.ceil((bet.amount * rateBps) / 10_000) : 0;
              reference += bet.amount - (per1000 / 1000) * bet.amount + commission;
            }
            expect(s.stake - s.payout + s.commissionOwed).toBe(reference);
          }
          expect(players + house).toBe(0);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('property: both modes agree — deducted now equals owed later, and the stakes add up', () => {
    fc.assert(
      fc.property(betsArb, outcomeArb, rateArb, (bets, o, rateBps) => {
        const now = settle(tablePreset('full', { pairBets: true, commission: { rateBps } }), bets, o);
        const later = settle(
          tablePreset('full', { pairBets: true, commission: { rateBps, mode: 'DEFERRED' } }),
          bets,
          o,
        );
        expect(now.payout + now.commission).toBe(later.payout);
        expect(now.commission).toBe(later.commissionOwed);
        expect(now.stake).toBe(bets.reduce((a, b) => a + b.amount, 0));
        expect(now.payout).toBe(now.bets.reduce((a, b) => a + b.payout, 0));
        for (const b of now.bets) {
          // ceil: commission covers the exact share and is less than one unit above it
          const exact = b.result === 'WIN' && b.type === 'BANKER' ? b.amount * rateBps : 0;
          expect(b.commission * 10_000).toBeGreaterThanOrEqual(exact);
          expect((b.commission - 1) * 10_000).toBeLessThan(exact);
          expect(b.payout).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
