/** The records of the tables, their lock-outs and events, seats and gates (index.ts: what the model is). */
import type { OPTIONAL_BET_TYPES, TABLE_EVENT_TYPES } from '@pyb/contracts';
import type { BetType, TableConfig } from '@pyb/engine';

/** A pair or side bet: what availability switches one by one (contracts OPTIONAL_BET_TYPES). */
export type OptionalBetType = (typeof OPTIONAL_BET_TYPES)[number];

export type Bets = Partial<Record<BetType, number>>;

export interface TableRecord {
  tableId: string;
  operatorId: string;
  name: string;
  config: TableConfig;
  createdAt: string;
  /** Shoes opened on this table so far (numbers them). */
  shoes: number;
  /** The shoe in play (opened, not closed yet). */
  currentShoeId?: string;
  /** The round in play: set when it opens, cleared when it is settled or voided (one per table). */
  openRoundId?: string;
  /** Rounds opened on this table over all its shoes (numbers them: `RoundRecord.tableRound`). */
  rounds?: number;
  /** Betting gates of each round (shards of "no va más", 1..64); default `DEFAULT_BET_GATES`. */
  betGates?: number;
  /** The last shoe closed at this table: the next statement links to its signed close head. */
  lastShoe?: { shoeId: string; number: number; closeHead: string };
  /** The last shoe opened at this table, closed or not: the next statement links to its statement (D2). */
  lastOpened?: { shoeId: string; number: number; statement: string };
  /**
   * Set when the key service or the randomness failed at open-shoe or resolve (docs/regulators.md,
   * "Lock-out"): no shoe opens, no round opens or is dealt, until an admin clears it with a reason.
   */
  lock?: TableLock;
  /** A table that runs itself (tables/cadence.ts): absent, every round step is an operator's call. */
  cadence?: TableCadence;
  /** Table events (TABLE_LOCKED, TABLE_UNLOCKED, the availability changes) recorded so far: numbers the next one. */
  events?: number;
  /**
   * Switched off by the operator (tables/availability.ts): no shoe and no round opens until it is
   * switched back on; the round in play when it was switched off finishes.
   */
  disabled?: TableDisabled;
  /** Pair and side bets switched off: each round copies them when it opens (`RoundRecord.betsOff`). */
  betsOff?: OptionalBetType[];
}

/** Who switched the table off, when and why (its TABLE_DISABLED event). */
export interface TableDisabled {
  at: string;
  reason: string;
  person: string;
  seq: number;
}

/** A cadence table's clock and whether it runs (RUNNING) or finishes the round in play and stops (PAUSED). */
export interface TableCadence {
  bettingSeconds: number;
  /** Between one round settled and the next one opening. */
  pauseSeconds: number;
  /** When the shoe ends: close it and open the next one (else the cadence stops with the shoe). */
  nextShoe: boolean;
  state: 'RUNNING' | 'PAUSED';
  since: string;
}

/** What failed, where: kept on the locked table and in its TABLE_LOCKED event. */
export interface TableLock {
  /**
   * KEY_SERVICE: seed generation, sealing, unsealing or signing. RANDOMNESS: the beacon or the seed's
   * entropy. AUDIT: close found the shoe's audit chain broken (`problems`). TIME_STAMP: a head naming
   * a beacon round got no RFC 3161 anchor before that round was published. CADENCE: a step of the
   * table's cadence failed past its retries (its state machine's Catch).
   */
  source: 'KEY_SERVICE' | 'RANDOMNESS' | 'AUDIT' | 'TIME_STAMP' | 'CADENCE';
  /** The failure's code (e.g. KEY_SERVICE_MISCONFIGURED, SEALED_SEED_INVALID, BEACON_INVALID, ENTROPY_FAILED). */
  cause: string;
  /** What the failure said (no secret: key-service and beacon messages name ids, never key material). */
  detail: string;
  /** The call that failed. */
  phase: 'OPEN_SHOE' | 'RESOLVE' | 'CLOSE_SHOE' | 'CADENCE';
  /** AUDIT: what the re-walk of the chain found (at most 20). */
  problems?: string[];
  shoeId?: string;
  roundId?: string;
  at: string;
  /** The TABLE_LOCKED event's number. */
  seq: number;
}

/**
 * A table's own audit events (append-only, in the audit table beside the shoes' chains): a lock-out
 * and its clearing. Not in any shoe's public chain: a lock may happen before a shoe exists.
 */
export interface TableEventRecord {
  tableId: string;
  operatorId: string;
  seq: number;
  type: (typeof TABLE_EVENT_TYPES)[number];
  at: string;
  /** SHOE_ABANDONED: the shoe given up (its lock cleared with it). */
  shoeId?: string;
  /** TABLE_LOCKED: what failed. */
  lock?: TableLock;
  /** TABLE_UNLOCKED, SHOE_ABANDONED, availability: the reason given; which lock it clears. */
  reason?: string;
  clears?: number;
  /** TABLE_UNLOCKED, SHOE_ABANDONED, availability: the key's role, operator and id. */
  by?: { role: string; operatorId: string; keyId?: string };
  /** BET_DISABLED, BET_ENABLED: the bet switched. */
  betType?: OptionalBetType;
  /** Availability: the named person the operator recorded as acting (an API key names none). */
  person?: string;
}

/** A numbered seat of a table (seeds 000, 003, 004): held by a player until he leaves or loses it. */
export interface SeatRecord {
  tableId: string;
  operatorId: string;
  /** 1..seats, numbered as the rulebooks number them (003: from 1, to the right of the table head). */
  seat: number;
  /** The holder; absent: the seat is free. */
  playerId?: string;
  /**
   * `tableRound` of the last coup the holder played — holding a stake; a coup whose bets he withdrew
   * is not played (seed 004: lost after more than 3 coups not played).
   */
  lastRound?: number;
  since?: string;
  updatedAt: string;
}

/** One betting gate of a round: OPEN until "no va más" closes every gate of the round at once. */
export interface GateRecord {
  roundId: string;
  gate: number;
  status: 'OPEN' | 'CLOSED';
}
