/**
 * The table's facts in words: how Banca pays (commission, EZ, Super 6), each side bet's pay table as
 * the configuration stores it (the signed shoe statement carries the same), the reasons a shoe may be
 * closed early, and the seat map.
 */
import type { ShoeCloseReason } from '@pyb/contracts';
import { h } from '../lib/dom';
import { betName } from '../lib/problems';
import type { SeatMap, TableConfig } from '../lib/types';

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
