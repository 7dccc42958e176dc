/**
 * The table's live feed (docs/api.md, "Live events"): what a front end is told, one event per item,
 * numbered per table from 0 without gaps. It is a projection of the durable logs (the shoes' audit
 * chains and the table's own events), so it can always be derived again; `LiveHeadRecord` says how far.
 */
import type { LIVE_EVENT_KINDS } from '@pyb/contracts';

export type LiveEventType = (typeof LIVE_EVENT_KINDS)[number];

export interface LiveEventRecord {
  tableId: string;
  operatorId: string;
  /** The table's sequence number: 0, 1, 2, … without gaps (a conditional counter, live-head). */
  seq: number;
  type: LiveEventType;
  at: string;
  shoeId?: string;
  roundId?: string;
  /** Public facts only: aggregates, never a player id or a player's amount. */
  data: Record<string, unknown>;
}

/** How far the feed has projected the durable logs (one item per table, its writes conditional). */
export interface LiveHeadRecord {
  tableId: string;
  /** The next live sequence number (= the number of live events). */
  next: number;
  /** The shoe whose chain is being projected, and the last of its audit events projected (-1: none). */
  shoeId?: string;
  audit: number;
  /** Table events (lock-outs) projected: the next table-event seq to read. */
  tableEvents: number;
  /** The last seq handed to the broker (-1: none): a failed publish is retried from here by the next call. */
  published?: number;
}

/** A player's own events (his topic only): re-read from his wallet and rounds, they carry no table seq. */
export type PlayerEventType = 'BET_ACCEPTED' | 'PAYOUT' | 'BALANCE';

export interface PlayerEvent {
  type: PlayerEventType;
  tableId: string;
  playerId: string;
  at: string;
  roundId?: string;
  data: Record<string, unknown>;
}
