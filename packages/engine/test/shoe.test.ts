import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AfterCutCard, BET_TYPES, SIDE_BET_TYPES, type SideBets, tablePreset } from '../src';
import type { Bet } from '../src/bets';
import { type Card, canonicalShoe, parseCards } from '../src/cards';
import { compositionOfDecks } from '../src/composition';
import { type CoupResult, coupCode } from '../src/coup';
import { flatEvents } from '../src/events';
import { exactOdds, probabilities } from '../src/odds';
import { shuffleInPlace, Xoshiro128 } from '../src/rng';
import { coupFacts, settle } from '../src/settlement';
import { burnCoup, burnOf, isLastCoup, nextCoup, ShoeRunner, type ShoeState, startShoe } from '../src/shoe';
import { ShoeSimulator, TALLY } from '../src/simulate';

const finish = { afterCutCard: 'FINISH_COUP' as AfterCutCard };
const oneMore = { afterCutCard: 'ONE_MORE_COUP' as AfterCutCard };

/** A 4-card coup (Punto natural 9 vs Banca 0), so hand-made shoes have coups of known size. */
const NATURAL = '4S TH 5D KC';

describe('burn (seed 003)', () => {
  it.each([
    ['AS', 1],
    ['5H', 5],
    ['9D', 9],
    ['TC', 10],
    ['JS', 10],
    ['QH', 10],
    ['KD', 10],
  ])('%s shown burns %i more', (shown, burned) => {
    const order = parseCards(`${shown} ${'2S '.repeat(12)}`);
    expect(burnOf(order)).toEqual({ shown: order[0], burned });
    expect(startShoe(order).cursor).toBe(1 + burned);
  });
});

describe('isLastCoup', () => {
  const cut = 20;
  it('FINISH_COUP: the coup that brings out the cut card is the last', () => {
    expect(isLastCoup(finish, cut, 14, 6, 0)).toBe(false); // cards 14..19: cut card still in
    expect(isLastCoup(finish, cut, 15, 6, 0)).toBe(true); // deals card 20: the cut card came out
    expect(isLastCoup(finish, cut, 20, 4, 0)).toBe(true); // the cut card is the first thing out
  });
  it('ONE_MORE_COUP: one more coup after it', () => {
    expect(isLastCoup(oneMore, cut, 15, 6, 0)).toBe(false);
    expect(isLastCoup(oneMore, cut, 20, 4, 0)).toBe(false);
    expect(isLastCoup(oneMore, cut, 21, 5, 0)).toBe(true);
    expect(isLastCoup(oneMore, cut, 24, 4, 0)).toBe(true);
  });
});

describe('ShoeRunner over hand-made shoes', () => {
  // AS shown, one card burned, then 10 natural coups of 4 cards: coup k covers cards 2+4k .. 5+4k.
  const order = parseCards(`AS 2S ${`${NATURAL} `.repeat(10)}`);

  it('FINISH_COUP: stops after the coup that deals the card behind the cut card', () => {
    const runner = new ShoeRunner(finish, order, 13); // cut card before card 13 (coup 2: cards 10..13)
    const coups = runner.all();
    expect(runner.burn).toEqual({ shown: order[0], burned: 1 });
    expect(coups.map((c) => c.start)).toEqual([2, 6, 10]);
    expect(coups.map((c) => c.cutCardOut)).toEqual([false, false, true]);
    expect(coups.map((c) => c.last)).toEqual([false, false, true]);
    expect(runner.finished).toBe(true);
    expect(runner.next()).toBeUndefined();
  });

  it('FINISH_COUP: a cut card right before a coup makes that coup the last', () => {
    const coups = new ShoeRunner(finish, order, 14).all();
    expect(coups.map((c) => c.start)).toEqual([2, 6, 10, 14]);
    expect(coups.at(-1)!.cutCardOut).toBe(true);
  });

  it('ONE_MORE_COUP: plays one coup after the cut coup', () => {
    const coups = new ShoeRunner(oneMore, order, 13).all();
    expect(coups.map((c) => c.start)).toEqual([2, 6, 10, 14]);
    expect(coups.map((c) => c.cutCardOut)).toEqual([false, false, true, false]);
    expect(coups.map((c) => c.last)).toEqual([false, false, false, true]);
  });

  it('resumes from a stored state exactly as the runner goes on', () => {
    const runner = new ShoeRunner(finish, order, 30);
    const all = runner.all();
    let state: ShoeState = JSON.parse(JSON.stringify(startShoe(order)));
    for (const expected of all) {
      const coup = nextCoup(finish, order, 30, JSON.parse(JSON.stringify(state)));
      expect(coup).toEqual(expected);
      state = coup.state;
    }
    expect(state.finished).toBe(true);
    expect(() => nextCoup(finish, order, 30, state)).toThrow(/finished/);
  });
});

