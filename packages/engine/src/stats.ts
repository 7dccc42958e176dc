/**
 * Goodness of fit for the simulator: Pearson's chi-square against exact probabilities, with the
 * p-value from the regularized upper incomplete gamma function (Numerical Recipes §6.2).
 */
export interface ChiSquare {
  statistic: number;
  df: number;
  pValue: number;
}

export function chiSquare(observed: readonly number[], probabilities: readonly number[]): ChiSquare {
  if (observed.length !== probabilities.length || observed.length < 2) {
    throw new RangeError('chi-square needs matching observed counts and probabilities (2 or more)');
  }
  const n = observed.reduce((a, b) => a + b, 0);
  let statistic = 0;
  for (let i = 0; i < observed.length; i++) {
    const expected = n * probabilities[i]!;
    if (expected <= 0) throw new RangeError('every category needs a positive expected count');
    statistic += (observed[i]! - expected) ** 2 / expected;
  }
  const df = observed.length - 1;
  return { statistic, df, pValue: chiSquareSurvival(statistic, df) };
}

/** P(X >= x) for X ~ chi-square(df). */
export const chiSquareSurvival = (x: number, df: number): number => (x <= 0 ? 1 : gammaQ(df / 2, x / 2));

function gammaQ(a: number, x: number): number {
  if (x < a + 1) return 1 - gammaSeries(a, x);
  return gammaContinuedFraction(a, x);
}

const EPS = 1e-15;
const FPMIN = 1e-300;

function gammaSeries(a: number, x: number): number {
  let ap = a;
  let sum = 1 / a;
  let del = sum;
  for (let n = 0; n < 10_000; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

// Lanczos approximation (g = 7, n = 9), accurate to ~15 digits for a > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let a = LANCZOS[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}
