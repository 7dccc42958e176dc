import { CARDS_PER_DECK } from './cards';
import { assertComposition, type Composition, cardCount, rankCounts, valueCounts } from './composition';
import { DEFAULT_SIDE_BET_PAYS, type Pays, type TableConfig } from './config';
import { type CoupEvents, LEAF_KEYS, leafEvents, MARGINS, mapEvents, type PairEvents } from './events';
import { PAIR_PAYS, SUPER_6_BANKER_WIN_ON_6 } from './settlement';
import { BANKER_DRAWS, NO_THIRD } from './tableau';

/**
 * Exact counts over every ordered 6-card sequence that can leave the shoe (the published convention:
 * a coup that uses 4 or 5 cards is weighted by the ways to fill the unused places). For a full 8-deck
 * shoe: total 416·415·414·413·412·411 = 4,998,398,275,503,360. Every event of events.ts is counted.
 */
export interface ExactOdds extends CoupEvents<bigint> {
  cards: number;
  total: bigint;
}

/** Doubles hold integers exactly up to 2^53: the accumulators are flushed to BigInt before that. */
const EXACT_LIMIT = 2 ** 53;

/**
 * Enumerates by point value 0..9 with multiplicities (10^4 four-card prefixes, then at most 10×10
 * draws each), not by individual cards, so 8 decks take milliseconds. Each weight (prefix × draws) is an
 * exact double, added to its leaf (events.ts) in a double accumulator; the accumulators move to BigInt
 * before their sum could pass 2^53 (for at most 8 decks it never does: the total is below 2^53). The
 * pair events are card-level combinatorics of the first four places, counted apart.
 */
export function exactOdds(composition: Composition): ExactOdds {
  assertComposition(composition);
  const n = cardCount(composition);
  if (n < 6) throw new RangeError('exact odds need at least 6 cards in the shoe');
  const v = valueCounts(composition);
  const acc = new Float64Array(LEAF_KEYS);
  const leaves = new Array<bigint>(LEAF_KEYS).fill(0n);
  const flush = () => {
    for (let k = 0; k < LEAF_KEYS; k++) {
      if (acc[k] !== 0) {
        leaves[k]! += BigInt(acc[k]!);
        acc[k] = 0;
      }
    }
  };
  const rest = n - 4; // cards left after the first four
  const fill2 = rest * (rest - 1);
  // One prefix's weight must itself be exact: at most (largest value count)^4 × the ways to fill 2 places.
  if (Math.max(...v) ** 4 * fill2 >= EXACT_LIMIT)
    throw new RangeError('composition too large for exact odds');
  let budget = 0; // an upper bound of what the accumulators hold since the last flush
  for (let p1 = 0; p1 < 10; p1++) {
    const n1 = v[p1]!;
    if (n1 === 0) continue;
    v[p1]!--;
    for (let b1 = 0; b1 < 10; b1++) {
      const n2 = v[b1]!;
      if (n2 === 0) continue;
      v[b1]!--;
      for (let p2 = 0; p2 < 10; p2++) {
        const n3 = v[p2]!;
        if (n3 === 0) continue;
        v[p2]!--;
        for (let b2 = 0; b2 < 10; b2++) {
          const n4 = v[b2]!;
          if (n4 === 0) continue;
          v[b2]!--;
          const w = n1 * n2 * n3 * n4;
          if (budget + w * fill2 >= EXACT_LIMIT) {
            flush();
            budget = 0;
          }
          budget += w * fill2;
          const pt = (p1 + p2) % 10;
          const bt = (b1 + b2) % 10;
          // Leaf keys inlined (events.ts leafKey): Punto's total | Banca's << 4 | 256 Punto drew | 512 Banca drew.
          if (pt >= 8 || bt >= 8) {
            acc[pt | (bt << 4)]! += w * fill2;
          } else if (pt <= 5) {
            const row = bt * 11 + 1;
            for (let p3 = 0; p3 < 10; p3++) {
              const n5 = v[p3]!;
              if (n5 === 0) continue;
              let pt3 = pt + p3;
              if (pt3 >= 10) pt3 -= 10;
              if (BANKER_DRAWS[row + p3] === 1) {
                v[p3]!--;
                const w5 = w * n5;
                const base = pt3 | 768;
                for (let b3 = 0; b3 < 10; b3++) {
                  const n6 = v[b3]!;
                  if (n6 === 0) continue;
                  let bt3 = bt + b3;
                  if (bt3 >= 10) bt3 -= 10;
                  acc[base | (bt3 << 4)]! += w5 * n6;
                }
                v[p3]!++;
              } else {
                acc[pt3 | (bt << 4) | 256]! += w * n5 * (rest - 1);
              }
            }
          } else if (BANKER_DRAWS[bt * 11 + NO_THIRD + 1] === 1) {
            const w5 = w * (rest - 1);
            for (let b3 = 0; b3 < 10; b3++) {
              const n5 = v[b3]!;
              if (n5 === 0) continue;
              let bt3 = bt + b3;
              if (bt3 >= 10) bt3 -= 10;
              acc[pt | (bt3 << 4) | 512]! += w5 * n5;
            }
          } else {
            acc[pt | (bt << 4)]! += w * fill2;
          }
          v[b2]!++;
        }
        v[p2]!++;
      }
      v[b1]!++;
    }
    v[p1]!++;
  }
  flush();
  const events = leafEvents(leaves);
  return {
    cards: n,
    total: fallingFactorial(n, 6),
    ...events,
    ...pairEvents(composition, n),
  };
}

