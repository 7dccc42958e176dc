/**
 * Seeds -> shoe (docs/provably-fair.md §3-§5): Fisher–Yates over the canonical order, then the cut
 * card, both from one ShoeStream; the burn follows from the order.
 */
import {
  type Burn,
  burnOf,
  CARDS_PER_DECK,
  cutIndexFor,
  firstCoupStart,
  MAX_BURN,
  MAX_COUP_CARDS,
} from '@pyb/engine';
import { ShoeStream, type U32Source, uniformInt } from './stream';

/** The cut-card rule the shoe needs: how many cards may stay behind the cut card. */
export interface CutCardBounds {
  minCardsBehind: number;
  maxCardsBehind: number;
}

export const MIN_DECKS = 1;
export const MAX_DECKS = 8;
/** Seed 003: at least seven cards stay behind the cut card. */
export const MIN_CARDS_BEHIND = 7;
/** The burn (at most 1 + 10 cards) and one full coup (6 cards) always come before the cut card. */
export const MIN_CARDS_BEFORE_CUT = MAX_BURN + MAX_COUP_CARDS;

export interface ShoeInputs {
  serverSeed: Uint8Array;
  clientSeed: string;
  shoeId: string;
  decks: number;
  cutCard: CutCardBounds;
}

export interface Shoe {
  /** Cards in the order they leave the shoe. */
  order: Uint8Array;
  /** The cut card sits before order[cutIndex]: total − cutIndex cards stay behind it. */
  cutIndex: number;
  burn: Burn;
  /** Index of the first card of the first coup: 1 + burn.burned. */
  firstCoupAt: number;
}

export function totalCards(decks: number): number {
  if (!Number.isInteger(decks) || decks < MIN_DECKS || decks > MAX_DECKS) {
    throw new RangeError(`decks must be an integer ${MIN_DECKS}..${MAX_DECKS}`);
  }
  return decks * CARDS_PER_DECK;
}

export function checkCutCard(
  total: number,
  { minCardsBehind: min, maxCardsBehind: max }: CutCardBounds,
): void {
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < MIN_CARDS_BEHIND || max < min) {
    throw new RangeError(`cut card bounds must be integers with ${MIN_CARDS_BEHIND} <= min <= max`);
  }
  if (total - max < MIN_CARDS_BEFORE_CUT) {
    throw new RangeError(
      `maxCardsBehind ${max} leaves fewer than ${MIN_CARDS_BEFORE_CUT} cards before the cut in a ${total}-card shoe`,
    );
  }
}

/**
 * Durstenfeld's Fisher–Yates on canonical indices: for i = total−1 down to 1, j = uniformInt(i + 1),
 * swap. Returns the permutation (perm[k] = canonical index of the k-th card out), so the statistics
 * test can tell identical cards of different decks apart.
 */
export function shufflePermutation(source: U32Source, total: number): Uint16Array {
  const perm = new Uint16Array(total);
  for (let i = 0; i < total; i++) perm[i] = i;
  for (let i = total - 1; i >= 1; i--) {
    const j = uniformInt(source, i + 1);
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  return perm;
}

/** The draw after the shuffle: cards behind = min + uniformInt(max − min + 1). */
export function drawCutIndex(source: U32Source, total: number, bounds: CutCardBounds): number {
  const behind =
    bounds.minCardsBehind + uniformInt(source, bounds.maxCardsBehind - bounds.minCardsBehind + 1);
  return cutIndexFor(total, behind);
}

export function dealShoe(inputs: ShoeInputs): Shoe {
  const total = totalCards(inputs.decks);
  checkCutCard(total, inputs.cutCard);
  const stream = new ShoeStream(inputs.serverSeed, inputs.clientSeed, inputs.shoeId);
  const perm = shufflePermutation(stream, total);
  const cutIndex = drawCutIndex(stream, total, inputs.cutCard);
  const order = new Uint8Array(total);
  for (let k = 0; k < total; k++) order[k] = perm[k]! % CARDS_PER_DECK;
  const burn = burnOf(order);
  return { order, cutIndex, burn, firstCoupAt: firstCoupStart(burn) };
}