describe('a coup burned by a dealer error (seed 004:67-68)', () => {
  // AS shown, one burned; then a coup where Punto draws (2H 3H 2D 3D: 4 vs 6, Punto's third 4S, Banca stands: 5 cards),
  // then natural coups.
  const order = parseCards(`AS 2S 2H 3H 2D 3D 4S ${`${NATURAL} `.repeat(6)}`);

  it('takes the cards the tableau would have dealt, and the next coup starts after them', () => {
    const runner = new ShoeRunner(finish, order, 25);
    const first = runner.burnNext()!;
    expect(first.start).toBe(2);
    expect(first.cards).toEqual(parseCards('2H 3H 2D 3D 4S'));
    // What the coup would have been: the same cards.
    expect(nextCoup(finish, order, 25, startShoe(order)).result.cardsUsed).toBe(5);
    expect(first.state).toEqual({ cursor: 7, coups: 0, coupsAfterCut: 0, finished: false });
    const next = runner.next()!;
    expect([next.index, next.start]).toEqual([0, 7]);
    expect(next.result.natural).toBe(true);
  });

  it('is the last when it brings out the cut card (FINISH_COUP), or as the extra coup (ONE_MORE_COUP)', () => {
    const cutInBurn = new ShoeRunner(finish, order, 5);
    expect(cutInBurn.burnNext()).toMatchObject({ cutCardOut: true, last: true, state: { finished: true } });
    expect(cutInBurn.next()).toBeUndefined();

    const extra = new ShoeRunner(oneMore, order, 9); // the coup at 7..10 brings out the cut card
    expect(extra.burnNext()!.last).toBe(false);
    expect(extra.next()).toMatchObject({ start: 7, cutCardOut: true, last: false });
    expect(extra.burnNext()).toMatchObject({ start: 11, cutCardOut: false, last: true });
    expect(extra.finished).toBe(true);
  });

  it('is pure and resumes from a stored state', () => {
    const state = startShoe(order);
    const copy = JSON.parse(JSON.stringify(state));
    const burned = burnCoup(finish, order, 25, state);
    expect(state).toEqual(copy);
    expect(burnCoup(finish, order, 25, JSON.parse(JSON.stringify(state)))).toEqual(burned);
    expect(() => burnCoup(finish, order, 25, { ...state, finished: true })).toThrow(/finished/);
  });
});

const shuffled = (decks: number, seed: number): Uint8Array => {
  const order = canonicalShoe(decks);
  shuffleInPlace(order, new Xoshiro128(seed));
  return order;
};

