import { BURN_VALUES, canonicalShoe } from './cards';
import type { TableConfig } from './config';
import { coupCode, NOT_ENOUGH, NotEnoughCardsError } from './coup';
import { type CoupEvents, LEAF_KEYS, leafEvents, mapEvents, type PairEvents } from './events';
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

/** Bits 2-15 of a coup code: its leaf (totals, draws) and its four pair marks (coup.ts). */
const CLASS_BITS = 14;
const CLASSES = 1 << CLASS_BITS;
const classOf = (code: number) => (code >> 2) & (CLASSES - 1);

/**
 * Plays whole shoes as fast as the engine can: shuffle (seeded xoshiro128**, simulation only), burn,
 * cut card placed uniformly in [minCardsBehind, maxCardsBehind], coups until the cut card rule ends the
 * shoe. Nothing is allocated per coup or per shoe: one Uint8Array order and one histogram of coup
 * classes (leaf and pair marks, one increment per coup), from which every tally and every bet's event
 * count (events.ts) is read afterwards.
 */
export class ShoeSimulator {
  readonly order: Uint8Array;
  /** Coups per class (bits 2-15 of the coup code). */
  readonly histogram = new Float64Array(CLASSES);
  shoes = 0;
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
    const { order, rng, histogram, config } = this;
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
      histogram[classOf(code)]! += 1;
      const used = (code >> 18) & 7;
      coups++;
      const start = pos;
      pos += used;
      if (pos > cutIndex) {
        if (isLastCoup(config, cutIndex, start, used, coupsAfterCut)) break;
        if (start > cutIndex) coupsAfterCut++;
      }
    }
    this.shoes += 1;
    return coups;
  }

  /** Plays shoes until exactly `coups` coups were played (the last shoe may stop early). */
  playCoups(coups: number): void {
    let left = coups;
    while (left > 0) left -= this.playShoe(left);
  }

  /** Coups played so far. */
  get coups(): number {
    return this.histogram.reduce((a, b) => a + b, 0);
  }

  /** Observed count of every event (events.ts), comparable key by key with the exact odds. */
  events(): CoupEvents<number> {
    const leaves = new Array<bigint>(LEAF_KEYS).fill(0n);
    const pairs = [0, 0, 0, 0]; // Punto pair, Banca pair, Punto suited, Banca suited
    let either = 0;
    let perfectOne = 0;
    let perfectBoth = 0;
    this.histogram.forEach((n, cls) => {
      if (n === 0) return;
      leaves[cls & (LEAF_KEYS - 1)]! += BigInt(n);
      const marks = cls >> 10;
      for (let i = 0; i < 4; i++) if (marks & (1 << i)) pairs[i]! += n;
      if (marks & 3) either += n;
      const suited = (marks >> 2) & 3;
      if (suited === 3) perfectBoth += n;
      else if (suited !== 0) perfectOne += n;
    });
    const pairEvents: PairEvents<number> = {
      playerPair: pairs[0]!,
      bankerPair: pairs[1]!,
      eitherPair: either,
      perfectPairOne: perfectOne,
      perfectPairBoth: perfectBoth,
    };
    const leaf = mapEvents({ ...leafEvents(leaves), ...zeroPairs }, Number);
    return { ...leaf, ...pairEvents };
  }

  /** The classic tallies (TALLY indexes): outcomes, pairs, naturals, cards, coups, shoes. */
  get tallies(): Float64Array {
    const e = this.events();
    const t = new Float64Array(9);
    t[TALLY.PLAYER] = e.player;
    t[TALLY.BANKER] = e.banker;
    t[TALLY.TIE] = e.tie;
    t[TALLY.PLAYER_PAIR] = e.playerPair;
    t[TALLY.BANKER_PAIR] = e.bankerPair;
    t[TALLY.NATURAL] = e.natural;
    let cards = 0;
    this.histogram.forEach((n, cls) => {
      cards += n * (4 + (cls & (1 << 8) ? 1 : 0) + (cls & (1 << 9) ? 1 : 0));
    });
    t[TALLY.CARDS] = cards;
    t[TALLY.COUPS] = this.coups;
    t[TALLY.SHOES] = this.shoes;
    return t;
  }
}

const zeroPairs: PairEvents<bigint> = {
  playerPair: 0n,
  bankerPair: 0n,
  eitherPair: 0n,
  perfectPairOne: 0n,
  perfectPairBoth: 0n,
};
