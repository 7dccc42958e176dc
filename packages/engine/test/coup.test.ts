import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCard, NO_CARD, parseCards, pointValue } from '../src/cards';
import {
  codeCardsUsed,
  coupCode,
  NOT_ENOUGH,
  NotEnoughCardsError,
  playCoup,
  playCoupFrom,
} from '../src/coup';
import { leafKey } from '../src/events';
import {
  codeBankerDrew,
  codeBankerNatural,
  codeBankerPair,
  codeBankerSuitedPair,
  codeBankerTotal,
  codeLeaf,
  codePlayerDrew,
  codePlayerNatural,
  codePlayerPair,
  codePlayerSuitedPair,
  codePlayerTotal,
  codeWinner,
} from './coup-code';
import { byValues } from './helpers';

const play = (text: string) => playCoup(parseCards(text));
const cards = fc.array(fc.integer({ min: 0, max: 51 }), { minLength: 6, maxLength: 8 });

describe('playCoup', () => {
  it('deals P, B, P, B', () => {
    const coup = play('2S 3H 4D 5C 8S 9H');
    expect(coup.player.cards.map(formatCard)).toEqual(['2S', '4D']);
    expect(coup.banker.cards.map(formatCard)).toEqual(['3H', '5C']);
    expect(coup.steps.slice(0, 4).map((s) => [s.to, s.rule])).toEqual([
      ['PLAYER', 'INITIAL'],
      ['BANKER', 'INITIAL'],
      ['PLAYER', 'INITIAL'],
      ['BANKER', 'INITIAL'],
    ]);
  });

  it.each([
    // Punto natural 9 beats Banca 0 — Banca does not draw although 0 always draws otherwise.
    ['4S TH 5D KC 2S 2H', 'PLAYER', 9, 0, true, false],
    ['4S TH 4D KC 2S 2H', 'PLAYER', 8, 0, true, false],
    ['TS 4H KD 5C 2S 2H', 'BANKER', 0, 9, false, true],
    ['TS 4H KD 4C 2S 2H', 'BANKER', 0, 8, false, true],
    ['4S 4H 4D 4C 2S 2H', 'TIE', 8, 8, true, true],
    ['9S 8H KD KC 2S 2H', 'PLAYER', 9, 8, true, true],
    ['2S 3H 4D 5C 2S 2H', 'BANKER', 6, 8, false, true],
  ] as const)('natural %s: %s %i-%i', (text, winner, pt, bt, pn, bn) => {
    const coup = play(text);
    expect(coup.winner).toBe(winner);
    expect([coup.player.total, coup.banker.total]).toEqual([pt, bt]);
    expect([coup.playerNatural, coup.bankerNatural, coup.natural]).toEqual([pn, bn, true]);
    expect(coup.cardsUsed).toBe(4);
    const stands = coup.steps.slice(4);
    expect(stands.map((s) => [s.action, s.card])).toEqual([
      ['STAND', NO_CARD],
      ['STAND', NO_CARD],
    ]);
    expect(stands.map((s) => s.rule)).toContain(`NATURAL_${pn ? pt : bt}`);
  });

  it('a natural 8 or 9 only counts on the first two cards', () => {
    const coup = play('2S 3H 4D 3C 2S 9H'); // Punto 6 stands, Banca 6 stands; no draw made an 8
    expect(coup.natural).toBe(false);
    const drawn = play('AS 3H 2D 2C 5S 9H'); // Punto 3 draws 5 -> 8, not a natural
    expect(drawn.player.total).toBe(8);
    expect(drawn.natural).toBe(false);
    expect(drawn.playerNatural).toBe(false);
  });

  it('Punto draws on 0-5 (5 included, seed 004) and stands on 6-7', () => {
    for (let total = 0; total <= 7; total++) {
      const coup = playCoup(byValues(total, 7, 0, 0, 1, 1));
      expect(coup.player.cards.length).toBe(total <= 5 ? 3 : 2);
    }
  });

  it('pairs are by rank: K-K is a pair, T-K is not', () => {
    expect(play('KS 2H KD 3C 2S 2H').playerPair).toBe(true);
    expect(play('KS 2H TD 3C 2S 2H').playerPair).toBe(false);
    expect(play('2S 7H 3D 7C 2S 2H').bankerPair).toBe(true);
    expect(play('2S 7H 3D 7C 2S 2H').playerPair).toBe(false);
    // the third card never makes a pair
    expect(play('AS 2H 2D 3C AH 2S').playerPair).toBe(false);
  });

  it('throws NotEnoughCardsError when the cards run out mid-coup', () => {
    expect(() => play('AS 2H 3D')).toThrow(NotEnoughCardsError);
    expect(() => play('AS 2H 3D 4C')).toThrow(NotEnoughCardsError); // Punto 4 must draw
    expect(() => play('AS 2H 3D 4C 6S')).toThrow(NotEnoughCardsError); // Banca 6 vs 6 draws
    expect(play('AS 2H 3D 4C 6S 6H').cardsUsed).toBe(6);
    expect(play('AS 2H 3D 4C 5S').cardsUsed).toBe(5); // Banca 6 vs 5 stands: 5 cards are enough
    expect(() => playCoup(parseCards('AS 2H 3D 4C 5S 6H'), 3)).toThrow(/only 3 card/);
  });

  it('plays from an offset and ignores the cards after the coup', () => {
    const shoe = parseCards('KS KH 4S TH 5D KC 2S 2H');
    const coup = playCoup(shoe, 2);
    expect(coup.player.cards.map(formatCard)).toEqual(['4S', '5D']);
    expect(coup.cardsUsed).toBe(4);
  });

  it('property: card conservation, totals 0-9, determinism', () => {
    fc.assert(
      fc.property(cards, (seq) => {
        const coup = playCoup(seq);
        const again = playCoup(seq);
        expect(again).toEqual(coup);
        expect(coup.player.cards.length + coup.banker.cards.length).toBe(coup.cardsUsed);
        expect(coup.cardsUsed).toBeGreaterThanOrEqual(4);
        expect(coup.cardsUsed).toBeLessThanOrEqual(6);
        // The hands are exactly the first cardsUsed cards, in deal order.
        const dealt = coup.steps.filter((s) => s.action !== 'STAND').map((s) => s.card);
        expect(dealt).toEqual(seq.slice(0, coup.cardsUsed));
        for (const hand of [coup.player, coup.banker]) {
          expect(hand.total).toBe(hand.cards.reduce((a, c) => a + pointValue(c), 0) % 10);
          expect(hand.total).toBeGreaterThanOrEqual(0);
          expect(hand.total).toBeLessThanOrEqual(9);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: playCoupFrom asks its source for cards 0, 1, … one at a time, exactly cardsUsed of them, and plays the coup playCoup plays', () => {
    fc.assert(
      fc.property(cards, (seq) => {
        const asked: number[] = [];
        const coup = playCoupFrom({
          card(n) {
            asked.push(n);
            return seq[n]!;
          },
        });
        expect(asked).toEqual(Array.from({ length: coup.cardsUsed }, (_, i) => i));
        expect(coup).toEqual(playCoup(seq));
      }),
      { numRuns: 500 },
    );
  });

  it('property: the packed hot path (coupCode) agrees with playCoup', () => {
    fc.assert(
      fc.property(cards, fc.integer({ min: 0, max: 2 }), (seq, offset) => {
        const order = Uint8Array.from(seq);
        const code = coupCode(order, offset);
        let coup: ReturnType<typeof playCoup> | undefined;
        try {
          coup = playCoup(order, offset);
        } catch (e) {
          expect(e).toBeInstanceOf(NotEnoughCardsError);
        }
        if (!coup) {
          expect(code).toBe(NOT_ENOUGH);
          return;
        }
        expect(codeWinner(code)).toBe(coup.winner);
        expect(codePlayerTotal(code)).toBe(coup.player.total);
        expect(codeBankerTotal(code)).toBe(coup.banker.total);
        expect(codeCardsUsed(code)).toBe(coup.cardsUsed);
        expect(codePlayerNatural(code)).toBe(coup.playerNatural);
        expect(codeBankerNatural(code)).toBe(coup.bankerNatural);
        expect(codePlayerPair(code)).toBe(coup.playerPair);
        expect(codeBankerPair(code)).toBe(coup.bankerPair);
        expect(codePlayerSuitedPair(code)).toBe(coup.player.cards[0] === coup.player.cards[1]);
        expect(codeBankerSuitedPair(code)).toBe(coup.banker.cards[0] === coup.banker.cards[1]);
        expect(codePlayerDrew(code)).toBe(coup.player.cards.length === 3);
        expect(codeBankerDrew(code)).toBe(coup.banker.cards.length === 3);
        expect(codeLeaf(code)).toBe(
          leafKey(
            coup.player.total,
            coup.banker.total,
            coup.player.cards.length === 3,
            coup.banker.cards.length === 3,
          ),
        );
      }),
      { numRuns: 5000 },
    );
  });
});
