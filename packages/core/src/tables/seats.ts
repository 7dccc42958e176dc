import type { Actor, SeatMapView, SeatRecord, Store } from '../shared';
import { loadTable } from './tables';

/** Seed 004: a seat may be lost by a player who sits out more than three consecutive coups. */
const SEAT_IDLE_COUPS = 3;

export const seatIdle = (seat: SeatRecord, tableRound: number): boolean =>
  tableRound - 1 - (seat.lastRound ?? 0) > SEAT_IDLE_COUPS;

/**
 * The seat map: every seat of the table with its holder, read for the round open now (else the next
 * one), so `idle` says exactly what a claim in that round would find (the bet path's own `seatIdle`).
 */
export async function getSeats(
  deps: { store: Store },
  actor: Actor,
  input: { tableId: string },
): Promise<SeatMapView> {
  const table = await loadTable(deps, actor, input.tableId, 'read');
  const round = (table.rounds ?? 0) + (table.openRoundId ? 0 : 1);
  const held = new Map((await deps.store.listSeats(table.tableId)).map((s) => [s.seat, s]));
  const seats = Array.from({ length: table.config.seats }, (_, i) => {
    const record = held.get(i + 1);
    if (!record?.playerId) {
      return { seat: i + 1, playerId: null, lastRound: null, coupsWithoutBet: null, idle: false };
    }
    const lastRound = record.lastRound ?? 0;
    return {
      seat: i + 1,
      playerId: record.playerId,
      lastRound,
      coupsWithoutBet: Math.max(0, round - 1 - lastRound),
      idle: seatIdle(record, round),
    };
  });
  return { tableId: table.tableId, round, seats };
}
