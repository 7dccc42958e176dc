/**
 * Refusals in words, from the problem's stable `code` (docs/api.md lists them); the `detail` text of
 * the API may change, the code may not. A code this page does not know yet is shown with its detail.
 */
import type { ProblemCode } from '@pyb/contracts';
import { ApiError } from './api';
import { formatMoney } from './money';

/** Punto, Banca, Empate and the side bets, as players call them. */
export const BET_NAMES: Record<string, string> = {
  PLAYER: 'Punto',
  BANKER: 'Banca',
  TIE: 'Empate',
  PLAYER_PAIR: 'Punto pair',
  BANKER_PAIR: 'Banca pair',
  EITHER_PAIR: 'Either pair',
  PERFECT_PAIR: 'Perfect pair',
  DRAGON_BONUS_PLAYER: 'Dragon Bonus Punto',
  DRAGON_BONUS_BANKER: 'Dragon Bonus Banca',
  DRAGON_7: 'Dragon 7',
  PANDA_8: 'Panda 8',
  SUPER_6: 'Super 6',
  BIG: 'Big',
  SMALL: 'Small',
};
export const betName = (type: string): string => BET_NAMES[type] ?? type.replaceAll('_', ' ').toLowerCase();

/**
 * Every code of the registry (`PROBLEMS` in packages/contracts) in words, plus the page's own `NETWORK`:
 * typed by the registry, so a new code is a type error here until it has its sentence.
 */
