/**
 * Cards are small integers so that a shoe is a Uint8Array and a coup allocates nothing.
 *
 * card = suit * 13 + rank, with
 *   rank 0..12 = A,2,3,4,5,6,7,8,9,T,J,Q,K
 *   suit 0..3  = S (picas), H (corazones), D (diamantes), C (tréboles)
 *
 * This encoding, and the canonical shoe order built from it, is a published contract: the
 * provably-fair scheme shuffles the canonical order, so changing either changes every shoe.
 */
export type Card = number;

export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];

export const CARDS_PER_DECK = 52;

export const rankOf = (card: Card): number => card % 13;
export const suitOf = (card: Card): number => Math.floor(card / 13);

/** Baccarat point value: A=1, 2-9 face value, tens and faces 0. */
export const pointValue = (card: Card): number => {
  const r = card % 13;
  return r < 9 ? r + 1 : 0;
};

/** Burn count of the first card out of the shoe: like pointValue, but tens and faces count 10 (seed 003). */
export const burnValue = (card: Card): number => {
  const r = card % 13;
  return r < 9 ? r + 1 : 10;
};

export const cardOf = (rank: number, suit: number): Card => suit * 13 + rank;
