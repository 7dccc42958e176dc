/**
 * The standards' RNG tests (src/randomness.ts): their null moments checked against full enumeration,
 * the production shuffle passing them with FIXED seeds (deterministic: no flakes), and deliberately
 * broken shuffles failing them, so a pass means something.
 */
import { CARDS_PER_DECK } from '@pyb/engine';
import { ShoeStream, shufflePermutation, type U32Source, uniformInt } from '@pyb/fairness';
import { describe, expect, it } from 'vitest';
import {
  binomialUpperTail,
  correlation,
  normalTwoSided,
  runsStatistic,
  ShoeRandomnessTests,
  serialStatistic,
} from '../src/randomness';

/** Every ordering of `values` (with repeats, as a shoe has). */
function* permutations(values: number[]): Generator<number[]> {
  if (values.length <= 1) {
    yield values;
    return;
  }
  for (let i = 0; i < values.length; i++) {
    const rest = [...values.slice(0, i), ...values.slice(i + 1)];
    for (const p of permutations(rest)) yield [values[i]!, ...p];
  }
}

const moments = (xs: number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, variance: xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length };
};

describe('null distributions (exact, by full enumeration)', () => {
  it('serial: the Wald–Wolfowitz mean and variance of the circular lag-1 product', () => {
    for (const values of [
      [0, 0, 1, 2, 2, 5],
      [0, 0, 0, 9, 9, 7, 3],
      [1, 2, 3, 4, 5, 6, 7],
    ]) {
      const rs = [...permutations(values)].map((p) => serialStatistic(p).r);
      const exact = moments(rs);
      const formula = serialStatistic(values);
      expect(formula.mean).toBeCloseTo(exact.mean, 9);
      expect(formula.variance).toBeCloseTo(exact.variance, 9);
    }
  });

  it('runs: the Wald–Wolfowitz mean and variance of the number of runs', () => {
    for (const marks of [
      [0, 0, 0, 0, 1, 1, 1, 1],
      [0, 0, 1, 1, 1, 1, 1],
    ]) {
      const counts = [...permutations(marks)].map((p) => runsStatistic(p).runs);
      const exact = moments(counts);
      const formula = runsStatistic(marks);
      expect(formula.mean).toBeCloseTo(exact.mean, 9);
      expect(formula.variance).toBeCloseTo(exact.variance, 9);
    }
  });

  it('inter-shoe: the correlation with a random ordering has mean 0 and variance 1/(n−1)', () => {
    const x = [0, 0, 1, 2, 2, 5];
    const rhos = [...permutations([3, 0, 0, 9, 1, 1])].map((y) => correlation(x, y));
    const exact = moments(rhos);
    expect(exact.mean).toBeCloseTo(0, 12);
    expect(exact.variance).toBeCloseTo(1 / (x.length - 1), 12);
  });

  it('p-values: normal two-sided and binomial tail', () => {
    expect(normalTwoSided(2.5758293035489)).toBeCloseTo(0.01, 6);
    expect(normalTwoSided(0)).toBe(1);
    expect(binomialUpperTail(0, 10, 0.5)).toBe(1);
    expect(binomialUpperTail(10, 10, 0.5)).toBeCloseTo(1 / 1024, 12);
    expect(binomialUpperTail(9, 10, 0.5)).toBeCloseTo(11 / 1024, 12);
  });
});

const seed = (i: number) => {
  const s = new Uint8Array(32);
  new DataView(s.buffer).setUint32(0, i + 1);
  new DataView(s.buffer).setUint32(28, 0x5eed);
  return s;
};

type Shuffle = (source: U32Source, total: number, shoe: number) => Uint16Array;

