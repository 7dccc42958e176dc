import { type Card, formatCard, NO_CARD, POINT_VALUES, pointValue, RANK_OF, rankOf } from './cards';
import { BANKER_DRAWS, bankerDraws, bankerRule, NO_THIRD, playerDraws, playerRule } from './tableau';

export type Winner = 'PLAYER' | 'BANKER' | 'TIE';
export type Side = 'PLAYER' | 'BANKER';

export interface Hand {
  cards: Card[];
  total: number;
}

/**
 * One entry of the coup's log: a card dealt (action DEAL / DRAW) or a stand decision (action STAND,
 * card = NO_CARD = -1). `rule` is a stable code for replay; `note` says it in words.
 * Rule codes: INITIAL; NATURAL_8 / NATURAL_9 (the natural hand), STANDS_ON_NATURAL (the other hand);
 * PLAYER_DRAWS_0_5 / PLAYER_STANDS_6_7; Banca's codes from `bankerRule` (tableau.ts).
 */
export interface CoupStep {
  card: Card;
  to: Side;
  rule: string;
  note: string;
  action: 'DEAL' | 'DRAW' | 'STAND';
}

export interface CoupResult {
  player: Hand;
  banker: Hand;
  winner: Winner;
  natural: boolean;
  playerNatural: boolean;
  bankerNatural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  /** 4..6 */
  cardsUsed: number;
  steps: CoupStep[];
}

export class NotEnoughCardsError extends Error {
  readonly code = 'NOT_ENOUGH_CARDS';
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(`the coup needs card #${needed} but only ${available} card(s) are left`);
    this.name = 'NotEnoughCardsError';
  }
}

const HAND_NAME: Record<Side, string> = { PLAYER: 'Punto', BANKER: 'Banca' };
const ORDINAL = ['first', 'second'];

/**
 * Where a coup's cards come from, one at a time, in the order the tableau asks for them. A fixed
 * order (`playCoup`) is one source; a shoe that draws each card only when it is needed
 * (pyb-shoe/3, packages/fairness) is another: the tableau, not the source, decides how many.
 */
export interface CardSource {
  /** The coup's card number `n` (0-based, in deal order); throws NotEnoughCardsError if none is left. */
  card(n: number): Card;
}

/** The cards of a fixed order from `offset` on. */
export const orderSource = (cards: ArrayLike<Card>, offset = 0): CardSource => ({
  card(n) {
    if (offset + n >= cards.length) throw new NotEnoughCardsError(n + 1, cards.length - offset);
    return cards[offset + n]!;
  },
});

/**
 * Plays one coup from `cards`, starting at `offset`, with the full step log (replay, CLI, API).
 * Deal order P, B, P, B; naturals end the coup; then Punto's rule and Banca's tableau (seed 000).
 * The simulation hot path is `coupCode`, which must agree with this function (tested).
 */
export function playCoup(cards: ArrayLike<Card>, offset = 0): CoupResult {
  return playCoupFrom(orderSource(cards, offset));
}

/** `playCoup` with its cards asked of `source` one at a time (never more than the tableau needs). */
export function playCoupFrom(source: CardSource): CoupResult {
  let next = 0;
  const take = (): Card => {
    const card = source.card(next++);
    if (!Number.isInteger(card) || card < 0 || card > 51) throw new RangeError(`not a card: ${card}`);
    return card;
  };
  const steps: CoupStep[] = [];
  const player: Card[] = [];
  const banker: Card[] = [];
  for (let i = 0; i < 4; i++) {
    const to: Side = i % 2 === 0 ? 'PLAYER' : 'BANKER';
    const card = take();
    (to === 'PLAYER' ? player : banker).push(card);
    steps.push({
      card,
      to,
      rule: 'INITIAL',
      action: 'DEAL',
      note: `${HAND_NAME[to]}'s ${ORDINAL[i >> 1]} card: ${formatCard(card)}`,
    });
  }
  const total = (hand: Card[]) => hand.reduce((sum, c) => sum + pointValue(c), 0) % 10;
  const p2 = total(player);
  const b2 = total(banker);
  const playerNatural = p2 >= 8;
  const bankerNatural = b2 >= 8;

  if (playerNatural || bankerNatural) {
    for (const [to, points, isNatural] of [
      ['PLAYER', p2, playerNatural],
      ['BANKER', b2, bankerNatural],
    ] as const) {
      steps.push({
        card: NO_CARD,
        to,
        action: 'STAND',
        rule: isNatural ? `NATURAL_${points}` : 'STANDS_ON_NATURAL',
        note: isNatural
          ? `${HAND_NAME[to]} has a natural ${points}: no more cards`
          : `${HAND_NAME[to]} stands on ${points}: a natural ends the coup`,
      });
    }
  } else {
    let playerThird = NO_THIRD;
    if (playerDraws(p2)) {
      const card = take();
      player.push(card);
      playerThird = pointValue(card);
      steps.push({
        card,
        to: 'PLAYER',
        action: 'DRAW',
        rule: playerRule(p2),
        note: `Punto has ${p2} (draws on 0-5): third card ${formatCard(card)}`,
      });
    } else {
      steps.push({
        card: NO_CARD,
        to: 'PLAYER',
        action: 'STAND',
        rule: playerRule(p2),
        note: `Punto stands on ${p2} (stands on 6-7)`,
      });
    }
    const why =
      playerThird === NO_THIRD
        ? `Banca has ${b2} and Punto stood`
        : `Banca has ${b2} and Punto's third card is ${playerThird}`;
    if (bankerDraws(b2, playerThird)) {
      const card = take();
      banker.push(card);
      steps.push({
        card,
        to: 'BANKER',
        action: 'DRAW',
        rule: bankerRule(b2, playerThird),
        note: `${why}: draws ${formatCard(card)}`,
      });
    } else {
      steps.push({
        card: NO_CARD,
        to: 'BANKER',
        action: 'STAND',
        rule: bankerRule(b2, playerThird),
        note: `${why}: stands`,
      });
    }
  }
  const pt = total(player);
  const bt = total(banker);
  return {
    player: { cards: player, total: pt },
    banker: { cards: banker, total: bt },
    winner: pt > bt ? 'PLAYER' : bt > pt ? 'BANKER' : 'TIE',
    natural: playerNatural || bankerNatural,
    playerNatural,
    bankerNatural,
    playerPair: rankOf(player[0]!) === rankOf(player[1]!),
    bankerPair: rankOf(banker[0]!) === rankOf(banker[1]!),
    cardsUsed: player.length + banker.length,
    steps,
  };
}

