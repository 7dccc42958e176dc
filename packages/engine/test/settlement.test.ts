import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASE_BET_TYPES,
  BET_TYPES,
  type BetType,
  DEFAULT_SIDE_BET_PAYS,
  type Pays,
  SIDE_BET_TYPES,
  type SideBets,
  type TableConfig,
  tablePreset,
} from '../src';
import type { Bet } from '../src/bets';
import { parseCards } from '../src/cards';
import { type CoupResult, playCoup } from '../src/coup';
import { Xoshiro128 } from '../src/rng';
import {
  type CoupOutcome,
  commissionOn,
  coupFacts,
  netWinAt,
  settle,
  worstCaseCommission,
} from '../src/settlement';

/** One bet settled alone: its line of a position's settlement. */
const settleBet = (config: TableConfig, bet: Bet, coup: CoupOutcome) => settle(config, [bet], coup).bets[0]!;

const coupOf = (text: string): CoupResult => playCoup(parseCards(text));

const LIMIT = { min: 1, max: 10_000_000 };
/** Every side bet offered at its default pay table. */
const ALL_SIDE_BETS: SideBets = {
  EITHER_PAIR: { ...DEFAULT_SIDE_BET_PAYS.EITHER_PAIR, limit: LIMIT },
  PERFECT_PAIR: { ...DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR, limit: LIMIT },
  DRAGON_BONUS_PLAYER: { ...DEFAULT_SIDE_BET_PAYS.DRAGON_BONUS, limit: LIMIT },
  DRAGON_BONUS_BANKER: { ...DEFAULT_SIDE_BET_PAYS.DRAGON_BONUS, limit: LIMIT },
  DRAGON_7: { ...DEFAULT_SIDE_BET_PAYS.DRAGON_7, limit: LIMIT },
  PANDA_8: { ...DEFAULT_SIDE_BET_PAYS.PANDA_8, limit: LIMIT },
  SUPER_6: { ...DEFAULT_SIDE_BET_PAYS.SUPER_6, limit: LIMIT },
  BIG: { ...DEFAULT_SIDE_BET_PAYS.BIG, limit: LIMIT },
  SMALL: { ...DEFAULT_SIDE_BET_PAYS.SMALL, limit: LIMIT },
};

const atPayment = tablePreset('full', { pairBets: true, sideBets: ALL_SIDE_BETS });
const deferred = tablePreset('full', {
  pairBets: true,
  sideBets: ALL_SIDE_BETS,
  commission: { mode: 'DEFERRED' },
});
const tie9 = tablePreset('full', { pairBets: true, tiePays: 9 });
const ez = tablePreset('full', { bankerMode: 'EZ', sideBets: ALL_SIDE_BETS });
const super6 = tablePreset('full', { bankerMode: 'SUPER_6', sideBets: ALL_SIDE_BETS });

/** One coup of each (winner, Punto pair, Banca pair) class, found in a seeded stream of 6-card sequences. */
const outcomes: CoupResult[] = (() => {
  const rng = new Xoshiro128('settlement outcome classes');
  const found = new Map<string, CoupResult>();
  while (found.size < 12) {
    const coup = playCoup(Array.from({ length: 6 }, () => rng.below(52)));
    const key = `${coup.winner} ${coup.playerPair} ${coup.bankerPair}`;
    if (!found.has(key)) found.set(key, coup);
  }
  return [...found.values()];
})();

/** Expected [result, payout] of a 1000 bet, written out by hand from seed 000/004 and the brief. */
function expected(type: BetType, o: CoupResult, tiePays: number): ['WIN' | 'LOSE' | 'PUSH', number] {
  if (type === 'PLAYER')
    return o.winner === 'PLAYER' ? ['WIN', 2000] : o.winner === 'TIE' ? ['PUSH', 1000] : ['LOSE', 0];
  if (type === 'BANKER')
    return o.winner === 'BANKER' ? ['WIN', 2000] : o.winner === 'TIE' ? ['PUSH', 1000] : ['LOSE', 0];
  if (type === 'TIE') return o.winner === 'TIE' ? ['WIN', 1000 * (tiePays + 1)] : ['LOSE', 0];
  if (type === 'PLAYER_PAIR') return o.playerPair ? ['WIN', 12_000] : ['LOSE', 0];
  return o.bankerPair ? ['WIN', 12_000] : ['LOSE', 0];
}