export const WORDS: Record<ProblemCode | 'NETWORK', string> = {
  NETWORK: 'The API did not answer. Check the connection and try again.',
  MALFORMED_JSON: 'The request was not valid JSON.',
  VALIDATION_FAILED: 'Some input is not valid.',
  IDEMPOTENCY_KEY_REQUIRED: 'The request lacked an Idempotency-Key.',
  IDEMPOTENCY_KEY_INVALID: 'The Idempotency-Key is not valid.',
  IDEMPOTENCY_KEY_IN_FLIGHT: 'The same request is still running. Try again in a moment.',
  IDEMPOTENCY_KEY_REUSED: 'This request key was already used for another request.',
  TABLE_CONFIG_INVALID: 'The table configuration is not valid.',
  CADENCE_TOO_FAST: 'Rounds would start less than 5 seconds apart.',
  CLIENT_SEED_INVALID: 'The client seed is not valid (printable ASCII, up to 128 characters).',
  VOID_REASON_INVALID: 'That is not a reason a round can be voided for.',
  CURSOR_INVALID: 'The page cursor is not valid for this list.',
  INVALID_INPUT: 'Some input is not valid.',
  BET_EMPTY: 'Put a chip on a bet first.',
  BET_AMOUNT_INVALID: 'A bet must be a whole, positive amount.',
  BET_TYPE_INVALID: 'This table does not take that bet.',
  API_KEY_MISSING: 'Sign in with an API key.',
  API_KEY_INVALID: 'This API key is unknown or revoked.',
  ROLE_NOT_ALLOWED: 'This API key’s role may not do that.',
  READ_ONLY: 'This key is read-only.',
  TOKEN_INVALID: 'Your game session is not valid: open the game again from the casino.',
  TOKEN_EXPIRED: 'Your game session expired: open the game again from the casino.',
  TOKEN_REVOKED: 'Your game session was ended: open the game again from the casino.',
  LAUNCH_TOKEN_INVALID: 'This game link is not valid: open the game again from the casino.',
  LAUNCH_TOKEN_EXPIRED: 'This game link expired: open the game again from the casino.',
  LAUNCH_TOKEN_USED: 'This game link was already used: open the game again from the casino.',
  REFRESH_TOKEN_INVALID: 'Your game session is not valid: open the game again from the casino.',
  REFRESH_TOKEN_USED: 'Your game session was used elsewhere and is ended: open the game again.',
  PLAYER_NOT_ALLOWED: 'You can only play for yourself.',
  TOKEN_SCOPE_EXCEEDED: 'Your game session is for another table or currency.',
  TABLE_NOT_FOUND: 'No such table for this key.',
  SHOE_NOT_FOUND: 'No such shoe.',
  ROUND_NOT_FOUND: 'No such round.',
  WALLET_NOT_FOUND: 'This player has no wallet yet.',
  PLAYER_NOT_FOUND: 'No such player.',
  SIGNING_KEY_NOT_FOUND: 'The signing key the shoe names is not published here.',
  ROUTE_NOT_FOUND: 'This API has no such endpoint.',
  METHOD_NOT_ALLOWED: 'This API does not take that method here.',
  SHOE_ALREADY_OPEN: 'A shoe is already open on this table.',
  NO_SHOE_OPEN: 'No shoe is open on this table.',
  SHOE_ENDED:
    'The cut card has come out: this shoe has ended. Close it to reveal its seed, then open a new one.',
  SHOE_NOT_CLOSED: 'The shoe is not closed yet: its seed is still sealed.',
  SHOE_ABANDONED: 'This shoe was abandoned after its audit chain broke: it is never revealed or verified.',
  SHOE_NOT_ABANDONABLE: 'Only a shoe whose audit chain broke at close can be abandoned.',
  SIGNING_KEY_UNKNOWN: 'The shoe names a signing key the key service cannot give.',
  ROUND_IN_PLAY: 'A round is already in play on this table.',
  ROUND_NOT_OPEN: '“No va más”: betting is closed for this round.',
  ROUND_VOIDED: 'This round was voided.',
  ROUND_ALREADY_DEALT: 'This round has already been dealt.',
  CLIENT_SEED_ALREADY_FIXED: 'The client seed of this shoe is already fixed.',
  SEAT_TAKEN: 'Another player holds that seat.',
  SEAT_MISMATCH: 'This coup’s first bet already fixed your place (seat or standing).',
  ALREADY_SEATED: 'You already hold another seat at this table.',
  SEAT_INVALID: 'This table has no such seat.',
  POSITION_CALL_LIMIT: 'Too many changes to this position in one coup.',
  BET_NOT_PLACED: 'There is no such bet to reduce or withdraw.',
  BET_REDUCE_TOO_LARGE: 'The reduction is larger than the bet.',
  CONCURRENT_UPDATE: 'Someone else changed this at the same moment. Try again.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be JSON.',
  BET_PLAYER_AND_BANKER: 'Punto and Banca cannot both be bet in the same coup.',
  BET_DUPLICATE_TYPE: 'One bet per type per coup.',
  BET_SIDE_DISABLED: 'This table does not take that side bet.',
  INSUFFICIENT_FUNDS: 'Not enough money in the wallet for this bet.',
  RG_LIMIT_REACHED: "The bet would pass one of the player's responsible-gaming limits.",
  PLAYER_EXCLUDED: 'The player is self-excluded or cooling off: no bet is taken.',
  EXCLUSION_ACTIVE: 'A self-exclusion or cooling-off is in force: it can be extended, never shortened.',
  CURRENCY_MISMATCH: 'The amount is not in the wallet’s currency.',
  AMOUNT_TOO_LARGE: 'The amount is too large.',
  SEED_INVALID: 'The seed is not valid (1–256 bytes of plain text).',
  CLOSE_REASON_INVALID: 'That is not a reason a shoe can be closed early for.',
  CLOSE_REASON_REQUIRED:
    'The cut card has not come out yet: closing this shoe early needs a reason (pick one next to the button).',
  AMOUNT_INVALID: 'An amount must be a whole, positive number of cents.',
  OPERATOR_ID_INVALID: 'That is not a valid operator id.',
  SHOE_NOT_OPEN: 'The shoe is not open: it takes no more seeds.',
  CONTRIBUTIONS_CLOSED: 'The shoe’s first round has opened: it takes no more seeds.',
  CONTRIBUTIONS_FULL: 'The shoe already holds as many seeds as it takes.',
  AUDIT_CHAIN_BROKEN:
    'The shoe’s audit chain does not hold: nothing was signed. Call the operator’s support.',
  SHOE_NEVER_PLAYED: 'The shoe was closed before any round: there is nothing to verify.',
  BET_BELOW_MIN: 'The bet is below the table minimum.',
  BET_ABOVE_MAX: 'The bet is above the table maximum.',
  BEACON_PENDING: 'The shoe waits for its public randomness beacon round. Try again in a few seconds.',
  TIME_STAMP_PENDING: 'The close of betting waits for its time-stamp authority. Try again in a second.',
  DEADLINE_EXCEEDED:
    'The platform ran out of time on this request. Try again: it is safe, nothing is applied twice.',
  WALLET_REFUSED: "The operator's wallet refused the bet: nothing was taken.",
  WALLET_MODE_MISMATCH: "The player's bet in this round was made in another wallet mode.",
  SEAMLESS_DEBIT_IN_FLIGHT:
    "The operator's wallet has not answered this bet yet: try again in a few seconds.",
  WALLET_UNAVAILABLE: "The operator's wallet did not answer: the bet was not placed. Bet again.",
  SEAMLESS_RANGE_INVALID:
    'The period is not valid: `from` and `to` are UTC timestamps, at most 31 days apart.',
  HISTORY_RANGE_INVALID: 'The history range is not valid: `to` must be after `from`, at most 366 days later.',
  HISTORY_TOO_LARGE:
    'The history range reaches too far back for one request: ask for a shorter or more recent range.',
  TABLE_LOCKED: 'The table is locked: the key service or the randomness failed. An admin must clear it.',
  TABLE_DISABLED:
    'The operator has switched this table off: no shoe or round opens until it is switched back on (Availability).',
  AVAILABILITY_UNCHANGED: 'The table or bet is already in that availability: nothing was recorded.',
  TABLE_NOT_LOCKED: 'The table is not locked.',
  CADENCE_NOT_SET: 'The table has no cadence: start it first.',
  AUDIT_LOCK_NEEDS_SHOE: 'The table is locked by a broken audit chain: close or abandon its shoe first.',
  PLATFORM_ADMIN_REQUIRED: "Only the platform's administrators may change an operator's wallet mode.",
  SEAMLESS_CONFIG_INVALID:
    "The operator's wallet must be an https URL and its secret the operator's own Secrets Manager secret.",
  OPERATOR_WALLET_BUSY:
    'The wallet mode cannot change while bets are in play or wallet transactions are still being delivered: try again once they are done.',
  KEY_SERVICE_UNAVAILABLE: 'The key service is busy. Try again in a moment.',
  OPERATOR_NOT_FOUND: 'No such operator.',
  FEED_RANGE_INVALID: 'The feed range is not valid: two UTC times (days for a listing), the start first.',
  FEED_RANGE_TOO_LARGE: 'The feed range is too long for one request: use the daily files.',
  FEED_TOO_LARGE: 'Too much feed for one answer: ask for a shorter range.',
  FEED_FILE_NOT_FOUND: 'No such feed file.',
  SEAMLESS_REPORT_NOT_FOUND: 'No reconciliation report for that day yet (it is made after the day ends).',
  SEAMLESS_PERIOD_TOO_LARGE: 'Too many wallet transactions in that period: choose a shorter one.',
  SIGNING_KEY_UNCERTIFIED:
    'The signing key was rotated without being certified by the previous one: the operator must run the key handover.',
  INTERNAL_ERROR: 'The API failed. It has been logged; try again.',
};

