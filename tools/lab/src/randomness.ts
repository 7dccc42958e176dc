/**
 * The statistical tests the technical standards name for an RNG, applied to what the RNG decides
 * here: the order of the cards in a shoe (docs/rng.md). AGCO's RNG standards ask for statistics within
 * the 99% confidence interval for "frequency test, runs test and serial correlation test", chosen "to
 * match the grouping of random numbers to form Game outcomes" — for baccarat, the card at each
 * position of the shoe and the sequence of cards as dealt.
 *
 * Pure and streaming: `add()` one dealt order at a time (cards 0..51, first card out first), so a
 * lab sample of millions of shoes needs no memory beyond the counters. Every test's null
 * distribution is the exact one of a uniformly shuffled shoe of fixed composition (a random
 * permutation), not that of independent draws: cards are dealt without replacement.
 *
 * Tests (each two-sided at the given level, 1% by default):
 * - `frequency`: Pearson χ² of the card face at each position over all shoes (K = 52 faces). Three
 *   verdicts: the whole table (scaled by (n−1)/n for the permutation constraint, χ² with (n−1)(K−1)
 *   df, as packages/fairness/test/statistics.test.ts derives), how many positions fail on their own
 *   (Binomial(n, α) upper tail), and the worst single position (Bonferroni).
 * - `runs`: Wald–Wolfowitz runs test on each shoe, for two dichotomies of the dealt sequence (red vs
 *   black; point value 5..9 vs 0..4). For a random permutation of n1 + n2 marked items the number of
 *   runs has mean 2·n1·n2/n + 1 and variance 2·n1·n2·(2·n1·n2 − n)/(n²·(n − 1)) exactly; the shoes'
 *   standardised run counts are summed: Z = Σz/√N ~ N(0, 1).
 * - `serial`: lag-1 circular serial correlation of point values within each shoe, standardised with
 *   the exact permutation moments of Wald & Wolfowitz (1943); Z = Σz/√N.
 * - `inter-shoe`: correlation of point values position by position between consecutive shoes (each
 *   shoe must be independent of the previous one). For two independent permutations the correlation
 *   has mean 0 and variance 1/(n − 1) exactly; z = ρ·√(n − 1), Z = Σz/√(N − 1).
 */
import { CARDS_PER_DECK, chiSquareSurvival, POINT_VALUES } from '@pyb/engine';

/** The standards' level: statistics must lie within the 99% confidence interval. */
export const STANDARD_ALPHA = 0.01;

export interface RandomnessVerdict {
  /** Stable name, e.g. `frequency.table`, `runs.colour`. */
  test: string;
  /** What it checks, in words. */
  description: string;
  statistic: number;
  /** The statistic's distribution when the shuffle is fair, e.g. `chi2(21165)`, `N(0,1)`. */
  distribution: string;
  /** Two-sided p-value (probability of a statistic at least this far from its mean under H0). */
  pValue: number;
  alpha: number;
  pass: boolean;
}

/** Two-sided p-value of a standard normal z: P(|Z| ≥ |z|) = P(χ²(1) ≥ z²). */
export const normalTwoSided = (z: number): number => chiSquareSurvival(z * z, 1);

/** Two-sided p-value of a χ² statistic: twice the smaller tail, at most 1. */
export const chiSquareTwoSided = (x: number, df: number): number => {
  const upper = chiSquareSurvival(x, df);
  return Math.min(1, 2 * Math.min(upper, 1 - upper));
};

/** P(X ≥ k) for X ~ Binomial(n, p), summed exactly in log space. */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  const logChoose = (m: number): number => lnFactorial(n) - lnFactorial(m) - lnFactorial(n - m);
  let total = 0;
  for (let m = k; m <= n; m++) total += Math.exp(logChoose(m) + m * Math.log(p) + (n - m) * Math.log1p(-p));
  return Math.min(1, total);
}

const lnFactorialCache: number[] = [0];
function lnFactorial(m: number): number {
  for (let i = lnFactorialCache.length; i <= m; i++)
    lnFactorialCache[i] = lnFactorialCache[i - 1]! + Math.log(i);
  return lnFactorialCache[m]!;
}

/** Wald–Wolfowitz: number of runs in a 0/1 sequence, with its exact mean and variance. */
export function runsStatistic(marks: ArrayLike<number>): { runs: number; mean: number; variance: number } {
  const n = marks.length;
  let n1 = 0;
  let runs = n > 0 ? 1 : 0;
  for (let i = 0; i < n; i++) {
    if (marks[i]) n1++;
    if (i > 0 && marks[i] !== marks[i - 1]) runs++;
  }
  const n2 = n - n1;
  const mean = (2 * n1 * n2) / n + 1;
  const variance = (2 * n1 * n2 * (2 * n1 * n2 - n)) / (n * n * (n - 1));
  return { runs, mean, variance };
}

/**
 * Circular lag-1 serial product R = Σ x[i]·x[(i+1) mod n], with its exact mean and variance over all
 * orderings of the same values (Wald & Wolfowitz 1943; checked against full enumeration in the tests).
 */
export function serialStatistic(values: ArrayLike<number>): { r: number; mean: number; variance: number } {
  const n = values.length;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let r = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    s1 += x;
    s2 += x * x;
    s3 += x * x * x;
    s4 += x * x * x * x;
    r += x * values[(i + 1) % n]!;
  }
  const mean = (s1 * s1 - s2) / (n - 1);
  const variance =
    (s2 * s2 - s4) / (n - 1) +
    (s1 ** 4 - 4 * s1 * s1 * s2 + 4 * s1 * s3 + s2 * s2 - 2 * s4) / ((n - 1) * (n - 2)) -
    mean * mean;
  return { r, mean, variance };
}