describe('shoe properties', () => {
  it('property: whole shoes conserve cards, bring out the cut card once and end by the rule', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer(),
        fc.boolean(),
        fc.integer({ min: 0, max: 13 }),
        (decks, seed, more, extra) => {
          const config = more ? oneMore : finish;
          const behind = (more ? 12 : 7) + extra;
          const order = shuffled(decks, seed);
          const cutIndex = order.length - behind;
          const runner = new ShoeRunner(config, order, cutIndex);
          const coups = runner.all();
          let cursor = 1 + runner.burn.burned;
          for (const c of coups) {
            expect(c.start).toBe(cursor);
            cursor += c.result.cardsUsed;
          }
          expect(runner.state.cursor).toBe(cursor);
          expect(cursor).toBeLessThanOrEqual(order.length);
          const cutCoups = coups.filter((c) => c.cutCardOut);
          expect(cutCoups).toHaveLength(1);
          const cutAt = coups.indexOf(cutCoups[0]!);
          expect(coups.length - 1).toBe(cutAt + (more ? 1 : 0));
          expect(coups.filter((c) => c.last)).toEqual([coups.at(-1)]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: the simulator hot path plays the same shoes as the runner', () => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), fc.integer({ min: 1, max: 8 }), (seed, more, decks) => {
        const config = tablePreset('custom', {
          name: 'simulation',
          decks,
          afterCutCard: more ? 'ONE_MORE_COUP' : 'FINISH_COUP',
          cutCard: { minCardsBehind: 12, maxCardsBehind: 30 },
        });
        const sim = new ShoeSimulator(config, seed, true);
        const played = sim.playShoe();
        const order: Card[] = Array.from(sim.order);
        const coups = new ShoeRunner(config, order, sim.cutIndex).all();
        expect(played).toBe(coups.length);
        expect(Array.from(sim.codes.subarray(0, sim.codeCount))).toEqual(
          coups.map((c) => coupCode(sim.order, c.start)),
        );
        expect(sim.tallies[TALLY.COUPS]).toBe(coups.length);
        expect(sim.tallies[TALLY.CARDS]).toBe(coups.reduce((a, c) => a + c.result.cardsUsed, 0));
        // The histogram's events are the runner's coups counted one by one.
        expect(sim.events()).toEqual(countEvents(coups.map((c) => c.result)));
      }),
      { numRuns: 100 },
    );
  });

  it('the simulator is deterministic per seed and stops at exactly N coups', () => {
    const run = (seed: string) => {
      const sim = new ShoeSimulator(tablePreset('mini'), seed);
      sim.playCoups(1000);
      return Array.from(sim.tallies);
    };
    expect(run('a')).toEqual(run('a'));
    expect(run('a')).not.toEqual(run('b'));
    expect(run('a')[TALLY.COUPS]).toBe(1000);
    const t = run('a');
    expect(t[TALLY.PLAYER]! + t[TALLY.BANKER]! + t[TALLY.TIE]!).toBe(1000);
  });

  it('observed frequencies of every event stay within 4.5 standard errors of the exact probabilities', () => {
    const sim = new ShoeSimulator(tablePreset('full'), 'events vs exact');
    sim.playCoups(400_000);
    const n = sim.coups;
    const observed = flatEvents(sim.events());
    const exact = flatEvents(probabilities(exactOdds(compositionOfDecks(8))));
    for (const [key, p] of Object.entries(exact)) {
      // whole shoes are slightly dependent coups (cards removed), so this is a sanity bound, not a test
      // of the shuffle (fairness tests that)
      const z = (observed[key]! - n * p) / Math.sqrt(n * p * (1 - p));
      expect([key, Math.abs(z) < 4.5]).toEqual([key, true]);
    }
  });
});

