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

export const NO_CARD = -1;

export const isCard = (value: unknown): value is Card =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < CARDS_PER_DECK;

/** Point value by card code, for the hot path (a table lookup beats `%` and a branch). */
export const POINT_VALUES: Uint8Array = Uint8Array.from({ length: CARDS_PER_DECK }, (_, c) => pointValue(c));
/** Rank by card code, for the hot path. */
export const RANK_OF: Uint8Array = Uint8Array.from({ length: CARDS_PER_DECK }, (_, c) => c % 13);

/** A card notation the parser does not understand. */
export class CardNotationError extends Error {
  readonly code = 'CARD_NOTATION_INVALID';
  constructor(readonly input: string) {
    super(
      `invalid card "${input}": expected rank A,2-9,T (or 10),J,Q,K and suit S,H,D,C, e.g. AS, TD, 10D, KH`,
    );
    this.name = 'CardNotationError';
  }
}

/** Parses `AS`, `TD`, `10D`, `kh` (case-insensitive). Throws CardNotationError. */
export const parseCard = (text: string): Card => {
  const s = text.trim().toUpperCase();
  const rankText = s.length === 3 && s.startsWith('10') ? 'T' : s.length === 2 ? s[0] : undefined;
  const suitText = s[s.length - 1];
  const rank = rankText === undefined ? -1 : RANKS.indexOf(rankText as Rank);
  const suit = suitText === undefined ? -1 : SUITS.indexOf(suitText as Suit);
  if (rank < 0 || suit < 0) throw new CardNotationError(text);
  return cardOf(rank, suit);
};

/** Parses a sequence separated by spaces and/or commas: `"AS 10D kh"`. */
export const parseCards = (text: string): Card[] =>
  text
    .split(/[\s,]+/)
    .filter((t) => t.length > 0)
    .map(parseCard);

/** `AS`, `TD`, `KH`: the canonical two-character notation. Throws RangeError on a non-card. */
export const formatCard = (card: Card): string => {
  if (!isCard(card)) throw new RangeError(`not a card: ${card}`);
  return `${RANKS[card % 13]}${SUITS[Math.floor(card / 13)]}`;
};

/** The canonical order of an N-deck shoe: deck by deck, each deck 0..51 (index i holds card i % 52). */
export const canonicalShoe = (decks: number): Uint8Array => {
  if (!Number.isInteger(decks) || decks < 1 || decks > 8)
    throw new RangeError(`decks must be 1..8, got ${decks}`);
  return Uint8Array.from({ length: decks * CARDS_PER_DECK }, (_, i) => i % CARDS_PER_DECK);
};

/** Burn count by card code, for the hot path. */
export const BURN_VALUES: Uint8Array = Uint8Array.from({ length: CARDS_PER_DECK }, (_, c) => burnValue(c));
