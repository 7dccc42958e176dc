import { describe, expect, it } from 'vitest';
import { type Card, cardOf, parseCards } from '../src/cards';
import { type Composition, compositionOfCards, compositionOfDecks, removeCards } from '../src/composition';
import { tablePreset } from '../src/config';
import { playCoup } from '../src/coup';
import { exactOdds, houseEdge, probabilities } from '../src/odds';

const fallingFactorial = (n: number, k: number) => {
  let out = 1n;
  for (let i = 0; i < k; i++) out *= BigInt(n - i);
  return out;
};

/** Brute force: play every ordered 6-card sequence of a small multiset through playCoup. */
function bruteForce(cards: Card[]) {
  const counts = { banker: 0n, player: 0n, tie: 0n, natural: 0n, playerPair: 0n, bankerPair: 0n, total: 0n };
  const used = new Array<boolean>(cards.length).fill(false);
  const seq: Card[] = [];
  const walk = () => {
    if (seq.length === 6) {
      const coup = playCoup(seq);
      counts.total++;
      counts[coup.winner === 'BANKER' ? 'banker' : coup.winner === 'PLAYER' ? 'player' : 'tie']++;
      if (coup.natural) counts.natural++;
      if (coup.playerPair) counts.playerPair++;
      if (coup.bankerPair) counts.bankerPair++;
      return;
    }
    for (let i = 0; i < cards.length; i++) {
      if (used[i]) continue;
      used[i] = true;
      seq.push(cards[i]!);
      walk();
      seq.pop();
      used[i] = false;
    }
  };
  walk();
  return counts;
}

describe('exact odds', () => {
  it('8 decks: the published totals', () => {
    const odds = exactOdds(compositionOfDecks(8));
    expect(odds.total).toBe(4_998_398_275_503_360n);
    expect(odds.total).toBe(fallingFactorial(416, 6));
    expect(odds.banker).toBe(2_292_252_566_437_888n);
    expect(odds.player).toBe(2_230_518_282_592_256n);
    expect(odds.tie).toBe(475_627_426_473_216n);
    expect(odds.banker + odds.player + odds.tie).toBe(odds.total);
  });

  it('8 decks: house edges Banca 1.06%, Punto 1.24%, Empate 14.36% (4.84% at 9:1), pairs 10.36%', () => {
    const odds = exactOdds(compositionOfDecks(8));
    const edge = houseEdge(tablePreset('full'), odds);
    expect(edge.BANKER).toBeCloseTo(0.010579, 6);
    expect(edge.PLAYER).toBeCloseTo(0.012351, 6);
    expect(edge.TIE).toBeCloseTo(0.143596, 6);
    expect(edge.PLAYER_PAIR).toBeCloseTo(0.103614, 6);
    expect(edge.BANKER_PAIR).toBe(edge.PLAYER_PAIR);
    expect(houseEdge(tablePreset('full', { tiePays: 9 }), odds).TIE).toBeCloseTo(0.04844, 6);
    // no commission: Banca is the favourite, the house edge turns negative
    expect(houseEdge(tablePreset('full', { commission: { rateBps: 0 } }), odds).BANKER).toBeCloseTo(
      -0.012351,
      6,
    );
  });

  it('6 decks: exact counts and the published probabilities', () => {
    const odds = exactOdds(compositionOfDecks(6));
    expect(odds.total).toBe(fallingFactorial(312, 6));
    expect(odds.banker).toBe(403_095_751_234_560n);
    expect(odds.player).toBe(392_220_492_728_832n);
    expect(odds.tie).toBe(83_552_962_932_288n);
    const p = probabilities(odds);
    expect(p.banker).toBeCloseTo(0.458653, 6);
    expect(p.player).toBeCloseTo(0.446279, 6);
    expect(p.tie).toBeCloseTo(0.095069, 6);
    const edge = houseEdge(tablePreset('mini'), odds);
    expect(edge.BANKER).toBeCloseTo(0.010558, 6);
    expect(edge.PLAYER).toBeCloseTo(0.012374, 6);
    expect(edge.TIE).toBeCloseTo(0.144382, 6);
    expect(edge.PLAYER_PAIR).toBeCloseTo(0.11254, 6);
  });

  // An independent check of the value-level enumeration on shoes small enough to play every
  // ordered sequence card by card: ranks mixed so pairs, tens/faces and both naturals occur.
  const small: [string, Composition][] = [
    ['10 mixed cards', compositionOfCards(parseCards('AS 2H 3D 4C 5S 9H TD KC KS 8H'))],
    ['9 cards, repeated ranks', compositionOfCards(parseCards('6S 6H 7D 7C QS QH 2D 3C 4H'))],
    ['1 deck partly dealt to 9 cards', removeCards(compositionOfDecks(1), [...canonicalLeaving9()])],
  ];
  it.each(small)('matches a card-by-card brute force: %s', (_, composition) => {
    const cards: Card[] = [];
    composition.forEach((n, rank) => {
      for (let i = 0; i < n; i++) cards.push(cardOf(rank, i % 4));
    });
    const brute = bruteForce(cards);
    const odds = exactOdds(composition);
    expect({
      total: odds.total,
      banker: odds.banker,
      player: odds.player,
      tie: odds.tie,
      natural: odds.natural,
      playerPair: odds.playerPair,
      bankerPair: odds.bankerPair,
    }).toEqual(brute);
  });

  it('refuses a shoe with fewer than 6 cards', () => {
    expect(() => exactOdds(compositionOfCards(parseCards('AS 2S 3S 4S 5S')))).toThrow(RangeError);
  });
});

/** The 43 cards to remove from one deck to leave A,2,3,5,8,T,J,K,K (a partly dealt shoe). */
function canonicalLeaving9(): Card[] {
  const keep = parseCards('AS 2S 3S 5S 8S TS JS KS KH');
  const out: Card[] = [];
  for (let c = 0; c < 52; c++) if (!keep.includes(c)) out.push(c);
  return out;
}