describe('a whole shoe with every bet type on every coup', () => {
  it("the runner and settlement reconcile with the shoe's event counts, bet by bet, to the unit", () => {
    const limit = { min: 1, max: 1_000_000 };
    const sideBets = Object.fromEntries(SIDE_BET_TYPES.map((t) => [t, { limit }])) as SideBets;
    for (const bankerMode of [undefined, 'EZ', 'SUPER_6'] as const) {
      const config = tablePreset('full', { pairBets: true, sideBets, ...(bankerMode && { bankerMode }) });
      const sim = new ShoeSimulator(config, `whole shoe ${bankerMode}`, true);
      sim.playShoe();
      const coups = new ShoeRunner(config, Array.from(sim.order), sim.cutIndex).all().map((c) => c.result);
      // 100 on each bet (Banca, Empate, both pairs, every side bet) and, as a second position, 100 on Punto.
      const position: Bet[] = BET_TYPES.filter((t) => t !== 'PLAYER').map((type) => ({ type, amount: 100 }));
      const paid = new Map<string, number>();
      let commission = 0;
      for (const coup of coups) {
        for (const bets of [position, [{ type: 'PLAYER' as const, amount: 100 }]]) {
          const s = settle(config, bets, coup);
          commission += s.commission;
          for (const b of s.bets) paid.set(b.type, (paid.get(b.type) ?? 0) + b.payout);
        }
      }
      const e = countEvents(coups);
      const db = (d: typeof e.dragonBonusPlayer) =>
        200 * d.naturalWin +
        100 * d.naturalTie +
        3100 * d.margin[9] +
        1100 * d.margin[8] +
        700 * d.margin[7] +
        500 * d.margin[6] +
        300 * d.margin[5] +
        200 * d.margin[4];
      const bankerWins =
        bankerMode === 'EZ'
          ? 200 * (e.banker - e.dragon7) + 100 * e.dragon7
          : bankerMode === 'SUPER_6'
            ? 200 * (e.banker - e.bankerWinOn6) + 150 * e.bankerWinOn6
            : 195 * e.banker; // 5% of 100 is exactly 5
      expect(Object.fromEntries(paid)).toEqual({
        PLAYER: 200 * e.player + 100 * e.tie,
        BANKER: bankerWins + 100 * e.tie,
        TIE: 900 * e.tie,
        PLAYER_PAIR: 1200 * e.playerPair,
        BANKER_PAIR: 1200 * e.bankerPair,
        EITHER_PAIR: 600 * e.eitherPair,
        PERFECT_PAIR: 2600 * e.perfectPairOne + 20_100 * e.perfectPairBoth,
        DRAGON_BONUS_PLAYER: db(e.dragonBonusPlayer),
        DRAGON_BONUS_BANKER: db(e.dragonBonusBanker),
        DRAGON_7: 4100 * e.dragon7,
        PANDA_8: 2600 * e.panda8,
        SUPER_6: 1300 * e.bankerWinOn6,
        BIG: 154 * e.big,
        SMALL: 250 * e.small,
      });
      expect(commission).toBe(bankerMode ? 0 : 5 * e.banker);
      expect(e.small + e.big).toBe(coups.length);
    }
  });
});

/** Events counted coup by coup from the coup facts, the slow and obvious way. */
function countEvents(coups: CoupResult[]) {
  const margin = () => ({ 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0 });
  const e = {
    player: 0,
    banker: 0,
    tie: 0,
    natural: 0,
    dragonBonusPlayer: { naturalWin: 0, naturalTie: 0, margin: margin() },
    dragonBonusBanker: { naturalWin: 0, naturalTie: 0, margin: margin() },
    dragon7: 0,
    panda8: 0,
    bankerWinOn6: 0,
    small: 0,
    big: 0,
    playerPair: 0,
    bankerPair: 0,
    eitherPair: 0,
    perfectPairOne: 0,
    perfectPairBoth: 0,
  };
  for (const coup of coups) {
    const f = coupFacts(coup);
    e[f.winner === 'PLAYER' ? 'player' : f.winner === 'BANKER' ? 'banker' : 'tie']++;
    if (f.playerNatural || f.bankerNatural) e.natural++;
    if (f.winner === 'TIE' && f.playerNatural && f.bankerNatural) {
      e.dragonBonusPlayer.naturalTie++;
      e.dragonBonusBanker.naturalTie++;
    } else if (f.winner !== 'TIE') {
      const side = f.winner === 'PLAYER' ? e.dragonBonusPlayer : e.dragonBonusBanker;
      const m = Math.abs(f.playerTotal - f.bankerTotal);
      if (f.winner === 'PLAYER' ? f.playerNatural : f.bankerNatural) side.naturalWin++;
      else if (m >= 4) side.margin[m as 4]++;
    }
    if (f.winner === 'BANKER' && f.bankerThreeCards && f.bankerTotal === 7) e.dragon7++;
    if (f.winner === 'PLAYER' && f.playerThreeCards && f.playerTotal === 8) e.panda8++;
    if (f.winner === 'BANKER' && f.bankerTotal === 6) e.bankerWinOn6++;
    if (f.cards === 4) e.small++;
    else e.big++;
    if (f.playerPair) e.playerPair++;
    if (f.bankerPair) e.bankerPair++;
    if (f.playerPair || f.bankerPair) e.eitherPair++;
    const suited = Number(f.playerSuitedPair) + Number(f.bankerSuitedPair);
    if (suited === 1) e.perfectPairOne++;
    if (suited === 2) e.perfectPairBoth++;
  }
  return e;
}