/**
 * Pair events by combinatorics of the first four places (Punto 1st and 3rd card, Banca 2nd and 4th),
 * times the ways to fill the other places. `groups` are counts of interchangeable cards: ranks for the
 * pair, card codes (rank and suit) for the perfect pair.
 */
function pairEvents(composition: Composition, n: number): PairEvents<bigint> {
  const fill4 = BigInt(n - 2) * BigInt(n - 3) * BigInt(n - 4) * BigInt(n - 5);
  const fill2 = BigInt(n - 4) * BigInt(n - 5);
  const count = (groups: readonly number[]) => {
    let one = 0n; // ordered ways for one hand's two places to hold a pair
    let square = 0n;
    let fourOfOne = 0n; // both hands' pairs from the same group
    for (const g of groups) {
      const a = BigInt(g) * BigInt(g - 1);
      one += a;
      square += a * a;
      fourOfOne += a * BigInt(g - 2) * BigInt(g - 3);
    }
    const single = one * fill4; // Punto's pair (Banca's alike, by symmetry)
    const both = (one * one - square + fourOfOne) * fill2;
    return { single, both };
  };
  const ranks = count(rankCounts(composition));
  const suited = count(composition.slice(0, CARDS_PER_DECK));
  return {
    playerPair: ranks.single,
    bankerPair: ranks.single,
    eitherPair: 2n * ranks.single - ranks.both,
    perfectPairOne: 2n * (suited.single - suited.both),
    perfectPairBoth: suited.both,
  };
}

const fallingFactorial = (n: number, k: number): bigint => {
  let out = 1n;
  for (let i = 0; i < k; i++) out *= BigInt(n - i);
  return out;
};

/** An exact fraction. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/** A fraction as a double (exact numerator and denominator, one rounding at the end). */
export const ratioToNumber = ({ num, den }: Ratio): number => {
  // Scale to keep 17+ significant digits before the single conversion.
  const scale = 10n ** 18n;
  const neg = num < 0n !== den < 0n;
  const a = num < 0n ? -num : num;
  const b = den < 0n ? -den : den;
  const value = Number((a * scale) / b) / 1e18;
  return neg ? -value : value;
};

/**
 * The house edge of a bet whose winning events pay `wins` (count, payout "win : per"), pushes `pushes`
 * and loses the rest: the house's expected gain per unit staked, exact.
 */
function edgeOf(total: bigint, wins: readonly [bigint, Pays][], pushes = 0n): Ratio {
  const den = wins.reduce((d, [, p]) => d * BigInt(p.per), 1n);
  let losses = total - pushes;
  let paid = 0n; // the player's winnings, in units of 1/den
  for (const [count, p] of wins) {
    losses -= count;
    paid += (count * BigInt(p.win) * den) / BigInt(p.per);
  }
  return { num: losses * den - paid, den: total * den };
}

/** House edges of every bet and Banca mode, keyed as `baccarat odds --json` prints them. */
export interface HouseEdges<T> {
  banker: T;
  player: T;
  tie: T;
  playerPair: T;
  bankerPair: T;
  eitherPair: T;
  perfectPair: T;
  dragonBonusPlayer: T;
  dragonBonusBanker: T;
  dragon7: T;
  panda8: T;
  /** the Banca bet of an EZ table: 1:1, push on a three-card 7 */
  ezBanker: T;
  /** the Banca bet of a Super 6 (no-commission) table: 1:1, a win on 6 pays 1:2 */
  noCommissionBanker: T;
  super6: T;
  big: T;
  small: T;
}

