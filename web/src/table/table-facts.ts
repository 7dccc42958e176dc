/**
 * The table's facts in words: how Banca pays (commission, EZ, Super 6), each side bet's pay table as
 * the configuration stores it (the signed shoe statement carries the same), the reasons a shoe may be
 * closed early or a round voided, a lock-out, and the seat map.
 */
import type { ShoeCloseReason, VoidReason } from '@pyb/contracts';
import { h } from '../lib/dom';
import { betName } from '../lib/problems';
import type { SeatMap, Table, TableConfig } from '../lib/types';

type Pays = { win: number; per: number };

/** 40:1, 0.54:1, 1:2 — a pay table entry as players read it. */
export function ratio({ win, per }: Pays): string {
  if (per === 1) return `${win}:1`;
  if (win === 1) return `1:${per}`;
  return `${Number((win / per).toFixed(4))}:1`;
}

/** How the main bets pay at this table. */
export function paysText(config: TableConfig): string {
  const banca =
    config.bankerMode === 'EZ'
      ? 'EZ: Banca 1:1 without commission; a Banca win with a three-card 7 pushes'
      : config.bankerMode === 'SUPER_6'
        ? 'Super 6: Banca 1:1 without commission; a Banca win with 6 pays 1:2'
        : `Banca 1:1 less ${config.commission.rateBps / 100}% commission (${config.commission.mode === 'DEFERRED' ? 'owed, paid on leaving' : 'taken from the win'})`;
  return `${banca}; Punto 1:1; Empate ${config.tiePays}:1${config.pairBets ? '; pairs 11:1' : ''}`;
}

/** Each side bet the table offers, with its pay table and limits. */
export function payTables(config: TableConfig, money: (minor: number) => string): HTMLElement {
  const entries = Object.entries(config.sideBets ?? {}) as [string, Record<string, unknown>][];
  return h(
    'ul',
    { class: 'pay-tables' },
    entries.map(([type, bet]) => {
      const limit = bet.limit as { min: number; max: number };
      const parts: string[] = [];
      if (bet.pays) parts.push(ratio(bet.pays as Pays));
      if (bet.paysBoth) parts.push(`both hands ${ratio(bet.paysBoth as Pays)}`);
      if (bet.natural) parts.push(`natural ${ratio(bet.natural as Pays)}`);
      if (bet.margin) {
        parts.push(
          `by ${Object.entries(bet.margin as Record<string, Pays>)
            .map(([points, pays]) => `${points}: ${ratio(pays)}`)
            .join(', ')}`,
        );
      }
      return h(
        'li',
        { 'data-side-bet': type },
        h('strong', null, betName(type)),
        ` pays ${parts.join('; ')} — ${money(limit.min)} to ${money(limit.max)}`,
      );
    }),
  );
}

export const CLOSE_REASONS: Record<ShoeCloseReason, string> = {
  END_OF_SESSION: 'end of the session',
  TABLE_CLOSING: 'the table is closing',
  CARDS_COMPROMISED: 'the cards are compromised',
  DEALER_ERROR: 'a dealer error',
  TECHNICAL_FAULT: 'a technical fault',
  REGULATOR_REQUEST: 'the regulator asked',
};

/** The reasons a round may be voided (seed 004 §2.7 and operator causes), in words. */
export const VOID_REASONS: Record<VoidReason, string> = {
  EXPOSED_CARD: 'a card was exposed (its first card came out face up)',
  EXTRA_CARDS: 'extra cards were drawn at the end of the coup before',
  MISDEAL: 'a misdeal',
  OPERATOR_ERROR: 'an operator error',
  TECHNICAL_FAULT: 'a technical fault',
};

/** The reasons with which the coup's cards may be burned (`burnCards`): the dealer errors of seed 004. */
export const BURN_REASONS: readonly VoidReason[] = ['EXPOSED_CARD', 'EXTRA_CARDS'];

export type TableLock = NonNullable<Table['lock']>;

/** What failed, for each cause the API records (docs/regulators.md, "Lock-out"). */
const LOCK_CAUSES: Record<string, string> = {
  KEY_SERVICE_MISCONFIGURED: 'the key service is misconfigured (a key or its permissions)',
  SEALED_SEED_INVALID: 'a sealed server seed did not unseal to a valid seed',
  KEY_SERVICE_BAD_RESPONSE: 'the key service answered something it should not have',
  KEY_SERVICE_FAILED: 'the key service failed',
  SEED_COMMITMENT_MISMATCH: 'a server seed did not match its commitment',
  BEACON_INVALID: 'the randomness beacon round did not verify',
  BEACON_FAILED: 'the randomness beacon failed',
  ENTROPY_FAILED: 'a seed was not random',
};

/**
 * A locked table in words: what failed, where and when, and that an admin must clear the lock once
 * the cause is fixed (423 TABLE_LOCKED until then; rounds not dealt can still be voided).
 */
export function lockWords(lock: TableLock, tableId: string): string {
  const source = lock.source === 'KEY_SERVICE' ? 'The key service' : 'The randomness';
  const what = LOCK_CAUSES[lock.cause] ?? `it failed (${lock.cause})`;
  const where =
    lock.phase === 'OPEN_SHOE'
      ? `opening a shoe${lock.shoeId ? ` (${lock.shoeId})` : ''}`
      : `dealing a round${lock.roundId ? ` (${lock.roundId})` : ''}`;
  return (
    `${source} failed at this table while ${where}, at ${lock.at}: ${what}` +
    `${lock.detail ? ` — ${lock.detail}` : ''}. ` +
    'No shoe opens and no round opens or is dealt until an admin clears the lock, once the cause is fixed ' +
    `(POST /v1/tables/${tableId}/unlock with a reason). A round not dealt can still be voided, its stakes refunded.`
  );
}

/** Every seat and its holder; an idle holder's seat goes to the first player who claims it. */
export function seatMap(map: SeatMap): HTMLElement {
  return h(
    'ol',
    { class: 'seat-map', id: 'seat-map', 'aria-label': 'Seats' },
    map.seats.map((seat) =>
      h(
        'li',
        {
          'data-seat': seat.seat,
          'data-holder': seat.playerId ?? '',
          'data-idle': seat.idle ? 'true' : null,
          class: seat.playerId ? (seat.idle ? 'seat-cell idle' : 'seat-cell held') : 'seat-cell free',
        },
        h('span', { class: 'seat-number' }, `Seat ${seat.seat}`),
        ' ',
        seat.playerId === null
          ? 'free'
          : seat.idle
            ? `${seat.playerId}, ${seat.coupsWithoutBet} coups without a bet: free to claim`
            : `${seat.playerId}${seat.coupsWithoutBet ? ` (${seat.coupsWithoutBet} coups without a bet)` : ''}`,
      ),
    ),
  );
}
