/**
 * Pure helpers over recorded coups and bets, shared by every side that reads them back: the core's use
 * cases, views and audit checks, the fairness verifier and the CLI. One definition each.
 */

import type { Bet } from './bets';
import { type Card, formatCard, NO_CARD } from './cards';
import { BET_TYPES, type BetType } from './config';
import type { CoupResult } from './coup';

/** Cards in the order they left the shoe (the steps log, without the stand decisions). */
export const dealtCards = (result: CoupResult): Card[] =>
  result.steps.filter((s) => s.action !== 'STAND').map((s) => s.card);

/** A position's bets as the engine takes them: in the engine's bet-type order, zero amounts left out. */
export const betList = (bets: Partial<Record<BetType, number>>): Bet[] =>
  BET_TYPES.filter((t) => (bets[t] ?? 0) > 0).map((type) => ({ type, amount: bets[type]! }));

/** Notation of a stored card (`KH`); a stored value that is no card shows as `?<value>`, never a crash. */
export const showCard = (card: number): string => {
  try {
    return formatCard(card);
  } catch {
    return `?${String(card)}`;
  }
};

/** Cards in notation separated by spaces; `(none)` for none. */
export const cardsText = (cards: readonly number[]): string => cards.map(showCard).join(' ') || '(none)';

/** A hand in notation: its cards and its total. */
export const handNotation = (hand: { cards: readonly number[]; total: number }) => ({
  cards: hand.cards.map(showCard),
  total: hand.total,
});

/** The card a step dealt, in notation; null for a stand decision. */
export const stepCard = (step: CoupResult['steps'][number]): string | null =>
  step.action === 'STAND' || step.card === NO_CARD ? null : showCard(step.card);

/** A coup's outcome in notation: both hands, the winner, the natural and pair marks. */
export const coupOutcome = (result: CoupResult) => ({
  player: handNotation(result.player),
  banker: handNotation(result.banker),
  winner: result.winner,
  natural: result.natural,
  playerPair: result.playerPair,
  bankerPair: result.bankerPair,
});
