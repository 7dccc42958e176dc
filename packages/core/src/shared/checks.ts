/** Validators of the inputs every context takes: ids, free text, currencies, player ids, amounts. */
import { ID_GRAMMAR, isCurrency, PLAYER_ID_PATTERN, RESOURCE_ID_PATTERN } from '@pyb/contracts';
import { textProblem } from '@pyb/fairness';
import { invalid } from './problems';

/** An id the platform minted (table, shoe, round): the grammar of @pyb/contracts. */
export function checkId(name: string, value: unknown): string {
  if (typeof value !== 'string' || !RESOURCE_ID_PATTERN.test(value)) {
    throw invalid('INVALID_INPUT', `${name} must be ${ID_GRAMMAR.resource}`);
  }
  return value;
}

/** Free text (a note, a reference, a name): clean, well-formed Unicode (@pyb/fairness textProblem). */
export function checkText(name: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length > max) {
    throw invalid('INVALID_INPUT', `${name} must be at most ${max} characters`);
  }
  const problem = textProblem(value);
  if (problem) throw invalid('INVALID_INPUT', `${name} ${problem}`);
  return value;
}

/** An ISO 4217 currency code (the list of @pyb/contracts). */
export function checkCurrency(value: unknown): string {
  if (!isCurrency(value)) throw invalid('INVALID_INPUT', 'currency must be an ISO 4217 code such as EUR');
  return value;
}

/** The operator's id for a player: the grammar of @pyb/contracts. */
export function checkPlayerId(value: unknown): string {
  if (typeof value !== 'string' || !PLAYER_ID_PATTERN.test(value)) {
    throw invalid('INVALID_INPUT', `playerId must be ${ID_GRAMMAR.player}`);
  }
  return value;
}

export function checkAmount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw invalid('AMOUNT_INVALID', `${name} must be a positive safe integer (minor units)`);
  }
  return value;
}
