/**
 * Whole pyb-shoe/3 shoes for the statistics: the cards in the order they leave the shoe (the burn,
 * then coups and dealer-error burns until the cut card ends it), with the draw's `pick` replaceable so
 * a deliberately biased draw runs through the very same path. With `uniformIndex` it is exactly what
 * startShoeV3 / drawCoupV3 / burnV3 deal (draw-statistics.test.ts checks that), and the position
 * statistic with its null distribution.
 */
import { CARDS_PER_DECK, type Card } from '@pyb/engine';
import {
  bytesToHex,
  commitmentOf,
  coupFrom,
  type DrawBeacon,
  FieldStream,
  type IndexDraw,
  openFields,
  type ShoeInputsV3,
  type ShoeStateV3,
  type ShoeStepV3,
  startFrom,
  stepFields,
  type U32Source,
} from '../src/index';

export const seedOf = (i: number): Uint8Array => {
  const s = new Uint8Array(32);
  new DataView(s.buffer).setUint32(0, i + 1);
  return s;
};

/** Shoe `i`'s inputs: its own server seed, a fixed entropy, 1 dealer-error burn every 10 steps. */
export function shoeInputs(i: number, decks: number, min: number, max: number): ShoeInputsV3 {
  return {
    serverSeed: seedOf(i),
    entropy: 'e'.repeat(64),
    shoeId: `stat-${i}`,
    decks,
    cutCard: { minCardsBehind: min, maxCardsBehind: max },
    afterCutCard: 'FINISH_COUP',
  };
}

export function stepOf(shoe: number, k: number): ShoeStepV3 {
  const randomness = new Uint8Array(32);
  const view = new DataView(randomness.buffer);
  view.setUint32(0, shoe);
  view.setUint32(4, k);
  const beacon: DrawBeacon = { round: 1000 + k, randomness: bytesToHex(randomness) };
  return { kind: k % 10 === 9 ? 'BURN' : 'COUP', beacon };
}

/** Every card out of shoe `i`, in order, drawn with `pickOf(stream)`. */
export function shoeCards(
  i: number,
  inputs: ShoeInputsV3,
  pickOf: (source: U32Source) => IndexDraw,
  startOnly = false,
): Card[] {
  const { serverSeed, ...rest } = inputs;
  let state: ShoeStateV3 = startFrom(
    rest,
    commitmentOf(serverSeed),
    pickOf(new FieldStream(serverSeed, openFields(inputs.entropy, inputs.shoeId))),
  );
  const cards: Card[] = [state.burn.shown, ...state.burn.cards];
  if (startOnly) return cards;
  for (let k = 0; !state.finished; k++) {
    const step = stepOf(i, k);
    const kind = step.kind === 'COUP' ? 'coup' : 'burn';
    const fields = stepFields(kind, state.entropy, state.shoeId, state.coups, state.cursor, step.beacon);
    const dealt = coupFrom(state, pickOf(new FieldStream(serverSeed, fields)));
    cards.push(...dealt.cards);
    state = kind === 'coup' ? dealt.state : { ...dealt.state, coups: state.coups };
  }
  return cards;
}

/** Wilson–Hilferty: the chi-square quantile for a normal quantile z. */
export const chiSquareQuantile = (df: number, z: number) => {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
};

/**
 * Pearson's X over positions 0..n−1 × the 52 card faces, for N shoes of T cards (every face has T/52
 * copies), E = N/52 per cell. Each shoe's table of indicators has covariance
 * (T/(T−1)) P₅₂ ⊗ (I − J/T)/52 (J: all ones over positions; P₅₂: the centring projection), so for large N
 *   X ≈ (T/(T−1))·χ²((n−1)·51) + ((T−n)/(T−1))·χ²(51)
 * (for n = T this is statistics.test.ts's X·(T−1)/T ~ χ²((T−1)·51); for n = 1, χ²(51)). The bounds
 * match that sum's mean and variance with one scaled χ² (Satterthwaite) and take its quantiles at
 * z = ±3.719 (two-sided 2·10⁻⁴).
 */
export function positionStatistic(shoes: readonly Card[][], n: number, total: number) {
  const k = CARDS_PER_DECK;
  const counts = new Uint32Array(n * k);
  for (const cards of shoes) for (let p = 0; p < n; p++) counts[p * k + cards[p]!]!++;
  const expected = shoes.length / k;
  let x = 0;
  for (const o of counts) x += (o - expected) ** 2 / expected;
  const [a, d1] = [total / (total - 1), (n - 1) * (k - 1)];
  const [b, d2] = [(total - n) / (total - 1), k - 1];
  const mean = a * d1 + b * d2;
  const variance = 2 * (a * a * d1 + b * b * d2);
  const scale = variance / (2 * mean);
  const df = (2 * mean * mean) / variance;
  return {
    x,
    mean,
    lower: scale * chiSquareQuantile(df, -3.719),
    upper: scale * chiSquareQuantile(df, 3.719),
  };
}
