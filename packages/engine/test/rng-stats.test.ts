import { describe, expect, it } from 'vitest';
import { shuffleInPlace, Xoshiro128 } from '../src/rng';
import { chiSquare, chiSquareSurvival } from '../src/stats';

describe('xoshiro128** (simulation only)', () => {
  it('matches the reference outputs from state 1,2,3,4', () => {
    const rng = Xoshiro128.fromState(1, 2, 3, 4);
    expect([rng.nextU32(), rng.nextU32(), rng.nextU32()]).toEqual([11520, 0, 5927040]);
  });

  it('is deterministic per seed; numbers and strings seed alike', () => {
    const draw = (seed: string | number) => {
      const rng = new Xoshiro128(seed);
      return Array.from({ length: 8 }, () => rng.nextU32());
    };
    expect(draw('42')).toEqual(draw(42));
    expect(draw('42')).not.toEqual(draw('43'));
  });

  it('below(n) stays in range and is roughly uniform; shuffle is a permutation', () => {
    const rng = new Xoshiro128('uniform');
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[rng.below(7)]!++;
    expect(chiSquare(counts, new Array(7).fill(1 / 7)).pValue).toBeGreaterThan(1e-6);
    expect(rng.below(1)).toBe(0);
    const big = rng.below(3_000_000_000);
    expect(big).toBeGreaterThanOrEqual(0);
    expect(big).toBeLessThan(3_000_000_000);
    const cards = Uint8Array.from({ length: 416 }, (_, i) => i % 52);
    shuffleInPlace(cards, rng);
    expect(Array.from(cards).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 416 }, (_, i) => Math.floor(i / 8)),
    );
  });
});

describe('chi-square', () => {
  it('survival function matches known critical values', () => {
    expect(chiSquareSurvival(3.841459, 1)).toBeCloseTo(0.05, 6);
    expect(chiSquareSurvival(5.991465, 2)).toBeCloseTo(0.05, 6);
    expect(chiSquareSurvival(4, 2)).toBeCloseTo(Math.exp(-2), 12); // df 2: exp(-x/2)
    expect(chiSquareSurvival(18.307038, 10)).toBeCloseTo(0.05, 6);
    expect(chiSquareSurvival(0, 3)).toBe(1);
  });

  it('statistic and degrees of freedom', () => {
    const r = chiSquare([50, 30, 20], [0.5, 0.3, 0.2]);
    expect(r).toEqual({ statistic: 0, df: 2, pValue: 1 });
    expect(chiSquare([60, 20, 20], [0.5, 0.3, 0.2]).statistic).toBeCloseTo(2 + 100 / 30, 10);
  });
});
