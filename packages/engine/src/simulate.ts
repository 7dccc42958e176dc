import { BURN_VALUES, canonicalShoe } from './cards';
import type { TableConfig } from './config';
import { coupCode, NOT_ENOUGH, NotEnoughCardsError } from './coup';
import { shuffleInPlace, Xoshiro128 } from './rng';
import { isLastCoup } from './shoe';

/** Indexes into `ShoeSimulator.tallies`. */
export const TALLY = {
  PLAYER: 0,
  BANKER: 1,
  TIE: 2,
  PLAYER_PAIR: 3,
  BANKER_PAIR: 4,
  NATURAL: 5,
  CARDS: 6,
  COUPS: 7,
  SHOES: 8,
} as const;

export type SimulationConfig = Pick<TableConfig, 'decks' | 'cutCard' | 'afterCutCard'>;

/**
 * Plays whole shoes as fast as the engine can: shuffle (seeded xoshiro128**, simulation only), burn,
 * cut card placed uniformly in [minCardsBehind, maxCardsBehind], coups until the cut card rule ends the
 * shoe. Nothing is allocated per coup or per shoe: one Uint8Array order, one Float64Array of tallies,
 * each coup a packed integer from `coupCode`.
 */
export class ShoeSimulator {
  readonly order: Uint8Array;
  readonly tallies = new Float64Array(9);
  private readonly rng: Xoshiro128;
  /** Coup codes of the current shoe's coups, when `record` was asked for (tests, CLI samples). */
  readonly codes: Int32Array;
  codeCount = 0;
  /** The current shoe's cut index (the cut card sits before this card). */
  cutIndex = 0;

  constructor(
    private readonly config: SimulationConfig,
    seed: string | number,
    private readonly record = false,
  ) {
    this.order = canonicalShoe(config.decks);
    this.rng = new Xoshiro128(seed);
    this.codes = new Int32Array(record ? this.order.length : 0);
  }

  /** Shuffles and plays one shoe, at most `maxCoups` coups of it. Returns the coups played. */
  playShoe(maxCoups = Number.POSITIVE_INFINITY): number {
    const { order, rng, tallies, config } = this;
    shuffleInPlace(order, rng);
    const { minCardsBehind, maxCardsBehind } = config.cutCard;
    const cutIndex = order.length - (minCardsBehind + rng.below(maxCardsBehind - minCardsBehind + 1));
    this.cutIndex = cutIndex;
    let pos = 1 + BURN_VALUES[order[0]!]!;
    let coups = 0;
    let coupsAfterCut = 0;
    this.codeCount = 0;
    while (coups < maxCoups) {
      const code = coupCode(order, pos);
      if (code === NOT_ENOUGH) throw new NotEnoughCardsError(6, order.length - pos);
      if (this.record) this.codes[this.codeCount++] = code;
      const used = (code >> 10) & 7;
      tallies[code & 3]! += 1;
      if (code & (1 << 15)) tallies[TALLY.PLAYER_PAIR]! += 1;
      if (code & (1 << 16)) tallies[TALLY.BANKER_PAIR]! += 1;
      if (code & (3 << 13)) tallies[TALLY.NATURAL]! += 1;
      tallies[TALLY.CARDS]! += used;
      coups++;
      const start = pos;
      pos += used;
      if (pos > cutIndex) {
        if (isLastCoup(config, cutIndex, start, used, coupsAfterCut)) break;
        if (start > cutIndex) coupsAfterCut++;
      }
    }
    tallies[TALLY.COUPS]! += coups;
    tallies[TALLY.SHOES]! += 1;
    return coups;
  }

  /** Plays shoes until exactly `coups` coups were played (the last shoe may stop early). */
  playCoups(coups: number): void {
    let left = coups;
    while (left > 0) left -= this.playShoe(left);
  }
}
