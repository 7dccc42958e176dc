/**
 * No position bias. Seeds are fixed, so these tests are deterministic; the thresholds are still the
 * honest quantiles of the statistic's distribution under a fair shuffle, so passing means something.
 *
 * Statistic. Count O[p][c] = how often category c landed at position p over N shoes, with expected
 * E = N/K under a uniform shuffle (K categories, n positions). Pearson's X = Σ (O − E)²/E. Because
 * every shoe puts exactly one card at each position and a fixed number of each category in the shoe,
 * the deviations live in the (n−1)(K−1)-dimensional space of tables with zero row and column sums, on
 * which the covariance of one shoe is isotropic (it is invariant under permuting positions and
 * categories, and that space is irreducible for the pair of symmetric groups). So, for large N,
 * X·(n−1)/n ~ χ² with (n−1)(K−1) degrees of freedom. Quantiles by Wilson–Hilferty (accurate to well
 * under 0.1% at these degrees of freedom).
 */

import { CARDS_PER_DECK } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import { drawCutIndex, ShoeStream, shufflePermutation, type U32Source, uniformInt } from '../src/index';

const Z_0_9999 = 3.719;

/** Wilson–Hilferty: the chi-square quantile for a normal quantile z. */
const chiSquareQuantile = (df: number, z: number) => {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
};

function positionStatistic(counts: Uint32Array, n: number, k: number, shoes: number) {
  const expected = shoes / k;
  let x = 0;
  for (const o of counts) x += (o - expected) ** 2 / expected;
  const df = (n - 1) * (k - 1);
  return {
    scaled: (x * (n - 1)) / n,
    df,
    upper: chiSquareQuantile(df, Z_0_9999),
    lower: chiSquareQuantile(df, -Z_0_9999),
  };
}

const seed = (i: number) => {
  const s = new Uint8Array(32);
  new DataView(s.buffer).setUint32(0, i + 1);
  return s;
};

function countPositions(
  shoes: number,
  n: number,
  k: number,
  categoryOf: (canonicalIndex: number) => number,
  shuffle: (source: U32Source, n: number) => Uint16Array,
) {
  const counts = new Uint32Array(n * k);
  for (let s = 0; s < shoes; s++) {
    const perm = shuffle(new ShoeStream(seed(s), 'statistics', `shoe-${s}`), n);
    for (let p = 0; p < n; p++) counts[p * k + categoryOf(perm[p]!)]!++;
  }
  return counts;
}

/** The classic wrong shuffle (swap with any index, not only those not yet placed): known to be biased. */
function naiveShuffle(source: U32Source, n: number): Uint16Array {
  const perm = Uint16Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n; i++) {
    const j = uniformInt(source, n);
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  return perm;
}

describe('position bias', () => {
  it('a single deck: every card is equally likely at every position (10 400 shuffles)', () => {
    const shoes = 10_400; // 200 expected per cell
    const stat = positionStatistic(
      countPositions(shoes, 52, 52, (i) => i, shufflePermutation),
      52,
      52,
      shoes,
    );
    expect(stat.df).toBe(2601);
    expect(stat.scaled).toBeLessThan(stat.upper);
    expect(stat.scaled).toBeGreaterThan(stat.lower);
  });

  it('the same test catches a biased shuffle, so it has the power to fail', () => {
    const shoes = 10_400;
    const stat = positionStatistic(
      countPositions(shoes, 52, 52, (i) => i, naiveShuffle),
      52,
      52,
      shoes,
    );
    expect(stat.scaled).toBeGreaterThan(stat.upper);
  });

  it('an 8-deck shoe: every card face is equally likely at every position (1 040 shoes)', () => {
    const shoes = 1040; // 20 expected per cell
    const n = 8 * CARDS_PER_DECK;
    const counts = countPositions(shoes, n, 52, (i) => i % CARDS_PER_DECK, shufflePermutation);
    const stat = positionStatistic(counts, n, 52, shoes);
    expect(stat.scaled).toBeLessThan(stat.upper);
    expect(stat.scaled).toBeGreaterThan(stat.lower);
  });

  it('the cut card is uniform over its bounds (5 000 draws)', () => {
    const draws = 5000;
    const bounds = { minCardsBehind: 14, maxCardsBehind: 63 }; // 50 possible positions, 100 expected each
    const counts = new Uint32Array(50);
    for (let s = 0; s < draws; s++) {
      const cut = drawCutIndex(new ShoeStream(seed(s), 'cut', 'shoe'), 416, bounds);
      counts[416 - bounds.minCardsBehind - cut]!++;
    }
    const expected = draws / 50;
    let x = 0;
    for (const o of counts) x += (o - expected) ** 2 / expected;
    expect(x).toBeLessThan(chiSquareQuantile(49, Z_0_9999));
    expect(x).toBeGreaterThan(chiSquareQuantile(49, -Z_0_9999));
  });
});
