import { CARDS_PER_DECK, type Card, isCard } from './cards';

/**
 * A shoe composition: how many of each card are left, indexed by card code (suit * 13 + rank, cards.ts).
 * Card level, not rank or value level, because pairs are by rank (K-K is a pair, T-K is not) and the
 * Perfect Pair by rank and suit (two identical cards, which a multi-deck shoe holds).
 */
export type Composition = readonly number[];

export const RANK_COUNT = 13;

/** A full shoe of N decks: N of each card. */
export const compositionOfDecks = (decks: number): Composition => {
  if (!Number.isInteger(decks) || decks < 1 || decks > 8)
    throw new RangeError(`decks must be 1..8, got ${decks}`);
  return Array.from({ length: CARDS_PER_DECK }, () => decks);
};

/** The composition of a list of cards (e.g. what is left of a shoe order after its cursor). */
export const compositionOfCards = (cards: ArrayLike<Card>): Composition => {
  const counts = new Array<number>(CARDS_PER_DECK).fill(0);
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!;
    if (!isCard(card)) throw new RangeError(`not a card: ${card}`);
    counts[card]! += 1;
  }
  return counts;
};

/** A composition less some dealt cards; throws if a card is not there to remove. */
export const removeCards = (composition: Composition, cards: ArrayLike<Card>): Composition => {
  assertComposition(composition);
  const counts = [...composition];
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!;
    if (!isCard(card)) throw new RangeError(`not a card: ${card}`);
    if (counts[card]! <= 0) throw new RangeError(`no card ${card} left to remove`);
    counts[card]! -= 1;
  }
  return counts;
};

/** Cards of each rank (index 0..12 = A,2..9,T,J,Q,K), all suits together. */
export const rankCounts = (composition: Composition): number[] => {
  assertComposition(composition);
  const ranks = new Array<number>(RANK_COUNT).fill(0);
  for (let card = 0; card < CARDS_PER_DECK; card++) ranks[card % 13]! += composition[card]!;
  return ranks;
};

/** Collapses cards to baccarat point values 0..9 (T, J, Q, K all count 0). */
export const valueCounts = (composition: Composition): number[] => {
  const values = new Array<number>(10).fill(0);
  rankCounts(composition).forEach((n, rank) => {
    values[rank < 9 ? rank + 1 : 0]! += n;
  });
  return values;
};

export const cardCount = (composition: Composition): number => composition.reduce((a, b) => a + b, 0);

export function assertComposition(composition: Composition): void {
  if (composition.length !== CARDS_PER_DECK)
    throw new RangeError(`a composition has ${CARDS_PER_DECK} card counts (one per card code)`);
  for (const n of composition) {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new RangeError(`card counts are non-negative integers, got ${n}`);
  }
}
