import type { Bet } from './bets';
import { RANK_OF } from './cards';
import {
  type BetType,
  DEFAULT_SIDE_BET_PAYS,
  type Pays,
  SIDE_BET_TYPES,
  type SideBetType,
  type TableConfig,
} from './config';
import type { CoupResult, Hand, Winner } from './coup';

export interface BetSettlement {
  type: BetType;
  amount: number;
  result: 'WIN' | 'LOSE' | 'PUSH';
  /** total credited back to the wallet now: stake + net win − commission deducted now */
  payout: number;
  /** commission deducted now (AT_PAYMENT); 0 in DEFERRED mode */
  commission: number;
  /** commission added to the player's debt (DEFERRED); 0 in AT_PAYMENT mode */
  commissionOwed: number;
}

export interface PositionSettlement {
  bets: BetSettlement[];
  stake: number;
  payout: number;
  commission: number;
  commissionOwed: number;
}

/**
 * What settlement needs from a coup: the winner and both hands (cards in the order dealt, totals).
 * Pairs, suited pairs, naturals, three-card hands and the number of cards all follow from the hands.
 */
export type CoupOutcome = Pick<CoupResult, 'winner' | 'player' | 'banker'>;

/** Pair side bets pay 11:1 (brief §3). */
export const PAIR_PAYS = 11;

const EVEN: Pays = { win: 1, per: 1 };
/** A Super 6 table pays a Banca win on 6 at 1:2 (half the stake). */
export const SUPER_6_BANKER_WIN_ON_6: Pays = { win: 1, per: 2 };

/** The facts of a coup every bet type is settled from. */
export interface CoupFacts {
  winner: Winner;
  playerTotal: number;
  bankerTotal: number;
  /** 8 or 9 on the hand's first two cards (a two-card hand of 8 or 9 is always one) */
  playerNatural: boolean;
  bankerNatural: boolean;
  playerThreeCards: boolean;
  bankerThreeCards: boolean;
  /** first two cards of equal rank (K-K yes, T-K no) */
  playerPair: boolean;
  bankerPair: boolean;
  /** first two cards identical in rank and suit (a "perfect pair"; possible with 2+ decks) */
  playerSuitedPair: boolean;
  bankerSuitedPair: boolean;
  /** 4..6 */
  cards: number;
}

const handFacts = (hand: Hand) => {
  const [a, b] = hand.cards;
  if (a === undefined || b === undefined || hand.cards.length > 3)
    throw new RangeError('a hand has two or three cards');
  return {
    natural: hand.cards.length === 2 && hand.total >= 8,
    three: hand.cards.length === 3,
    pair: RANK_OF[a] === RANK_OF[b],
    suited: a === b,
  };
};

export function coupFacts(coup: CoupOutcome): CoupFacts {
  const p = handFacts(coup.player);
  const b = handFacts(coup.banker);
  return {
    winner: coup.winner,
    playerTotal: coup.player.total,
    bankerTotal: coup.banker.total,
    playerNatural: p.natural,
    bankerNatural: b.natural,
    playerThreeCards: p.three,
    bankerThreeCards: b.three,
    playerPair: p.pair,
    bankerPair: b.pair,
    playerSuitedPair: p.suited,
    bankerSuitedPair: b.suited,
    cards: coup.player.cards.length + coup.banker.cards.length,
  };
}

/**
 * Commission on a Banca net win: ceil(netWin × rateBps / 10000). The house keeps the fraction: a win
 * of 15 at 5% owes 0.75, rounded up to 1 minor unit. BigInt so no amount can lose precision.
 */
export function commissionOn(config: TableConfig, netWin: number): number {
  if (!Number.isSafeInteger(netWin) || netWin < 0)
    throw new RangeError(`net win must be a safe integer >= 0`);
  const product = BigInt(netWin) * BigInt(config.commission.rateBps);
  return Number((product + 9_999n) / 10_000n);
}

/**
 * Net win of a stake at a payout: floor(stake × win / per). The house keeps the fraction, as with the
 * commission: Big at 0.54:1 on 15 wins 8 (8.1), a Super 6 Banca win on 6 at 1:2 on 15 wins 7 (7.5).
 * BigInt so no amount can lose precision.
 */
