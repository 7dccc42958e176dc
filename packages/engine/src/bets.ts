import { BET_TYPES, type BetType, betLimit, type TableConfig } from './config';

/** One bet of a position (one seat, one player, one coup). Integer minor units, > 0. */
export interface Bet {
  type: BetType;
  amount: number;
}

export type BetRuleCode =
  | 'BET_PLAYER_AND_BANKER'
  | 'BET_DUPLICATE_TYPE'
  | 'BET_BELOW_MIN'
  | 'BET_ABOVE_MAX'
  | 'BET_SIDE_DISABLED'
  | 'BET_AMOUNT_INVALID'
  | 'BET_TYPE_INVALID'
  | 'BET_EMPTY';

/** A bet the table rules refuse. `code` is stable (the API maps it to a problem+json code). */
export class BetRuleError extends Error {
  constructor(
    readonly code: BetRuleCode,
    message: string,
    readonly betType?: BetType,
  ) {
    super(message);
    this.name = 'BetRuleError';
  }
}

/**
 * Checks the bets of one position for one coup (seed 000 and 004):
 * at least one bet; each a known type and a positive safe integer; one bet per type; never Punto and
 * Banca together (Empate alone or with either); a pair or side bet only where the table offers it
 * (`pairBets`, `sideBets`); each within the table's min/max for its type. Side bets need no main bet
 * and combine freely (Big with Small, both Dragon Bonus sides): each is settled on its own. "One place
 * per player per coup" is the caller's: it holds one position (one bet list) per player per round.
 */
export function validateBets(config: TableConfig, bets: readonly Bet[]): void {
  if (bets.length === 0) throw new BetRuleError('BET_EMPTY', 'a position needs at least one bet');
  const seen = new Set<BetType>();
  for (const bet of bets) {
    if (!BET_TYPES.includes(bet.type)) {
      throw new BetRuleError('BET_TYPE_INVALID', `unknown bet type ${String(bet.type)}`);
    }
    if (!Number.isSafeInteger(bet.amount) || bet.amount <= 0) {
      throw new BetRuleError(
        'BET_AMOUNT_INVALID',
        `a ${bet.type} bet must be a positive integer amount in minor units`,
        bet.type,
      );
    }
    if (seen.has(bet.type)) {
      throw new BetRuleError('BET_DUPLICATE_TYPE', `only one ${bet.type} bet per position`, bet.type);
    }
    seen.add(bet.type);
  }
  if (seen.has('PLAYER') && seen.has('BANKER')) {
    throw new BetRuleError('BET_PLAYER_AND_BANKER', 'Punto and Banca cannot both be bet in the same coup');
  }
  for (const bet of bets) {
    const limit = betLimit(config, bet.type);
    if (!limit) {
      throw new BetRuleError('BET_SIDE_DISABLED', `this table does not offer ${bet.type}`, bet.type);
    }
    if (bet.amount < limit.min) {
      throw new BetRuleError(
        'BET_BELOW_MIN',
        `${bet.type} minimum is ${limit.min} (got ${bet.amount})`,
        bet.type,
      );
    }
    if (bet.amount > limit.max) {
      throw new BetRuleError(
        'BET_ABOVE_MAX',
        `${bet.type} maximum is ${limit.max} (got ${bet.amount})`,
        bet.type,
      );
    }
  }
}
