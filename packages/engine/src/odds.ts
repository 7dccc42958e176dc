import { assertComposition, type Composition, cardCount, valueCounts } from './composition';
import type { BetType, TableConfig } from './config';
import { PAIR_PAYS } from './settlement';
import { BANKER_DRAWS, NO_THIRD } from './tableau';

/**
 * Exact counts over every ordered 6-card sequence that can leave the shoe (the published convention:
 * a coup that uses 4 or 5 cards is weighted by the ways to fill the unused places). For a full 8-deck
 * shoe: total 416·415·414·413·412·411 = 4,998,398,275,503,360.
 */
export interface ExactOdds {
  cards: number;
  total: bigint;
  banker: bigint;
  player: bigint;
  tie: bigint;
  /** a natural (8 or 9) on either hand's first two cards */
  natural: bigint;
  /** Punto's first two cards share a rank (same count for Banca's pair, by symmetry of the deal) */
  playerPair: bigint;
  bankerPair: bigint;
}

const OUT_PLAYER = 0;
const OUT_BANKER = 1;
const OUT_TIE = 2;
const outcome = (pt: number, bt: number): number => (pt > bt ? OUT_PLAYER : bt > pt ? OUT_BANKER : OUT_TIE);

/**
 * Enumerates by point value 0..9 with multiplicities (10^4 four-card prefixes, then at most 10×10
 * draws each), not by individual cards, so 8 decks take milliseconds. Each prefix's draws are summed
 * exactly in doubles (at most N² each) and multiplied into BigInt totals once per prefix.
 */
export function exactOdds(composition: Composition): ExactOdds {
  assertComposition(composition);
  const n = cardCount(composition);
  if (n < 6) throw new RangeError('exact odds need at least 6 cards in the shoe');
  const v = valueCounts(composition);
  const totals = [0n, 0n, 0n];
  let natural = 0n;
  const inner = [0, 0, 0];
  const rest = n - 4; // cards left after the first four
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
          inner[0] = inner[1] = inner[2] = 0;
          const pt = (p1 + p2) % 10;
          const bt = (b1 + b2) % 10;
          if (pt >= 8 || bt >= 8) {
            inner[outcome(pt, bt)]! += rest * (rest - 1);
          } else if (pt <= 5) {
            for (let p3 = 0; p3 < 10; p3++) {
              const n5 = v[p3]!;
              if (n5 === 0) continue;
              const pt3 = (pt + p3) % 10;
              if (BANKER_DRAWS[bt * 11 + p3 + 1] === 1) {
                v[p3]!--;
                for (let b3 = 0; b3 < 10; b3++) {
                  const n6 = v[b3]!;
                  if (n6 !== 0) inner[outcome(pt3, (bt + b3) % 10)]! += n5 * n6;
                }
                v[p3]!++;
              } else {
                inner[outcome(pt3, bt)]! += n5 * (rest - 1);
              }
            }
          } else if (BANKER_DRAWS[bt * 11 + NO_THIRD + 1] === 1) {
            for (let b3 = 0; b3 < 10; b3++) {
              const n5 = v[b3]!;
              if (n5 !== 0) inner[outcome(pt, (bt + b3) % 10)]! += n5 * (rest - 1);
            }
          } else {
            inner[outcome(pt, bt)]! += rest * (rest - 1);
          }
          const prefix = BigInt(n1 * n2) * BigInt(n3 * n4);
          if (pt >= 8 || bt >= 8) natural += prefix * BigInt(rest * (rest - 1));
          for (let o = 0; o < 3; o++) if (inner[o] !== 0) totals[o]! += prefix * BigInt(inner[o]!);
          v[b2]!++;
        }
        v[p2]!++;
      }
      v[b1]!++;
    }
    v[p1]!++;
  }
  // Pairs are by rank: ordered pairs of equal rank for the two places, times any 4 other cards.
  let samePairs = 0n;
  for (const c of composition) samePairs += BigInt(c) * BigInt(c - 1);
  const fill = BigInt(n - 2) * BigInt(n - 3) * BigInt(n - 4) * BigInt(n - 5);
  const total = fallingFactorial(n, 6);
  return {
    cards: n,
    total,
    player: totals[OUT_PLAYER]!,
    banker: totals[OUT_BANKER]!,
    tie: totals[OUT_TIE]!,
    natural,
    playerPair: samePairs * fill,
    bankerPair: samePairs * fill,
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
 * House edge of each bet type: the house's expected gain per unit staked, over all outcomes (ties
 * included, where Punto and Banca push). Banca uses the exact commission rate; the minor-unit rounding
 * of `commissionOn` (the house keeps the fraction) adds at most one unit per winning bet on top.
 */
export function houseEdgeExact(
  config: Pick<TableConfig, 'commission' | 'tiePays'>,
  odds: ExactOdds,
): Record<BetType, Ratio> {
  const { total, banker, player, tie, playerPair, bankerPair } = odds;
  const rate = BigInt(config.commission.rateBps);
  const pairPays = BigInt(PAIR_PAYS + 1);
  return {
    PLAYER: { num: banker - player, den: total },
    BANKER: { num: player * 10_000n - banker * (10_000n - rate), den: total * 10_000n },
    TIE: { num: total - tie * BigInt(config.tiePays + 1), den: total },
    PLAYER_PAIR: { num: total - playerPair * pairPays, den: total },
    BANKER_PAIR: { num: total - bankerPair * pairPays, den: total },
  };
}

export function houseEdge(
  config: Pick<TableConfig, 'commission' | 'tiePays'>,
  odds: ExactOdds,
): Record<BetType, number> {
  const exact = houseEdgeExact(config, odds);
  return {
    PLAYER: ratioToNumber(exact.PLAYER),
    BANKER: ratioToNumber(exact.BANKER),
    TIE: ratioToNumber(exact.TIE),
    PLAYER_PAIR: ratioToNumber(exact.PLAYER_PAIR),
    BANKER_PAIR: ratioToNumber(exact.BANKER_PAIR),
  };
}

/** Probabilities of Punto / Banca / Empate and the pairs, as doubles. */
export const probabilities = (odds: ExactOdds) => ({
  player: ratioToNumber({ num: odds.player, den: odds.total }),
  banker: ratioToNumber({ num: odds.banker, den: odds.total }),
  tie: ratioToNumber({ num: odds.tie, den: odds.total }),
  natural: ratioToNumber({ num: odds.natural, den: odds.total }),
  playerPair: ratioToNumber({ num: odds.playerPair, den: odds.total }),
  bankerPair: ratioToNumber({ num: odds.bankerPair, den: odds.total }),
});
