/**
 * pyb-shoe/3 deals the same distribution as one shuffle, exactly (docs/provably-fair.md §15.7), on
 * shoes small enough to enumerate. An enumerating source hands out, draw after draw, every digit
 * sequence d₀ d₁ … with dᵢ in [0, T − i) — each with weight 1/T!, as a uniform source would — and
 * uniformInt passes a digit below its range through unchanged, so each run is one equally likely path
 * of the production code (drawCard, coupFrom, shufflePermutation).
 */
import { type Card, compositionOfCards, exactOdds, formatCard, parseCards, playCoup } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import {
  cardsLeft,
  coupFrom,
  drawCard,
  type IndexDraw,
  type ShoeStateV3,
  shufflePermutation,
  type U32Source,
  uniformIndex,
} from '../src/index';

/** Draws every card left, in order: the sequence the exact tests compare with one shuffle. */
function drawAll(left: readonly number[], pick: IndexDraw): Card[] {
  const rest = [...left];
  const out: Card[] = [];
  while (cardsLeft(rest) > 0) out.push(drawCard(rest, pick));
  return out;
}

/** Every digit sequence of the ranges T, T−1, …, 1, as a scripted U32Source per run. */
function* enumerate(total: number): Generator<U32Source> {
  const digits = new Array<number>(total).fill(0);
  for (;;) {
    let at = 0;
    yield {
      nextU32: () => {
        if (at >= total) throw new Error('more draws than the enumeration holds');
        return digits[at++]!;
      },
    };
    // odometer: the last place moves fastest; place i runs over [0, total − i)
    let i = total - 1;
    while (i >= 0 && digits[i] === total - i - 1) digits[i--] = 0;
    if (i < 0) return;
    digits[i]!++;
  }
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
const countsOf = (cards: Card[]) => {
  const left = new Array<number>(52).fill(0);
  for (const c of cards) left[c]!++;
  return left;
};
const tally = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

describe('drawing from what is left = one shuffle (exact)', () => {
  it.each([['AS AS 5H KC KC KC'], ['AS 2S 3S 4S 5S 6S 7S'], ['9D 9D 9D TD TD 2C 2C']])(
    '%s: every sequence of cards has the same probability as under Fisher–Yates',
    (text) => {
      const cards = parseCards(text);
      const total = cards.length;
      const drawn = new Map<string, number>();
      const shuffled = new Map<string, number>();
      let paths = 0;
      for (const source of enumerate(total)) {
        paths++;
        tally(drawn, drawAll(countsOf(cards), uniformIndex(source)).map(formatCard).join(' '));
      }
      for (const source of enumerate(total)) {
        // Fisher–Yates draws T−1 digits (ranges T … 2): the last place of the odometer is left unused,
        // so each shuffle is counted once per value of it, which is 1 value (range 1): no double count
        const perm = shufflePermutation(source, total);
        tally(shuffled, Array.from(perm, (i) => formatCard(cards[i]!)).join(' '));
      }
      expect(paths).toBe(factorial(total));
      expect(drawn).toEqual(shuffled);
      // and both equal the multinomial: each sequence is seen Π(copies!) times of T!
      const copies = countsOf(cards).reduce((p, n) => p * factorial(n), 1);
      expect(drawn.size).toBe(factorial(total) / copies);
      for (const count of drawn.values()) expect(count).toBe(copies);
    },
  );

  it('the same comparison tells a draw off by one in its range (last index folded onto the first)', () => {
    const cards = parseCards('AS AS 5H KC KC KC');
    const drawn = new Map<string, number>();
    const shuffled = new Map<string, number>();
    for (const source of enumerate(cards.length)) {
      const fair = uniformIndex(source);
      const offByOne = (n: number) => {
        const j = fair(n);
        return j === n - 1 ? 0 : j;
      };
      tally(drawn, drawAll(countsOf(cards), offByOne).map(formatCard).join(' '));
    }
    for (const source of enumerate(cards.length)) {
      const perm = shufflePermutation(source, cards.length);
      tally(shuffled, Array.from(perm, (i) => formatCard(cards[i]!)).join(' '));
    }
    expect(drawn).not.toEqual(shuffled);
    expect(drawn.get('KC KC KC AS AS 5H') ?? 0).toBe(0); // KC is last by code: never drawn first
  });

  const stateOf = (cards: Card[]): ShoeStateV3 => ({
    scheme: 'pyb-shoe/3',
    shoeId: 'exact',
    commitment: '0'.repeat(64),
    entropy: '0'.repeat(64),
    decks: 1,
    afterCutCard: 'FINISH_COUP',
    cardsBehind: 0,
    cutIndex: 1000, // the cut card plays no part here
    burn: { shown: 0, burned: 1, cards: [0] },
    left: countsOf(cards),
    cursor: 0,
    coups: 0,
    coupsAfterCut: 0,
    finished: false,
  });

  it.each([
    ['AS 2H 3D 4C 5S 6H TD KC'], // draws of every kind: 0-5 and third cards
    ['4S 4S 5H 5H TD TD 9C 9C'], // naturals, pairs, suited pairs
    ['AS AH 2S 2D 3C 6H 7S KD'],
  ])('%s: the coup the tableau deals, drawing lazily, has its shuffle probability', (text) => {
    const cards = parseCards(text);
    const total = cards.length;
    const lazily = new Map<string, number>();
    for (const source of enumerate(total)) {
      tally(lazily, coupFrom(stateOf(cards), uniformIndex(source)).cards.map(formatCard).join(' '));
    }
    // every ordered arrangement of the 8 labelled cards, through playCoup on the fixed order
    const fixed = new Map<string, number>();
    for (const source of enumerate(total)) {
      const order = Array.from(shufflePermutation(source, total), (i) => cards[i]!);
      const coup = playCoup(order);
      tally(fixed, order.slice(0, coup.cardsUsed).map(formatCard).join(' '));
    }
    expect(lazily).toEqual(fixed);
  });

  it('the exact odds of the engine (baccarat odds) count the coups pyb-shoe/3 deals, event by event', () => {
    const cards = parseCards('AS 2H 3D 4C 5S 6H TD KC');
    const total = cards.length;
    const seen = { player: 0, banker: 0, tie: 0, natural: 0, playerPair: 0, bankerPair: 0, small: 0, big: 0 };
    for (const source of enumerate(total)) {
      const { result } = coupFrom(stateOf(cards), uniformIndex(source));
      seen[result.winner === 'PLAYER' ? 'player' : result.winner === 'BANKER' ? 'banker' : 'tie']++;
      if (result.natural) seen.natural++;
      if (result.playerPair) seen.playerPair++;
      if (result.bankerPair) seen.bankerPair++;
      seen[result.cardsUsed === 4 ? 'small' : 'big']++;
    }
    // exactOdds counts ordered 6-card deals: T!/(T−6)! of them; the enumeration T! paths
    const scale = BigInt(factorial(total - 6));
    const odds = exactOdds(compositionOfCards(cards));
    for (const [event, n] of Object.entries(seen)) {
      expect([event, BigInt(n)]).toEqual([event, odds[event as keyof typeof seen] * scale]);
    }
  });
});
