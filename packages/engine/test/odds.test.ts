import { describe, expect, it } from 'vitest';
import { DEFAULT_SIDE_BET_PAYS, type SideBets, tablePreset } from '../src';
import { type Card, parseCards } from '../src/cards';
import { type Composition, compositionOfCards, compositionOfDecks, removeCards } from '../src/composition';
import { playCoup } from '../src/coup';
import type { CoupEvents } from '../src/events';
import { exactOdds, houseEdge, houseEdgeExact, probabilities, ratioToNumber } from '../src/odds';

const fallingFactorial = (n: number, k: number) => {
  let out = 1n;
  for (let i = 0; i < k; i++) out *= BigInt(n - i);
  return out;
};

type Counts = CoupEvents<bigint> & { total: bigint };

/**
 * Brute force: play every ordered 6-card sequence of a small multiset (each physical card distinct, as
 * the published convention counts them) through playCoup, and count every event from the coup as
 * playCoup reports it — without the leaf tables of events.ts.
 */
function bruteForce(cards: Card[]): Counts {
  const margin = () => ({ 4: 0n, 5: 0n, 6: 0n, 7: 0n, 8: 0n, 9: 0n });
  const c: Counts = {
    total: 0n,
    player: 0n,
    banker: 0n,
    tie: 0n,
    natural: 0n,
    dragonBonusPlayer: { naturalWin: 0n, naturalTie: 0n, margin: margin() },
    dragonBonusBanker: { naturalWin: 0n, naturalTie: 0n, margin: margin() },
    dragon7: 0n,
    panda8: 0n,
    bankerWinOn6: 0n,
    small: 0n,
    big: 0n,
    playerPair: 0n,
    bankerPair: 0n,
    eitherPair: 0n,
    perfectPairOne: 0n,
    perfectPairBoth: 0n,
  };
  const used = new Array<boolean>(cards.length).fill(false);
  const seq: Card[] = [];
  const count = () => {
    const coup = playCoup(seq);
    const { player: p, banker: b } = coup;
    c.total++;
    c[coup.winner === 'BANKER' ? 'banker' : coup.winner === 'PLAYER' ? 'player' : 'tie']++;
    if (coup.natural) c.natural++;
    if (coup.playerPair) c.playerPair++;
    if (coup.bankerPair) c.bankerPair++;
    if (coup.playerPair || coup.bankerPair) c.eitherPair++;
    const suited = Number(p.cards[0] === p.cards[1]) + Number(b.cards[0] === b.cards[1]);
    if (suited === 1) c.perfectPairOne++;
    if (suited === 2) c.perfectPairBoth++;
    if (coup.cardsUsed === 4) c.small++;
    else c.big++;
    if (coup.winner === 'TIE' && coup.playerNatural && coup.bankerNatural) {
      c.dragonBonusPlayer.naturalTie++;
      c.dragonBonusBanker.naturalTie++;
    }
    if (coup.winner !== 'TIE') {
      const mine = coup.winner === 'PLAYER' ? c.dragonBonusPlayer : c.dragonBonusBanker;
      const natural = coup.winner === 'PLAYER' ? coup.playerNatural : coup.bankerNatural;
      const m = Math.abs(p.total - b.total);
      if (natural) mine.naturalWin++;
      else if (m >= 4) mine.margin[m as 4]++;
    }
    if (coup.winner === 'BANKER' && b.cards.length === 3 && b.total === 7) c.dragon7++;
    if (coup.winner === 'PLAYER' && p.cards.length === 3 && p.total === 8) c.panda8++;
    if (coup.winner === 'BANKER' && b.total === 6) c.bankerWinOn6++;
  };
  const walk = () => {
    if (seq.length === 6) return count();
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
  return c;
}

const countsOf = ({ cards: _, ...counts }: ReturnType<typeof exactOdds>): Counts => counts;

/** `a / b === c / d` exactly. */
const sameRatio = (a: bigint, b: bigint, c: bigint, d: bigint) => a * d === c * b;

describe('exact odds', () => {
  it('8 decks: the published totals', () => {
    const odds = exactOdds(compositionOfDecks(8));
    expect(odds.total).toBe(4_998_398_275_503_360n);
    expect(odds.total).toBe(fallingFactorial(416, 6));
    expect(odds.banker).toBe(2_292_252_566_437_888n);
    expect(odds.player).toBe(2_230_518_282_592_256n);
    expect(odds.tie).toBe(475_627_426_473_216n);
    expect(odds.banker + odds.player + odds.tie).toBe(odds.total);
    expect(odds.small + odds.big).toBe(odds.total);
  });

  it('8 decks: house edges Banca 1.06%, Punto 1.24%, Empate 14.36% (4.84% at 9:1), pairs 10.36%', () => {
    const odds = exactOdds(compositionOfDecks(8));
    const edge = houseEdge(tablePreset('full'), odds);
    expect(edge.banker).toBeCloseTo(0.010579, 6);
    expect(edge.player).toBeCloseTo(0.012351, 6);
    expect(edge.tie).toBeCloseTo(0.143596, 6);
    expect(edge.playerPair).toBeCloseTo(0.103614, 6);
    expect(edge.bankerPair).toBe(edge.playerPair);
    expect(houseEdge(tablePreset('full', { tiePays: 9 }), odds).tie).toBeCloseTo(0.04844, 6);
    // no commission: Banca is the favourite, the house edge turns negative
    expect(houseEdge(tablePreset('full', { commission: { rateBps: 0 } }), odds).banker).toBeCloseTo(
      -0.012351,
      6,
    );
    // seed 002's 10%
    expect(houseEdge(tablePreset('full', { commission: { rateBps: 1000 } }), odds).banker).toBeCloseTo(
      0.033509,
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
    expect(edge.banker).toBeCloseTo(0.010558, 6);
    expect(edge.player).toBeCloseTo(0.012374, 6);
    expect(edge.tie).toBeCloseTo(0.144382, 6);
    expect(edge.playerPair).toBeCloseTo(0.11254, 6);
  });

  // An independent check of the value-level enumeration and the pair combinatorics on shoes small
  // enough to play every ordered sequence card by card: ranks mixed so pairs, tens/faces and both
  // naturals occur; identical cards (a multi-deck shoe) so perfect pairs occur.
  const small: [string, Composition][] = [
    ['10 mixed cards', compositionOfCards(parseCards('AS 2H 3D 4C 5S 9H TD KC KS 8H'))],
    ['9 cards, repeated ranks', compositionOfCards(parseCards('6S 6H 7D 7C QS QH 2D 3C 4H'))],
    ['10 cards, identical pairs', compositionOfCards(parseCards('QH QH 4S 4S 4S 7D 9C AC 3H 6D'))],
    ['9 cards, three-card 7s and 8s', compositionOfCards(parseCards('2S AH 4D 2C 4S 3D 3S 5C KH'))],
    ['1 deck partly dealt to 9 cards', removeCards(compositionOfDecks(1), [...canonicalLeaving9()])],
  ];
  it.each(small)('matches a card-by-card brute force, every event: %s', (_, composition) => {
    const cards: Card[] = [];
    composition.forEach((n, card) => {
      for (let i = 0; i < n; i++) cards.push(card);
    });
    expect(countsOf(exactOdds(composition))).toEqual(bruteForce(cards));
  });

  it('refuses a shoe with fewer than 6 cards, and a composition that is not one count per card', () => {
    expect(() => exactOdds(compositionOfCards(parseCards('AS 2S 3S 4S 5S')))).toThrow(RangeError);
    expect(() => exactOdds(new Array(13).fill(32))).toThrow(RangeError);
  });
});

/**
 * The Wizard of Odds' published analyses (docs/rules.md cites each page): exact counts where the page
 * prints exact integers, the house edge to the digits printed elsewhere.
 */
describe('side bets against the published figures (Wizard of Odds)', () => {
  const eight = exactOdds(compositionOfDecks(8));
  const six = exactOdds(compositionOfDecks(6));
  const edge8 = houseEdge(tablePreset('full'), eight);
  const edge6 = houseEdge(tablePreset('mini'), six);

  it('Dragon Bonus, 8 decks: every combination count of both tables; edges 2.65% / 9.37%', () => {
    expect(eight.dragonBonusPlayer).toEqual({
      naturalWin: 812_685_054_124_032n,
      naturalTie: 89_325_908_267_520n,
      margin: {
        9: 18_409_431_764_992n,
        8: 34_097_645_543_424n,
        7: 89_590_261_473_280n,
        6: 141_238_897_317_888n,
        5: 166_169_165_987_840n,
        4: 186_780_352_174_080n,
      },
    });
    expect(eight.dragonBonusBanker).toEqual({
      naturalWin: 812_685_054_124_032n,
      naturalTie: 89_325_908_267_520n,
      margin: {
        9: 15_390_342_909_952n,
        8: 28_305_092_784_128n,
        7: 79_517_099_278_336n,
        6: 119_200_072_366_080n,
        5: 157_275_882_332_160n,
        4: 201_147_167_287_296n,
      },
    });
    expect(edge8.dragonBonusPlayer).toBeCloseTo(0.026517, 6);
    expect(edge8.dragonBonusBanker).toBeCloseTo(0.093731, 6);
  });

  it('Dragon Bonus, 6 decks: 2.67% / 9.39%', () => {
    expect(Math.round(edge6.dragonBonusPlayer * 10_000) / 100).toBe(2.67);
    expect(Math.round(edge6.dragonBonusBanker * 10_000) / 100).toBe(9.39);
  });

  it('EZ Baccarat, 8 decks: Dragon 7 and Panda 8 counts; edges Banca 1.0183%, Dragon 7 7.6113%, Panda 8 10.1876%', () => {
    expect(eight.dragon7).toBe(112_633_011_329_024n);
    expect(eight.panda8).toBe(172_660_763_262_976n);
    expect(edge8.ezBanker).toBeCloseTo(0.010183, 6);
    expect(edge8.dragon7).toBeCloseTo(0.076113, 6);
    expect(edge8.panda8).toBeCloseTo(0.101876, 6);
  });

  it('Banca wins on 6 (Lucky 6 page, 8 decks): 186,173,936,904,192 + 83,058,367,551,488', () => {
    expect(eight.bankerWinOn6).toBe(186_173_936_904_192n + 83_058_367_551_488n);
    // the no-commission Banca (win on 6 pays 1:2): 1.4581% (E. Jacobson; not a Wizard of Odds figure)
    expect(edge8.noCommissionBanker).toBeCloseTo(0.014581, 6);
  });

  it('Perfect Pair: the probabilities of one and two perfect pairs equal the published combinations', () => {
    // 8 decks: 244,747,776 one, 2,101,008 two, of 7,379,583,120 (unordered two-card hands)
    expect(sameRatio(eight.perfectPairOne, eight.total, 244_747_776n, 7_379_583_120n)).toBe(true);
    expect(sameRatio(eight.perfectPairBoth, eight.total, 2_101_008n, 7_379_583_120n)).toBe(true);
    // 6 decks, either hand: 74,114,820 of 2,323,673,820
    expect(sameRatio(six.perfectPairOne + six.perfectPairBoth, six.total, 74_114_820n, 2_323_673_820n)).toBe(
      true,
    );
  });

  it('Perfect Pair pay tables: version 1 (25:1 either) 13.03% / 17.07%, version 2 (25 / 250) 6.62%', () => {
    const perfect = (pays: number, paysBoth: number): SideBets => ({
      PERFECT_PAIR: {
        pays: { win: pays, per: 1 },
        paysBoth: { win: paysBoth, per: 1 },
        limit: { min: 1, max: 1 },
      },
    });
    const v1 = tablePreset('full', { sideBets: perfect(25, 25) });
    const v2 = tablePreset('full', { sideBets: perfect(25, 250) });
    expect(houseEdge(v1, eight).perfectPair).toBeCloseTo(0.130294, 6);
    expect(houseEdge(v1, six).perfectPair).toBeCloseTo(0.170716, 6);
    expect(houseEdge(v2, eight).perfectPair).toBeCloseTo(0.066235, 6);
  });

  it('Small (the 4-5-6 bet, 4 cards at 3:2): 5.283% at 8 decks, 5.2688% at 6; Big follows from 5 and 6 cards', () => {
    // The page prints P(4 cards) to 6 digits and the return computed from that rounded probability.
    expect(probabilities(eight).small).toBeCloseTo(0.378868, 6);
    expect(probabilities(six).small).toBeCloseTo(0.378925, 6);
    expect(edge8.small).toBeCloseTo(0.05283, 5);
    expect(edge6.small).toBeCloseTo(0.052688, 5);
    // the page's probabilities of 5 and 6 cards, 8 decks: 0.303444 + 0.317687
    expect(probabilities(eight).big).toBeCloseTo(0.303444 + 0.317687, 5);
    expect(edge8.big).toBeCloseTo(1 - 1.54 * (0.303444 + 0.317687), 5);
  });

  it('the default pay tables are the ones the figures above use', () => {
    const defaults = houseEdgeExact(tablePreset('full'), eight);
    const explicit = houseEdgeExact(
      tablePreset('full', {
        sideBets: {
          DRAGON_7: { pays: DEFAULT_SIDE_BET_PAYS.DRAGON_7.pays, limit: { min: 1, max: 1 } },
        },
      }),
      eight,
    );
    expect(explicit).toEqual(defaults);
    expect(ratioToNumber(defaults.super6)).toBeCloseTo(1 - 13 * 0.053863716, 6);
  });
});

/** The 43 cards to remove from one deck to leave A,2,3,5,8,T,J,K,K (a partly dealt shoe). */
function canonicalLeaving9(): Card[] {
  const keep = parseCards('AS 2S 3S 5S 8S TS JS KS KH');
  const out: Card[] = [];
  for (let c = 0; c < 52; c++) if (!keep.includes(c)) out.push(c);
  return out;
}