/** Pearson correlation of two equally long sequences (0 when either is constant). */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** Red (hearts, diamonds) = 1: suits are S H D C, card = suit·13 + rank. */
const isRed = (card: number): number => {
  const suit = Math.floor(card / 13);
  return suit === 1 || suit === 2 ? 1 : 0;
};
/** Point value 5..9 = 1, 0..4 = 0. */
const isHigh = (card: number): number => (POINT_VALUES[card]! >= 5 ? 1 : 0);

class ZSum {
  sum = 0;
  count = 0;
  add(z: number): void {
    if (Number.isFinite(z)) {
      this.sum += z;
      this.count++;
    }
  }
  get z(): number {
    return this.count === 0 ? 0 : this.sum / Math.sqrt(this.count);
  }
}

/** Accumulates the standards' tests over shoes of one size (every shoe dealt in full). */
export class ShoeRandomnessTests {
  /** counts[position · 52 + face] */
  private readonly counts: Float64Array;
  private readonly marks: { colour: Uint8Array; high: Uint8Array };
  private readonly values: Float64Array;
  private previous: Float64Array | undefined;
  private readonly runs = { colour: new ZSum(), high: new ZSum() };
  private readonly serial = new ZSum();
  private readonly interShoe = new ZSum();
  shoes = 0;

  constructor(readonly positions: number) {
    if (!Number.isInteger(positions) || positions < 4) throw new RangeError('a shoe needs at least 4 cards');
    this.counts = new Float64Array(positions * CARDS_PER_DECK);
    this.marks = { colour: new Uint8Array(positions), high: new Uint8Array(positions) };
    this.values = new Float64Array(positions);
  }

  /** One shoe: its cards (0..51) in the order they leave the shoe. */
  add(order: ArrayLike<number>): void {
    const n = this.positions;
    if (order.length !== n) throw new RangeError(`expected ${n} cards, got ${order.length}`);
    for (let p = 0; p < n; p++) {
      const card = order[p]!;
      if (!Number.isInteger(card) || card < 0 || card >= CARDS_PER_DECK)
        throw new RangeError(`not a card: ${card}`);
      this.counts[p * CARDS_PER_DECK + card]!++;
      this.marks.colour[p] = isRed(card);
      this.marks.high[p] = isHigh(card);
      this.values[p] = POINT_VALUES[card]!;
    }
    for (const kind of ['colour', 'high'] as const) {
      const { runs, mean, variance } = runsStatistic(this.marks[kind]);
      this.runs[kind].add((runs - mean) / Math.sqrt(variance));
    }
    const s = serialStatistic(this.values);
    this.serial.add((s.r - s.mean) / Math.sqrt(s.variance));
    if (this.previous) this.interShoe.add(correlation(this.previous, this.values) * Math.sqrt(n - 1));
    this.previous = Float64Array.from(this.values);
    this.shoes++;
  }

  /** The verdicts at level `alpha` (two-sided). Needs at least two shoes. */
  results(alpha = STANDARD_ALPHA): RandomnessVerdict[] {
    if (this.shoes < 2) throw new RangeError('the tests need at least two shoes');
    const n = this.positions;
    const k = CARDS_PER_DECK;
    const expected = this.shoes / k;
    let table = 0;
    let failing = 0;
    let worst = 1;
    for (let p = 0; p < n; p++) {
      let x = 0;
      for (let c = 0; c < k; c++) x += (this.counts[p * k + c]! - expected) ** 2 / expected;
      table += x;
      const pValue = chiSquareTwoSided(x, k - 1);
      if (pValue < alpha) failing++;
      worst = Math.min(worst, pValue);
    }
    const tableDf = (n - 1) * (k - 1);
    const scaled = (table * (n - 1)) / n;
    const verdict = (
      test: string,
      description: string,
      statistic: number,
      distribution: string,
      pValue: number,
    ): RandomnessVerdict => ({
      test,
      description,
      statistic,
      distribution,
      pValue,
      alpha,
      pass: pValue >= alpha,
    });
    const z = (test: string, description: string, sum: ZSum) =>
      verdict(test, description, sum.z, 'N(0,1)', normalTwoSided(sum.z));
    return [
      verdict(
        'frequency.table',
        `every card face equally likely at every one of the ${n} positions (Pearson χ² over ${this.shoes} shoes, scaled by (n−1)/n)`,
        scaled,
        `chi2(${tableDf})`,
        chiSquareTwoSided(scaled, tableDf),
      ),
      verdict(
        'frequency.positions',
        `positions whose own χ²(${k - 1}) test fails at ${alpha}: ${failing} of ${n}`,
        failing,
        `Binomial(${n}, ${alpha})`,
        binomialUpperTail(failing, n, alpha),
      ),
      verdict(
        'frequency.worst-position',
        `the most extreme single position, Bonferroni-corrected for ${n} positions`,
        worst,
        'min p',
        Math.min(1, worst * n),
      ),
      z('runs.colour', 'Wald–Wolfowitz runs of red/black in each shoe', this.runs.colour),
      z('runs.high-low', 'Wald–Wolfowitz runs of point value 5–9 / 0–4 in each shoe', this.runs.high),
      z('serial.lag-1', 'lag-1 circular serial correlation of point values in each shoe', this.serial),
      z(
        'serial.inter-shoe',
        'correlation of point values position by position between consecutive shoes',
        this.interShoe,
      ),
    ];
  }
}