export interface ProblemContext {
  /** To say a limit in money: the table's limits per bet type, minor units. */
  limits?: Record<string, { min: number; max: number }>;
  currency?: string;
}

/** What to show a person for an error (an ApiError in words, anything else as its message). */
export function describeError(error: unknown, context: ProblemContext = {}): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const { code, problem } = error;
  const betType = typeof problem?.details?.betType === 'string' ? problem.details.betType : undefined;
  const limit = betType ? context.limits?.[betType] : undefined;
  if ((code === 'BET_BELOW_MIN' || code === 'BET_ABOVE_MAX') && betType) {
    const which = code === 'BET_BELOW_MIN' ? 'minimum' : 'maximum';
    const bound =
      limit && context.currency
        ? formatMoney(code === 'BET_BELOW_MIN' ? limit.min : limit.max, context.currency)
        : undefined;
    return `${betName(betType)}: the bet is ${code === 'BET_BELOW_MIN' ? 'below' : 'above'} the table ${which}${bound ? ` of ${bound}` : ''}.`;
  }
  const words = (WORDS as Record<string, string>)[code];
  if (words && code === 'VALIDATION_FAILED' && problem?.errors?.length) {
    return `${words} ${problem.errors.map((e) => `${e.path || e.in}: ${e.message}`).join('; ')}`;
  }
  return words ?? `${error.message} (${code})`;
}
