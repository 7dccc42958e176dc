import { describe, expect, it } from 'vitest';
import {
  burnValue,
  CardNotationError,
  canonicalShoe,
  formatCard,
  parseCard,
  parseCards,
  pointValue,
} from '../src/cards';
import {
  compositionOfCards,
  compositionOfDecks,
  rankCounts,
  removeCards,
  valueCounts,
} from '../src/composition';

describe('card notation', () => {
  it('round-trips all 52 cards', () => {
    for (let card = 0; card < 52; card++) expect(parseCard(formatCard(card))).toBe(card);
  });

  it('reads the encoding of the contract (suit * 13 + rank)', () => {
    expect(parseCard('AS')).toBe(0);
    expect(parseCard('KS')).toBe(12);
    expect(parseCard('AH')).toBe(13);
    expect(parseCard('TD')).toBe(2 * 13 + 9);
    expect(parseCard('10D')).toBe(parseCard('TD'));
    expect(parseCard('kh')).toBe(13 + 12);
    expect(parseCard(' 9c ')).toBe(3 * 13 + 8);
    expect(formatCard(parseCard('10d'))).toBe('TD');
  });

  it.each(['', 'A', '1S', '11S', 'ZS', 'AX', 'ASS', '10', 'T'])('refuses %j', (text) => {
    expect(() => parseCard(text)).toThrow(CardNotationError);
  });

  it('parses sequences separated by spaces or commas', () => {
    expect(parseCards('AS 10D,kh  2c').map(formatCard)).toEqual(['AS', 'TD', 'KH', '2C']);
  });

  it('values: A=1, 2-9 face, tens and faces 0 (10 for the burn)', () => {
    expect(['AS', '2S', '9S', 'TS', 'JS', 'QS', 'KS'].map((t) => pointValue(parseCard(t)))).toEqual([
      1, 2, 9, 0, 0, 0, 0,
    ]);
    expect(['AS', '9S', 'TS', 'JS', 'QS', 'KS'].map((t) => burnValue(parseCard(t)))).toEqual([
      1, 9, 10, 10, 10, 10,
    ]);
  });
});

describe('shoe compositions', () => {
  it('canonical order: index i holds card i % 52, 1..8 decks', () => {
    const shoe = canonicalShoe(8);
    expect(shoe.length).toBe(416);
    expect(shoe[0]).toBe(0);
    expect(shoe[52]).toBe(0);
    expect(shoe[415]).toBe(51);
    expect(() => canonicalShoe(0)).toThrow(RangeError);
    expect(() => canonicalShoe(9)).toThrow(RangeError);
  });

  it('counts cards, ranks and values; removes dealt cards', () => {
    expect(compositionOfDecks(6)).toEqual(new Array(52).fill(6));
    expect(rankCounts(compositionOfDecks(6))).toEqual(new Array(13).fill(24));
    expect(compositionOfCards(canonicalShoe(2))).toEqual(compositionOfDecks(2));
    expect(valueCounts(compositionOfDecks(1))).toEqual([16, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
    const left = removeCards(compositionOfDecks(2), parseCards('KS KH 5D KS'));
    expect(left[parseCard('KS')]).toBe(0);
    expect(left[parseCard('KH')]).toBe(1);
    expect(rankCounts(left)[12]).toBe(5);
    expect(rankCounts(left)[4]).toBe(7);
    expect(() => removeCards(left, parseCards('KS'))).toThrow(RangeError);
    expect(() => rankCounts([1, 2, 3])).toThrow(RangeError);
  });
});
