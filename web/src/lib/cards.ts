/** Cards as people read them: rank and suit symbol on the face, the full name for screen readers. */
import { h } from './dom';

const RANK_NAMES: Record<string, string> = {
  A: 'Ace',
  T: 'Ten',
  J: 'Jack',
  Q: 'Queen',
  K: 'King',
};
const SUITS: Record<string, { symbol: string; name: string; red: boolean }> = {
  S: { symbol: '♠', name: 'spades', red: false },
  H: { symbol: '♥', name: 'hearts', red: true },
  D: { symbol: '♦', name: 'diamonds', red: true },
  C: { symbol: '♣', name: 'clubs', red: false },
};

/** "KH" -> "King of hearts"; anything that is not a card is returned as it is. */
export function cardName(card: string): string {
  const suit = SUITS[card.slice(-1)];
  const rank = card.slice(0, -1);
  if (!suit || !rank) return card;
  return `${RANK_NAMES[rank] ?? rank} of ${suit.name}`;
}

/** One card face. `fresh` marks the card just dealt (an animation, off under reduced motion). */
export function cardFace(card: string, options: { fresh?: boolean; small?: boolean } = {}): HTMLElement {
  const suit = SUITS[card.slice(-1)];
  const rank = card.slice(0, -1);
  const shown = rank === 'T' ? '10' : rank;
  const classes = [
    'card',
    suit?.red ? 'card-red' : 'card-black',
    options.fresh && 'card-fresh',
    options.small && 'card-small',
  ]
    .filter(Boolean)
    .join(' ');
  return h(
    'span',
    { class: classes, role: 'img', 'aria-label': cardName(card), 'data-card': card },
    h('span', { class: 'card-rank', 'aria-hidden': 'true' }, suit ? shown : card),
    suit && h('span', { class: 'card-suit', 'aria-hidden': 'true' }, suit.symbol),
  );
}