/** Runs the tests over `shoes` shoes of `decks` decks, each shuffled from its own fixed seed. */
function run(shuffle: Shuffle, shoes: number, decks = 8) {
  const total = decks * CARDS_PER_DECK;
  const tests = new ShoeRandomnessTests(total);
  const order = new Uint8Array(total);
  for (let s = 0; s < shoes; s++) {
    const perm = shuffle(new ShoeStream(seed(s), 'randomness', `shoe-${s}`), total, s);
    for (let p = 0; p < total; p++) order[p] = perm[p]! % CARDS_PER_DECK;
    tests.add(order);
  }
  return Object.fromEntries(tests.results().map((v) => [v.test, v]));
}

/** Fisher–Yates with `j = (u32 >>> (32 − bits)) mod (i + 1)`: the modulo bias rejection sampling removes. */
const moduloBiased =
  (bits: number): Shuffle =>
  (source, total) => {
    const perm = Uint16Array.from({ length: total }, (_, i) => i);
    for (let i = total - 1; i >= 1; i--) {
      const j = (source.nextU32() >>> (32 - bits)) % (i + 1);
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
    }
    return perm;
  };

/** A few riffle shuffles (Gilbert–Shannon–Reeds) of the canonical order: far from mixed. */
const riffles =
  (passes: number): Shuffle =>
  (source, total) => {
    let deck = Array.from({ length: total }, (_, i) => i);
    for (let pass = 0; pass < passes; pass++) {
      let cut = 0;
      for (let i = 0; i < total; i++) cut += source.nextU32() & 1;
      const left = deck.slice(0, cut);
      const right = deck.slice(cut);
      const out: number[] = [];
      while (left.length + right.length > 0) {
        const takeLeft = uniformInt(source, left.length + right.length) < left.length;
        out.push((takeLeft ? left : right).shift()!);
      }
      deck = out;
    }
    return Uint16Array.from(deck);
  };

/** Each shoe is the previous one with a few swaps: every shoe alone looks shuffled, but shoes are not independent. */
const sticky = (swaps: number): Shuffle => {
  let previous: Uint16Array | undefined;
  return (source, total) => {
    const perm = previous ? Uint16Array.from(previous) : shufflePermutation(source, total);
    if (previous) {
      for (let k = 0; k < swaps; k++) {
        const i = uniformInt(source, total);
        const j = uniformInt(source, total);
        [perm[i], perm[j]] = [perm[j]!, perm[i]!];
      }
    }
    previous = perm;
    return perm;
  };
};

describe('the production shuffle (HMAC-SHA256 stream, rejection sampling, Fisher–Yates), fixed seeds', () => {
  it('passes every test at 99% over 2 600 eight-deck shoes', () => {
    const verdicts = run(shufflePermutation, 2600);
    for (const v of Object.values(verdicts))
      expect({ test: v.test, pass: v.pass }).toEqual({ test: v.test, pass: true });
    expect(verdicts['frequency.table']!.distribution).toBe(`chi2(${415 * 51})`);
  });
});

describe('each test rejects a broken shuffle (its power)', () => {
  it('frequency: a Fisher–Yates drawing one byte taken modulo i + 1 (biased, and short of 416)', () => {
    // A subtler 10- or 12-bit modulo bias is below what 2 600 shoes can see at the card-face level;
    // the eight copies of each face average it out. Rejection sampling (stream.ts) has none at all.
    const verdicts = run(moduloBiased(8), 2600);
    expect(verdicts['frequency.table']!.pass).toBe(false);
    expect(verdicts['frequency.table']!.pValue).toBeLessThan(1e-6);
  });

  it('runs and serial correlation: three riffle shuffles of a new shoe', () => {
    const verdicts = run(riffles(3), 400);
    expect(verdicts['runs.colour']!.pass).toBe(false);
    expect(verdicts['serial.lag-1']!.pass).toBe(false);
  });

  it('inter-shoe correlation: each shoe is the last one with 40 swaps', () => {
    const verdicts = run(sticky(40), 400);
    expect(verdicts['serial.inter-shoe']!.pass).toBe(false);
    expect(verdicts['serial.inter-shoe']!.pValue).toBeLessThan(1e-6);
  });
});
