import type { Bet } from './bets';
import type { BetType, TableConfig } from './config';
import type { CoupResult } from './coup';

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

/** What settlement needs from a coup (a CoupResult, or one decoded from the hot path). */
export type CoupOutcome = Pick<CoupResult, 'winner' | 'playerPair' | 'bankerPair'>;

/** Pair side bets pay 11:1 (brief §3). */
export const PAIR_PAYS = 11;

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

/** Net win (excluding the stake) of a winning bet of this type, before commission. */
const netWinOf = (config: TableConfig, type: BetType, amount: number): number => {
  switch (type) {
    case 'PLAYER':
    case 'BANKER':
      return amount;
    case 'TIE':
      return amount * config.tiePays;
    case 'PLAYER_PAIR':
    case 'BANKER_PAIR':
      return amount * PAIR_PAYS;
  }
};

const resultOf = (type: BetType, coup: CoupOutcome): BetSettlement['result'] => {
  switch (type) {
    case 'PLAYER':
      return coup.winner === 'PLAYER' ? 'WIN' : coup.winner === 'TIE' ? 'PUSH' : 'LOSE';
    case 'BANKER':
      return coup.winner === 'BANKER' ? 'WIN' : coup.winner === 'TIE' ? 'PUSH' : 'LOSE';
    case 'TIE':
      return coup.winner === 'TIE' ? 'WIN' : 'LOSE';
    case 'PLAYER_PAIR':
      return coup.playerPair ? 'WIN' : 'LOSE';
    case 'BANKER_PAIR':
      return coup.bankerPair ? 'WIN' : 'LOSE';
  }
};

export function settleBet(config: TableConfig, bet: Bet, coup: CoupOutcome): BetSettlement {
  const result = resultOf(bet.type, coup);
  const settled: BetSettlement = {
    type: bet.type,
    amount: bet.amount,
    result,
    payout: 0,
    commission: 0,
    commissionOwed: 0,
  };
  if (result === 'PUSH') settled.payout = bet.amount;
  if (result === 'WIN') {
    const net = netWinOf(config, bet.type, bet.amount);
    const commission = bet.type === 'BANKER' ? commissionOn(config, net) : 0;
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
 * Settles one position. Amounts are integer minor units; commission is per bet (one Banca bet per
 * position), rounded as `commissionOn` says. The stakes were debited when the bets were placed, so
 * `payout` is what goes back to the wallet now; `commissionOwed` is debt in DEFERRED mode.
 */
export function settle(config: TableConfig, bets: readonly Bet[], coup: CoupOutcome): PositionSettlement {
  const settled = bets.map((bet) => settleBet(config, bet, coup));
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
 * AT_PAYMENT mode, where commission comes out of the win itself.
 */
export function worstCaseCommission(config: TableConfig, bets: readonly Bet[]): number {
  if (config.commission.mode !== 'DEFERRED') return 0;
  return bets.reduce((acc, bet) => (bet.type === 'BANKER' ? acc + commissionOn(config, bet.amount) : acc), 0);
}