export function netWinAt(stake: number, pays: Pays): number {
  if (!Number.isSafeInteger(stake) || stake < 0) throw new RangeError('stake must be a safe integer >= 0');
  const net = Number((BigInt(stake) * BigInt(pays.win)) / BigInt(pays.per));
  if (!Number.isSafeInteger(net)) throw new RangeError('payout exceeds the safe integer range');
  return net;
}

/** Does this table charge commission on Banca wins (no EZ or Super 6 mode)? */
export const chargesCommission = (config: TableConfig): boolean => config.bankerMode === undefined;

type Outcome = { result: 'LOSE' | 'PUSH' } | { result: 'WIN'; pays: Pays };
const LOSE: Outcome = { result: 'LOSE' };
const PUSH: Outcome = { result: 'PUSH' };
const win = (pays: Pays): Outcome => ({ result: 'WIN', pays });

/** A side bet's pay table: the table's, or the default when absent (validateBets refuses that case). */
const sideBets = (config: TableConfig) => config.sideBets ?? {};

function dragonBonus(config: TableConfig, side: 'PLAYER' | 'BANKER', f: CoupFacts): Outcome {
  const table =
    (side === 'PLAYER' ? sideBets(config).DRAGON_BONUS_PLAYER : sideBets(config).DRAGON_BONUS_BANKER) ??
    DEFAULT_SIDE_BET_PAYS.DRAGON_BONUS;
  const natural = side === 'PLAYER' ? f.playerNatural : f.bankerNatural;
  if (f.winner === 'TIE') return f.playerNatural && f.bankerNatural ? PUSH : LOSE;
  if (f.winner !== side) return LOSE;
  if (natural) return win(table.natural);
  const margin = Math.abs(f.playerTotal - f.bankerTotal);
  return margin >= 4 ? win(table.margin[margin as 4 | 5 | 6 | 7 | 8 | 9]) : LOSE;
}

/** The rules of each bet type (docs/rules.md, "Bets and payouts" and "Side bets and variants"). */
function outcomeOf(config: TableConfig, type: BetType, f: CoupFacts): Outcome {
  const side = sideBets(config);
  switch (type) {
    case 'PLAYER':
      return f.winner === 'PLAYER' ? win(EVEN) : f.winner === 'TIE' ? PUSH : LOSE;
    case 'BANKER':
      if (f.winner === 'TIE') return PUSH;
      if (f.winner === 'PLAYER') return LOSE;
      if (config.bankerMode === 'EZ' && f.bankerThreeCards && f.bankerTotal === 7) return PUSH;
      if (config.bankerMode === 'SUPER_6' && f.bankerTotal === 6) return win(SUPER_6_BANKER_WIN_ON_6);
      return win(EVEN);
    case 'TIE':
      return f.winner === 'TIE' ? win({ win: config.tiePays, per: 1 }) : LOSE;
    case 'PLAYER_PAIR':
      return f.playerPair ? win({ win: PAIR_PAYS, per: 1 }) : LOSE;
    case 'BANKER_PAIR':
      return f.bankerPair ? win({ win: PAIR_PAYS, per: 1 }) : LOSE;
    case 'EITHER_PAIR':
      return f.playerPair || f.bankerPair
        ? win((side.EITHER_PAIR ?? DEFAULT_SIDE_BET_PAYS.EITHER_PAIR).pays)
        : LOSE;
    case 'PERFECT_PAIR': {
      const table = side.PERFECT_PAIR ?? DEFAULT_SIDE_BET_PAYS.PERFECT_PAIR;
      if (f.playerSuitedPair && f.bankerSuitedPair) return win(table.paysBoth);
      return f.playerSuitedPair || f.bankerSuitedPair ? win(table.pays) : LOSE;
    }
    case 'DRAGON_BONUS_PLAYER':
      return dragonBonus(config, 'PLAYER', f);
    case 'DRAGON_BONUS_BANKER':
      return dragonBonus(config, 'BANKER', f);
    case 'DRAGON_7':
      return f.winner === 'BANKER' && f.bankerThreeCards && f.bankerTotal === 7
        ? win((side.DRAGON_7 ?? DEFAULT_SIDE_BET_PAYS.DRAGON_7).pays)
        : LOSE;
    case 'PANDA_8':
      return f.winner === 'PLAYER' && f.playerThreeCards && f.playerTotal === 8
        ? win((side.PANDA_8 ?? DEFAULT_SIDE_BET_PAYS.PANDA_8).pays)
        : LOSE;
    case 'SUPER_6':
      return f.winner === 'BANKER' && f.bankerTotal === 6
        ? win((side.SUPER_6 ?? DEFAULT_SIDE_BET_PAYS.SUPER_6).pays)
        : LOSE;
    case 'BIG':
      return f.cards >= 5 ? win((side.BIG ?? DEFAULT_SIDE_BET_PAYS.BIG).pays) : LOSE;
    case 'SMALL':
      return f.cards === 4 ? win((side.SMALL ?? DEFAULT_SIDE_BET_PAYS.SMALL).pays) : LOSE;
  }
}