describe('settlement of the base bets', () => {
  it('the outcome classes cover every winner with and without each pair', () => {
    expect(outcomes).toHaveLength(12);
  });

  for (const o of outcomes) {
    const label = `${o.winner}${o.playerPair ? ' +P pair' : ''}${o.bankerPair ? ' +B pair' : ''}`;
    it(`every base bet on ${label}, both commission modes, tie 8:1 and 9:1`, () => {
      for (const type of BASE_BET_TYPES) {
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
    const tie = coupOf('AS 4H 7D 4C'); // 8 vs 8
    expect(tie.winner).toBe('TIE');
    const s = settle(atPayment, bets, tie);
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
    const win = coupOf('2S AH 4D 2C 5S'); // Punto 6 stands, Banca 3 draws 5: 8
    expect(win.winner).toBe('BANKER');
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
});

describe("seed 002's 10% commission (rateBps 1000)", () => {
  const ten = tablePreset('full', { commission: { rateBps: 1000 } });
  const tenLater = tablePreset('full', { commission: { rateBps: 1000, mode: 'DEFERRED' } });
  const bankerWins = coupOf('2S AH 4D 2C 5S');

  it('deducts 10% of a Banca win at payment: 1000 wins 900', () => {
    expect(settle(ten, [{ type: 'BANKER', amount: 1000 }], bankerWins)).toEqual({
      bets: [
        { type: 'BANKER', amount: 1000, result: 'WIN', payout: 1900, commission: 100, commissionOwed: 0 },
      ],
      stake: 1000,
      payout: 1900,
      commission: 100,
      commissionOwed: 0,
    });
  });

  it('defers it: pays 2000 and owes 100; the cover check reserves 10% of every open Banca bet', () => {
    expect(settle(tenLater, [{ type: 'BANKER', amount: 1000 }], bankerWins)).toMatchObject({
      payout: 2000,
      commission: 0,
      commissionOwed: 100,
    });
    expect(worstCaseCommission(tenLater, [{ type: 'BANKER', amount: 1000 }])).toBe(100);
  });

  it('rounds up in favour of the house: a win of 15 owes 2 (1.5), 10 owes exactly 1', () => {
    expect(commissionOn(ten, 15)).toBe(2);
    expect(commissionOn(ten, 10)).toBe(1);
    expect(settle(ten, [{ type: 'BANKER', amount: 15 }], bankerWins).payout).toBe(28);
    expect(settle(tenLater, [{ type: 'BANKER', amount: 15 }], bankerWins).commissionOwed).toBe(2);
  });

  it('takes nothing from Punto, Empate or a push', () => {
    const tie = coupOf('AS 4H 7D 4C');
    expect(settle(ten, [{ type: 'BANKER', amount: 1000 }], tie)).toMatchObject({
      payout: 1000,
      commission: 0,
    });
    expect(settle(ten, [{ type: 'TIE', amount: 100 }], tie)).toMatchObject({ payout: 900, commission: 0 });
    const playerWins = coupOf('3S 2H 4D KC AS');
    expect(settle(ten, [{ type: 'PLAYER', amount: 1000 }], playerWins)).toMatchObject({
      payout: 2000,
      commission: 0,
    });
  });
});

/**
 * Hand-made coups for the side bets, each worked out from the tableau (seed 000) in its comment, and
 * what a 1000 bet returns (stake included) on each. Unlisted bets lose (0).
 */
const SIDE_BET_CASES: { cards: string; why: string; returns: Partial<Record<BetType, number>> }[] = [
  {
    cards: 'KS 2H KD 3C 5S 9D',
    why: 'Punto K-K (a pair, not suited) draws 5: 5; Banca 5 draws 9 on a 5: 4. Punto by 1, 6 cards',
    returns: { EITHER_PAIR: 6000, BIG: 1540 },
  },
  {
    cards: 'QH 3S QH 4D 9C',
    why: 'Punto QH-QH (a perfect pair) draws 9: 9; Banca stands on 7. Punto by 2, 5 cards',
    returns: { EITHER_PAIR: 6000, PERFECT_PAIR: 26_000, BIG: 1540 },
  },
  {
    cards: 'QH 4S QH 4S',
    why: 'two perfect pairs; Punto 0, Banca a natural 8 wins, 4 cards',
    returns: { EITHER_PAIR: 6000, PERFECT_PAIR: 201_000, DRAGON_BONUS_BANKER: 2000, SMALL: 2500 },
  },
  {
    cards: 'AS 4H 7D 4C',
    why: 'natural 8 against natural 8: a natural tie pushes both Dragon Bonus bets; Banca pair 4-4',
    returns: { EITHER_PAIR: 6000, DRAGON_BONUS_PLAYER: 1000, DRAGON_BONUS_BANKER: 1000, SMALL: 2500 },
  },
  {
    cards: 'AS 4H 8D 4C',
    why: 'natural 9 beats natural 8: Punto natural win',
    returns: { EITHER_PAIR: 6000, DRAGON_BONUS_PLAYER: 2000, SMALL: 2500 },
  },
  {
    cards: '2S AH 4D 2C 4S',
    why: 'Punto 6 stands; Banca 3 draws 4: a three-card 7 wins by 1 (Dragon 7)',
    returns: { DRAGON_7: 41_000, BIG: 1540 },
  },
  {
    cards: '2S 3H 3D 4C 3S',
    why: 'Punto 5 draws 3: a three-card 8; Banca stands on 7; Punto by 1 (Panda 8)',
    returns: { PANDA_8: 26_000, BIG: 1540 },
  },
  {
    cards: '5S 6H KD KC 9S',
    why: 'Punto 5 draws 9: 4; Banca 6 stands on a 9: Banca wins on 6 by 2',
    returns: { SUPER_6: 13_000, BIG: 1540 },
  },
  {
    cards: 'AS KH 3D QC 5S KD',
    why: 'Punto 4 draws 5: 9; Banca 0 draws K: 0. A non-natural win by 9',
    returns: { DRAGON_BONUS_PLAYER: 31_000, BIG: 1540 },
  },
  {
    cards: '3S 2H 4D KC AS',
    why: 'Punto 7 stands; Banca 2 draws A: 3. A non-natural win by 4',
    returns: { DRAGON_BONUS_PLAYER: 2000, BIG: 1540 },
  },
  {
    cards: '6S 2H KD 3C AS',
    why: 'Punto 6 stands; Banca 5 draws A: 6. A non-natural tie loses both Dragon Bonus bets',
    returns: { BIG: 1540 },
  },
];

describe('side bets (default pay tables)', () => {
  it.each(SIDE_BET_CASES)('$cards — $why', ({ cards, returns }) => {
    const coup = coupOf(cards);
    for (const type of SIDE_BET_TYPES) {
      const s = settleBet(atPayment, { type, amount: 1000 }, coup);
      const want = returns[type] ?? 0;
      expect([type, s.payout]).toEqual([type, want]);
      expect(s.result).toBe(want === 1000 ? 'PUSH' : want > 0 ? 'WIN' : 'LOSE');
      expect(s.commission + s.commissionOwed).toBe(0);
    }
  });

  it('the hand-made coups are what their comments say', () => {
    expect(coupFacts(coupOf('2S AH 4D 2C 4S'))).toMatchObject({
      winner: 'BANKER',
      bankerTotal: 7,
      bankerThreeCards: true,
      cards: 5,
    });
    expect(coupFacts(coupOf('QH 4S QH 4S'))).toMatchObject({
      playerSuitedPair: true,
      bankerSuitedPair: true,
      bankerNatural: true,
      cards: 4,
    });
    expect(coupFacts(coupOf('6S 2H KD 3C AS'))).toMatchObject({
      cards: 5,
      winner: 'TIE',
      playerNatural: false,
    });
  });

  it('fractional payouts round down (the house keeps the fraction): Big 15 wins 8, Small 15 wins 22', () => {
    const big = coupOf('KS 2H KD 3C 5S 9D');
    const small = coupOf('AS 4H 8D 4C');
    expect(settleBet(atPayment, { type: 'BIG', amount: 15 }, big).payout).toBe(15 + 8); // 8.1
    expect(settleBet(atPayment, { type: 'BIG', amount: 100 }, big).payout).toBe(154); // exact
    expect(settleBet(atPayment, { type: 'SMALL', amount: 15 }, small).payout).toBe(15 + 22); // 22.5
    expect(settleBet(atPayment, { type: 'SMALL', amount: 2 }, small).payout).toBe(5); // exact
    expect(netWinAt(1, { win: 54, per: 100 })).toBe(0); // a 1-unit Big wins nothing but its stake back
    expect(netWinAt(2 ** 52 + 1, { win: 3, per: 2 })).toBe(6_755_399_441_055_745); // exact: BigInt, not doubles
    expect(() => netWinAt(Number.MAX_SAFE_INTEGER, { win: 40, per: 1 })).toThrow(RangeError);
  });

  it('side bets are never charged commission, in either mode', () => {
    const win7 = coupOf('2S AH 4D 2C 4S');
    expect(settleBet(deferred, { type: 'DRAGON_7', amount: 1000 }, win7)).toMatchObject({
      payout: 41_000,
      commission: 0,
      commissionOwed: 0,
    });
  });

  it('a table pay table overrides the default: Perfect Pair 25/250 (the Wizard of Odds version 2)', () => {
    const v2 = tablePreset('full', {
      sideBets: { PERFECT_PAIR: { pays: { win: 25, per: 1 }, paysBoth: { win: 250, per: 1 }, limit: LIMIT } },
    });
    expect(settleBet(v2, { type: 'PERFECT_PAIR', amount: 10 }, coupOf('QH 4S QH 4S')).payout).toBe(2510);
    expect(settleBet(v2, { type: 'PERFECT_PAIR', amount: 10 }, coupOf('QH 3S QH 4D 9C')).payout).toBe(260);
  });
});

describe('Banca modes', () => {
  const dragon7 = coupOf('2S AH 4D 2C 4S');
  const win6 = coupOf('5S 6H KD KC 9S');
  const win8 = coupOf('2S AH 4D 2C 5S');
  const banca = (config: TableConfig, amount: number, coup: CoupResult) =>
    settleBet(config, { type: 'BANKER', amount }, coup);

  it('EZ: Banca wins 1:1 without commission, pushes on a winning three-card 7', () => {
    expect(banca(ez, 1000, win8)).toMatchObject({ result: 'WIN', payout: 2000, commission: 0 });
    expect(banca(ez, 1000, dragon7)).toMatchObject({ result: 'PUSH', payout: 1000 });
    expect(banca(ez, 1000, win6)).toMatchObject({ result: 'WIN', payout: 2000 });
    // A three-card 7 that does not win is no push: Banca 7 vs Punto 7 is a tie, vs 8 a loss.
    expect(banca(ez, 1000, coupOf('3S AH 4D 2C 4S'))).toMatchObject({ result: 'PUSH', payout: 1000 }); // tie 7-7
    expect(banca(atPayment, 1000, dragon7)).toMatchObject({ result: 'WIN', payout: 1950, commission: 50 });
  });

  it('Super 6: Banca wins 1:1 without commission, a win on 6 pays 1:2 rounded down', () => {
    expect(banca(super6, 1000, win8)).toMatchObject({ result: 'WIN', payout: 2000, commission: 0 });
    expect(banca(super6, 1000, win6)).toMatchObject({ result: 'WIN', payout: 1500 });
    expect(banca(super6, 15, win6)).toMatchObject({ result: 'WIN', payout: 22 }); // 7.5 -> 7
    expect(banca(super6, 1000, dragon7)).toMatchObject({ result: 'WIN', payout: 2000 });
  });

  it('no commission is owed or reserved on EZ and Super 6 tables, even in DEFERRED mode', () => {
    for (const bankerMode of ['EZ', 'SUPER_6'] as const) {
      const later = tablePreset('full', { bankerMode, commission: { mode: 'DEFERRED' } });
      expect(banca(later, 1000, win8)).toMatchObject({ payout: 2000, commissionOwed: 0 });
      expect(worstCaseCommission(later, [{ type: 'BANKER', amount: 1000 }])).toBe(0);
    }
  });
});

// ---- properties against an independent reference ----------------------------------------------------

type Ref = ['WIN' | 'LOSE' | 'PUSH', number];

/**
 * What a bet returns (result and payout, stake included), from the coup as playCoup reports it (its own
 * pair and natural flags), written from docs/rules.md without the engine's settlement code.
 */
function reference(config: TableConfig, bet: Bet, c: CoupResult): Ref {
  const side = config.sideBets ?? {};
  const p = c.player;
  const b = c.banker;
  const win = (pays: Pays): Ref => ['WIN', bet.amount + Math.floor((bet.amount * pays.win) / pays.per)];
  const even: Ref = ['WIN', 2 * bet.amount];
  const push: Ref = ['PUSH', bet.amount];
  const lose: Ref = ['LOSE', 0];
  const suitedP = p.cards[0] === p.cards[1];
  const suitedB = b.cards[0] === b.cards[1];
  const cards = p.cards.length + b.cards.length;
  switch (bet.type) {
    case 'PLAYER':
      return c.winner === 'PLAYER' ? even : c.winner === 'TIE' ? push : lose;
    case 'BANKER': {
      if (c.winner === 'TIE') return push;
      if (c.winner === 'PLAYER') return lose;
      if (config.bankerMode === 'EZ') return b.cards.length === 3 && b.total === 7 ? push : even;
      if (config.bankerMode === 'SUPER_6') return b.total === 6 ? win({ win: 1, per: 2 }) : even;
      const commission = Math.ceil((bet.amount * config.commission.rateBps) / 10_000);
      return ['WIN', 2 * bet.amount - (config.commission.mode === 'AT_PAYMENT' ? commission : 0)];
    }
    case 'TIE':
      return c.winner === 'TIE' ? win({ win: config.tiePays, per: 1 }) : lose;
    case 'PLAYER_PAIR':
      return c.playerPair ? win({ win: 11, per: 1 }) : lose;
    case 'BANKER_PAIR':
      return c.bankerPair ? win({ win: 11, per: 1 }) : lose;
    case 'EITHER_PAIR':
      return c.playerPair || c.bankerPair ? win(side.EITHER_PAIR!.pays) : lose;
    case 'PERFECT_PAIR':
      if (suitedP && suitedB) return win(side.PERFECT_PAIR!.paysBoth);
      return suitedP || suitedB ? win(side.PERFECT_PAIR!.pays) : lose;
    case 'DRAGON_BONUS_PLAYER':
    case 'DRAGON_BONUS_BANKER': {
      const mine = bet.type === 'DRAGON_BONUS_PLAYER' ? 'PLAYER' : 'BANKER';
      const table = (mine === 'PLAYER' ? side.DRAGON_BONUS_PLAYER : side.DRAGON_BONUS_BANKER)!;
      if (c.winner === 'TIE') return c.playerNatural && c.bankerNatural ? push : lose;
      if (c.winner !== mine) return lose;
      if (mine === 'PLAYER' ? c.playerNatural : c.bankerNatural) return win(table.natural);
      const margin = Math.abs(p.total - b.total);
      return margin >= 4 ? win(table.margin[margin as 4]) : lose;
    }
    case 'DRAGON_7':
      return c.winner === 'BANKER' && b.cards.length === 3 && b.total === 7 ? win(side.DRAGON_7!.pays) : lose;
    case 'PANDA_8':
      return c.winner === 'PLAYER' && p.cards.length === 3 && p.total === 8 ? win(side.PANDA_8!.pays) : lose;
    case 'SUPER_6':
      return c.winner === 'BANKER' && b.total === 6 ? win(side.SUPER_6!.pays) : lose;
    case 'BIG':
      return cards >= 5 ? win(side.BIG!.pays) : lose;
    case 'SMALL':
      return cards === 4 ? win(side.SMALL!.pays) : lose;
  }
}

const paysArb = fc.record({ win: fc.integer({ min: 1, max: 300 }), per: fc.integer({ min: 1, max: 100 }) });
const limit = fc.constant(LIMIT);
const sideBetsArb: fc.Arbitrary<SideBets> = fc.record({
  EITHER_PAIR: fc.record({ pays: paysArb, limit }),
  PERFECT_PAIR: fc.record({ pays: paysArb, paysBoth: paysArb, limit }),
  DRAGON_BONUS_PLAYER: fc.record({
    natural: paysArb,
    margin: fc.record({ 4: paysArb, 5: paysArb, 6: paysArb, 7: paysArb, 8: paysArb, 9: paysArb }),
    limit,
  }),
  DRAGON_BONUS_BANKER: fc.record({
    natural: paysArb,
    margin: fc.record({ 4: paysArb, 5: paysArb, 6: paysArb, 7: paysArb, 8: paysArb, 9: paysArb }),
    limit,
  }),
  DRAGON_7: fc.record({ pays: paysArb, limit }),
  PANDA_8: fc.record({ pays: paysArb, limit }),
  SUPER_6: fc.record({ pays: paysArb, limit }),
  BIG: fc.record({ pays: paysArb, limit }),
  SMALL: fc.record({ pays: paysArb, limit }),
});
const configArb = fc
  .record({
    rateBps: fc.integer({ min: 0, max: 10_000 }),
    later: fc.boolean(),
    bankerMode: fc.constantFrom(undefined, 'EZ' as const, 'SUPER_6' as const),
    tiePays: fc.constantFrom(8 as const, 9 as const),
    sideBets: sideBetsArb,
  })
  .map(({ rateBps, later, bankerMode, tiePays, sideBets }) =>
    tablePreset('full', {
      pairBets: true,
      tiePays,
      sideBets,
      commission: { rateBps, mode: later ? 'DEFERRED' : 'AT_PAYMENT' },
      ...(bankerMode && { bankerMode }),
    }),
  );
/** A position: any subset of bet types (never Punto and Banca together), each 1..1,000,000. */
const betsArb = fc
  .record({
    main: fc.constantFrom<BetType | undefined>('PLAYER', 'BANKER', undefined),
    others: fc.subarray(BET_TYPES.filter((t) => t !== 'PLAYER' && t !== 'BANKER')),
    amounts: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 14, maxLength: 14 }),
  })
  .map(({ main, others, amounts }) =>
    [...(main ? [main] : []), ...others].map((type, i): Bet => ({ type, amount: amounts[i]! })),
  );
/** Any 6 cards (a multi-deck shoe can repeat a card, so perfect pairs happen). */
const coupArb = fc
  .array(fc.integer({ min: 0, max: 51 }), { minLength: 6, maxLength: 6 })
  .map((c) => playCoup(c));

describe('settlement properties', () => {
  it('property: every bet settles as the independent reference says, to the unit', () => {
    fc.assert(
      fc.property(configArb, betsArb, coupArb, (config, bets, coup) => {
        const s = settle(config, bets, coup);
        s.bets.forEach((settled, i) => {
          const bet = bets[i]!;
          const later = config.commission.mode === 'DEFERRED';
          expect([bet.type, settled.result, settled.payout]).toEqual([
            bet.type,
            ...reference(config, bet, coup),
          ]);
          if (bet.type !== 'BANKER' || config.bankerMode) {
            expect(settled.commission + settled.commissionOwed).toBe(0);
          } else if (settled.result === 'WIN') {
            const due = Math.ceil((bet.amount * config.commission.rateBps) / 10_000);
            expect(later ? settled.commissionOwed : settled.commission).toBe(due);
          }
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('property: money conservation — stakes, payouts and debts add up per position and per table', () => {
    fc.assert(
      fc.property(configArb, fc.array(betsArb, { maxLength: 14 }), coupArb, (config, table, coup) => {
        let house = 0;
        let players = 0;
        for (const bets of table) {
          const s = settle(config, bets, coup);
          expect(s.stake).toBe(bets.reduce((a, b) => a + b.amount, 0));
          expect(s.payout).toBe(s.bets.reduce((a, b) => a + b.payout, 0));
          expect(s.commission).toBe(s.bets.reduce((a, b) => a + b.commission, 0));
          expect(s.commissionOwed).toBe(s.bets.reduce((a, b) => a + b.commissionOwed, 0));
          for (const b of s.bets) {
            expect(Number.isSafeInteger(b.payout) && b.payout >= 0).toBe(true);
            if (b.result === 'LOSE') expect(b.payout).toBe(0);
            if (b.result === 'PUSH') expect(b.payout).toBe(b.amount);
          }
          players += s.payout - s.stake - s.commissionOwed;
          house += s.stake - s.payout + s.commissionOwed;
        }
        expect(players + house).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: both commission modes agree — deducted now equals owed later', () => {
    fc.assert(
      fc.property(configArb, betsArb, coupArb, (config, bets, coup) => {
        const now = settle(
          { ...config, commission: { ...config.commission, mode: 'AT_PAYMENT' } },
          bets,
          coup,
        );
        const later = settle(
          { ...config, commission: { ...config.commission, mode: 'DEFERRED' } },
          bets,
          coup,
        );
        expect(now.payout + now.commission).toBe(later.payout);
        expect(now.commission).toBe(later.commissionOwed);
        expect(
          worstCaseCommission({ ...config, commission: { ...config.commission, mode: 'DEFERRED' } }, bets),
        ).toBeGreaterThanOrEqual(later.commissionOwed);
      }),
      { numRuns: 1000 },
    );
  });
});