/*
 * The hot path. `coupCode` returns the coup packed in one small integer so a simulation allocates
 * nothing per coup:
 *   bits 0-1   winner (WINNER_PLAYER, WINNER_BANKER, WINNER_TIE)
 *   bits 2-5   Punto's total          bits 6-9  Banca's total
 *   bit 10 Punto drew a third card,   bit 11 Banca drew one
 *   bit 12 Punto pair, 13 Banca pair (same rank), 14 Punto suited pair, 15 Banca suited pair (same card)
 *   bit 16 Punto natural, 17 Banca natural
 *   bits 18-20 cards used (4..6)
 * or NOT_ENOUGH (-1) when the cards run out before the coup ends. Bits 2-11 (totals and draws) are the
 * coup's "leaf" (events.ts), bits 2-15 its leaf and pair marks: everything a bet is settled on.
 */
export const WINNER_PLAYER = 0;
export const WINNER_BANKER = 1;
export const WINNER_TIE = 2;
export const NOT_ENOUGH = -1;

export function coupCode(cards: Uint8Array, offset: number): number {
  if (offset + 4 > cards.length) return NOT_ENOUGH;
  const c0 = cards[offset]!;
  const c1 = cards[offset + 1]!;
  const c2 = cards[offset + 2]!;
  const c3 = cards[offset + 3]!;
  let pt = POINT_VALUES[c0]! + POINT_VALUES[c2]!;
  if (pt >= 10) pt -= 10;
  let bt = POINT_VALUES[c1]! + POINT_VALUES[c3]!;
  if (bt >= 10) bt -= 10;
  // Card codes are suit * 13 + rank: equal codes are a suited pair, equal ranks a pair.
  let flags =
    (RANK_OF[c0] === RANK_OF[c2] ? 1 << 12 : 0) |
    (RANK_OF[c1] === RANK_OF[c3] ? 1 << 13 : 0) |
    (c0 === c2 ? 1 << 14 : 0) |
    (c1 === c3 ? 1 << 15 : 0);
  let used = 4;
  if (pt >= 8 || bt >= 8) {
    flags |= (pt >= 8 ? 1 << 16 : 0) | (bt >= 8 ? 1 << 17 : 0);
  } else {
    let third = NO_THIRD;
    if (pt <= 5) {
      if (offset + 5 > cards.length) return NOT_ENOUGH;
      third = POINT_VALUES[cards[offset + 4]!]!;
      pt += third;
      if (pt >= 10) pt -= 10;
      used = 5;
      flags |= 1 << 10;
    }
    if (BANKER_DRAWS[bt * 11 + third + 1] === 1) {
      if (offset + used + 1 > cards.length) return NOT_ENOUGH;
      bt += POINT_VALUES[cards[offset + used]!]!;
      if (bt >= 10) bt -= 10;
      used++;
      flags |= 1 << 11;
    }
  }
  const winner = pt > bt ? WINNER_PLAYER : bt > pt ? WINNER_BANKER : WINNER_TIE;
  return winner | (pt << 2) | (bt << 6) | (used << 18) | flags;
}

/** Cards a coup code used (bits 18-20); the other fields are read by the tests (test/coup-code.ts). */
export const codeCardsUsed = (code: number): number => (code >> 18) & 7;