function settleWithFacts(config: TableConfig, bet: Bet, f: CoupFacts): BetSettlement {
  const outcome = outcomeOf(config, bet.type, f);
  const settled: BetSettlement = {
    type: bet.type,
    amount: bet.amount,
    result: outcome.result,
    payout: 0,
    commission: 0,
    commissionOwed: 0,
  };
  if (outcome.result === 'PUSH') settled.payout = bet.amount;
  if (outcome.result === 'WIN') {
    const net = netWinAt(bet.amount, outcome.pays);
    const commission = bet.type === 'BANKER' && chargesCommission(config) ? commissionOn(config, net) : 0;
    if (config.commission.mode === 'AT_PAYMENT') {
      settled.payout = bet.amount + net - commission;
      settled.commission = commission;
    } else {
      settled.payout = bet.amount + net;
      settled.commissionOwed = commission;
    }
  }
  if (!Number.isSafeInteger(settled.payout)) throw new RangeError('payout exceeds the safe integer range');
  return settled;
}

/**
 * What each side bet the table offers (`sideBets`, in the engine's order) did in a coup: the result of
 * a side bet does not depend on its stake, so a results panel can show it for everyone.
 */
export function sideBetResults(
  config: TableConfig,
  coup: CoupOutcome,
): { type: SideBetType; result: BetSettlement['result'] }[] {
  const facts = coupFacts(coup);
  return SIDE_BET_TYPES.filter((type) => config.sideBets?.[type] !== undefined).map((type) => ({
    type,
    result: outcomeOf(config, type, facts).result,
  }));
}

/**
 * Settles one position. Amounts are integer minor units; commission is per bet (one Banca bet per
 * position), rounded as `commissionOn` says; payouts that are not whole multiples round as `netWinAt`
 * says (both in favour of the house). The stakes were debited when the bets were placed, so `payout` is
 * what goes back to the wallet now; `commissionOwed` is debt in DEFERRED mode.
 */
export function settle(config: TableConfig, bets: readonly Bet[], coup: CoupOutcome): PositionSettlement {
  const facts = coupFacts(coup);
  const settled = bets.map((bet) => settleWithFacts(config, bet, facts));
  const sum = (f: (b: BetSettlement) => number) => settled.reduce((acc, b) => acc + f(b), 0);
  return {
    bets: settled,
    stake: sum((b) => b.amount),
    payout: sum((b) => b.payout),
    commission: sum((b) => b.commission),
    commissionOwed: sum((b) => b.commissionOwed),
  };
}

/**
 * DEFERRED cover check: what the open Banca bets would add to the debt if they all won. A player must
 * hold his debt plus this (seed 000: commissions are paid when the shoe ends or he leaves). 0 in
 * AT_PAYMENT mode, where commission comes out of the win itself, and on EZ / Super 6 tables, which take
 * none.
 */
export function worstCaseCommission(config: TableConfig, bets: readonly Bet[]): number {
  if (config.commission.mode !== 'DEFERRED' || !chargesCommission(config)) return 0;
  return bets.reduce((acc, bet) => (bet.type === 'BANKER' ? acc + commissionOn(config, bet.amount) : acc), 0);
}
