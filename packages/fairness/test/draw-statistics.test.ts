/**
 * pyb-shoe/3 has no position bias, statistically (docs/provably-fair.md §15.7): χ² over whole shoes
 * dealt coup by coup — the burn, coups and dealer-error burns, each from its own round's stream — of
 * the first card and of every card position every shoe reaches. Seeds are fixed (deterministic); the
 * bounds are the honest quantiles of the statistic under a fair draw (v3-shoes.ts), and the same test
 * fails a draw off by one in its range, so passing means something.
 */
import { formatCard } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import { replayShoeV3, type U32Source, uniformIndex, uniformInt } from '../src/index';
import { positionStatistic, shoeCards, shoeInputs, stepOf } from './v3-shoes';

/** The off-by-one: j = uniform(n − 1), so the last card listed (highest code left) is never drawn while others are left. */
const offByOne = (source: U32Source) => (n: number) => (n > 1 ? uniformInt(source, n - 1) : 0);

const shoes = (
  count: number,
  decks: number,
  min: number,
  max: number,
  pickOf = uniformIndex,
  startOnly = false,
) => Array.from({ length: count }, (_, i) => shoeCards(i, shoeInputs(i, decks, min, max), pickOf, startOnly));

describe('pyb-shoe/3: position bias (χ²)', () => {
  it('the statistics deal exactly what startShoeV3, drawCoupV3 and burnV3 deal', () => {
    for (const i of [0, 1, 2]) {
      const inputs = shoeInputs(i, 8, 14, 20);
      const cards = shoeCards(i, inputs, uniformIndex);
      const steps = [];
      for (let k = 0; !(steps.length && replayShoeV3(inputs, steps).state.finished); k++)
        steps.push(stepOf(i, k));
      const replay = replayShoeV3(inputs, steps);
      const dealt = [
        replay.start.burn.shown,
        ...replay.start.burn.cards,
        ...replay.steps.flatMap((s) => s.cards),
      ];
      expect(cards.map(formatCard)).toEqual(dealt.map(formatCard));
      expect(replay.steps.some((s) => s.kind === 'BURN')).toBe(true);
    }
  });

  it('the first card (one deck, 10 400 shoes): every card equally likely; off by one fails', () => {
    const fair = positionStatistic(shoes(10_400, 1, 7, 7, uniformIndex, true), 1, 52);
    expect(fair.x).toBeGreaterThan(fair.lower);
    expect(fair.x).toBeLessThan(fair.upper);
    const biased = positionStatistic(shoes(10_400, 1, 7, 7, offByOne, true), 1, 52);
    expect(biased.x).toBeGreaterThan(biased.upper);
  });

  it('the first card (8 decks, 20 800 shoes): every face equally likely', () => {
    // No power claim here against the off-by-one: with 8 copies it shifts one face by 1/8 (KC 7/415
    // instead of 8/416), which 400 expected per face cannot see; one deck, above, makes it a whole card.
    const fair = positionStatistic(shoes(20_800, 8, 14, 20, uniformIndex, true), 1, 416);
    expect(fair.x).toBeGreaterThan(fair.lower);
    expect(fair.x).toBeLessThan(fair.upper);
  });

  it('one deck, every position up to the cut card (46 positions × 52 cards, 5 200 shoes); off by one fails', () => {
    // 7 cards behind: every shoe deals at least cards 0..45
    const all = shoes(5200, 1, 7, 7);
    expect(Math.min(...all.map((c) => c.length))).toBeGreaterThanOrEqual(46);
    const fair = positionStatistic(all, 46, 52);
    expect(fair.x).toBeGreaterThan(fair.lower);
    expect(fair.x).toBeLessThan(fair.upper);
    const biased = positionStatistic(shoes(5200, 1, 7, 7, offByOne), 46, 52);
    expect(biased.x).toBeGreaterThan(biased.upper);
  });

  it('8 decks, every position up to the cut card (397 positions × 52 faces, 1 040 shoes)', () => {
    // 20 cards behind at most: every shoe deals at least cards 0..396. As for the first card, this
    // size sees a whole-card bias (one deck, above), not one copy in eight.
    const fair = positionStatistic(shoes(1040, 8, 14, 20), 397, 416);
    expect(fair.x).toBeGreaterThan(fair.lower);
    expect(fair.x).toBeLessThan(fair.upper);
  });
});
