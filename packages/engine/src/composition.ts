import { type Card, isCard } from './cards';

/**
 * A shoe composition: how many cards of each rank (index 0..12 = A,2..9,T,J,Q,K) are left.
 * Rank level (not value level) because pairs are by rank: K-K is a pair, T-K is not.
 */
export type Composition = readonly number[];

export const RANK_COUNT = 13;

/** A full shoe of N decks: 4N of each rank. */
export const compositionOfDecks = (decks: number): Composition => {
  if (!Number.isInteger(decks) || decks < 1 || decks > 8)
    throw new RangeError(`decks must be 1..8, got ${decks}`);
  return Array.from({ length: RANK_COUNT }, () => 4 * decks);
};

/** The composition of a list of cards (e.g. what is left of a shoe order after its cursor). */
export const compositionOfCards = (cards: ArrayLike<Card>): Composition => {
  const counts = new Array<number>(RANK_COUNT).fill(0);
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!;
    if (!isCard(card)) throw new RangeError(`not a card: ${card}`);
    counts[card % 13]! += 1;
  }
  return counts;
};

/** A composition less some dealt cards; throws if a card is not there to remove. */
export const removeCards = (composition: Composition, cards: ArrayLike<Card>): Composition => {
  const counts = [...composition];
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!;
    if (!isCard(card)) throw new RangeError(`not a card: ${card}`);
    const rank = card % 13;
    if (counts[rank]! <= 0) throw new RangeError(`no rank ${rank} left to remove`);
    counts[rank]! -= 1;
  }
  return counts;
};

/** Collapses ranks to baccarat point values 0..9 (T, J, Q, K all count 0). */
export const valueCounts = (composition: Composition): number[] => {
  assertComposition(composition);
  const values = new Array<number>(10).fill(0);
  for (let rank = 0; rank < RANK_COUNT; rank++) values[rank < 9 ? rank + 1 : 0]! += composition[rank]!;
  return values;
};

export const cardCount = (composition: Composition): number => composition.reduce((a, b) => a + b, 0);

export function assertComposition(composition: Composition): void {
  if (composition.length !== RANK_COUNT) throw new RangeError(`a composition has ${RANK_COUNT} rank counts`);
  for (const n of composition) {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new RangeError(`rank counts are non-negative integers, got ${n}`);
  }
}
