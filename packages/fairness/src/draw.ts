/**
 * One card drawn from the cards left in a shoe (docs/provably-fair.md §15.3): a uniform index into
 * the cards left listed by card code, each code repeated as many times as copies are left. Drawing a
 * whole shoe this way, one card at a time, gives every sequence of cards exactly the probability one
 * uniform shuffle gives it (test/draw-exact.test.ts enumerates it).
 */
import { CARDS_PER_DECK, type Card } from '@pyb/engine';
import { type U32Source, uniformInt } from './stream';

/** A uniform integer in [0, n): `uniformInt` on a stream in production, scripted in tests. */
export type IndexDraw = (n: number) => number;

export const uniformIndex =
  (source: U32Source): IndexDraw =>
  (n) =>
    uniformInt(source, n);

/** The cards of a full shoe as counts by card code: `decks` copies of each of the 52. */
export const fullShoe = (decks: number): number[] => new Array<number>(CARDS_PER_DECK).fill(decks);

export const cardsLeft = (left: readonly number[]): number => left.reduce((sum, n) => sum + n, 0);

/**
 * Draws one card and takes it out of `left` (counts by card code, changed in place): j = pick(n) with
 * n the number of cards left, then the card at index j of the listing 0…0 1…1 … 51…51. Throws a
 * RangeError on an empty shoe (the caller, who knows the coup, says which card was missing).
 */
export function drawCard(left: number[], pick: IndexDraw): Card {
  const n = cardsLeft(left);
  if (n < 1) throw new RangeError('no card left to draw');
  let j = pick(n);
  if (!Number.isInteger(j) || j < 0 || j >= n) throw new RangeError(`pick(${n}) gave ${j}`);
  for (let card = 0; card < CARDS_PER_DECK; card++) {
    const copies = left[card]!;
    if (j < copies) {
      left[card] = copies - 1;
      return card;
    }
    j -= copies;
  }
  throw new RangeError('the counts changed while drawing'); // unreachable: j < n = Σ left
}