export type EdgeConfig = Pick<TableConfig, 'commission' | 'tiePays'> & Partial<Pick<TableConfig, 'sideBets'>>;

/**
 * House edge of each bet: the house's expected gain per unit staked, over all outcomes (ties included,
 * where Punto and Banca push). Banca (`banker`) is the commission Banca at the configured rate; the
 * side bets use the table's pay tables, or the defaults where the table does not set one. Exact rates:
 * the minor-unit rounding (commission up, fractional payouts down: the house keeps the fraction) adds
 * at most one unit per winning bet on top.
 */
export function houseEdgeExact(config: EdgeConfig, odds: ExactOdds): HouseEdges<Ratio> {
  const { total, banker, player, tie } = odds;
  const side = config.sideBets ?? {};
  const rate = BigInt(config.commission.rateBps);
  const even: Pays = { win: 1, per: 1 };
  const pair: Pays = { win: PAIR_PAYS, per: 1 };
  const perfect = side.PERFECT_PAIR ?? DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR;
  const dragon = (key: 'dragonBonusPlayer' | 'dragonBonusBanker') => {
    const table =
      (key === 'dragonBonusPlayer' ? side.DRAGON_BONUS_PLAYER : side.DRAGON_BONUS_BANKER) ??
      DEFAULT_SIDE_BET_PAYS.DRAGON_BONUS;
    const e = odds[key];
    return edgeOf(
      total,
      [[e.naturalWin, table.natural], ...MARGINS.map((m): [bigint, Pays] => [e.margin[m], table.margin[m]])],
      e.naturalTie,
    );
  };
  const pays = (bet: 'EITHER_PAIR' | 'DRAGON_7' | 'PANDA_8' | 'SUPER_6' | 'BIG' | 'SMALL') =>
    side[bet]?.pays ?? DEFAULT_SIDE_BET_PAYS[bet].pays;
  return {
    banker: { num: player * 10_000n - banker * (10_000n - rate), den: total * 10_000n },
    player: edgeOf(total, [[player, even]], tie),
    tie: edgeOf(total, [[tie, { win: config.tiePays, per: 1 }]]),
    playerPair: edgeOf(total, [[odds.playerPair, pair]]),
    bankerPair: edgeOf(total, [[odds.bankerPair, pair]]),
    eitherPair: edgeOf(total, [[odds.eitherPair, pays('EITHER_PAIR')]]),
    perfectPair: edgeOf(total, [
      [odds.perfectPairOne, perfect.pays],
      [odds.perfectPairBoth, perfect.paysBoth],
    ]),
    dragonBonusPlayer: dragon('dragonBonusPlayer'),
    dragonBonusBanker: dragon('dragonBonusBanker'),
    dragon7: edgeOf(total, [[odds.dragon7, pays('DRAGON_7')]]),
    panda8: edgeOf(total, [[odds.panda8, pays('PANDA_8')]]),
    ezBanker: edgeOf(total, [[banker - odds.dragon7, even]], tie + odds.dragon7),
    noCommissionBanker: edgeOf(
      total,
      [
        [banker - odds.bankerWinOn6, even],
        [odds.bankerWinOn6, SUPER_6_BANKER_WIN_ON_6],
      ],
      tie,
    ),
    super6: edgeOf(total, [[odds.bankerWinOn6, pays('SUPER_6')]]),
    big: edgeOf(total, [[odds.big, pays('BIG')]]),
    small: edgeOf(total, [[odds.small, pays('SMALL')]]),
  };
}

export function houseEdge(config: EdgeConfig, odds: ExactOdds): HouseEdges<number> {
  const exact = houseEdgeExact(config, odds);
  return Object.fromEntries(
    Object.entries(exact).map(([key, ratio]) => [key, ratioToNumber(ratio)]),
  ) as unknown as HouseEdges<number>;
}

/** Probability of each event, as doubles (same keys as the counts). */
export const probabilities = (odds: ExactOdds): CoupEvents<number> =>
  mapEvents(odds, (count) => ratioToNumber({ num: count, den: odds.total }));
