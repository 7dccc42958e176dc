/** The records of the hosted wallets, their ledger, debts and responsible-gaming state (index.ts: what the model is). */
import type { LedgerKind, RgLimit } from '@pyb/contracts';
import type { Bets } from './tables';

export interface WalletRecord {
  operatorId: string;
  playerId: string;
  currency: string;
  /** The money in the wallet: always the sum of its ledger. */
  balance: number;
  /** Deferred commission owed (all shoes). */
  owed: number;
  /** Worst-case commission of open BANKER bets in DEFERRED mode. */
  reserved: number;
  /** balance − owed − reserved: what a bet or a debit may take. Never negative. */
  available: number;
  /** Sequence number of the last ledger entry (0: none). Every write is conditional on it. */
  seq: number;
  /** Hash of the last ledger entry (the wallet's ledger is a hash chain). */
  head: string;
  /**
   * Responsible gaming (responsible-gaming.ts): limits, exclusion, period counters and table
   * sessions, written with every ledger entry (absent on a wallet that never moved since #16).
   */
  rg?: WalletRg;
  createdAt: string;
  updatedAt: string;
}

export type { LedgerKind };

export interface LedgerEntry {
  operatorId: string;
  playerId: string;
  /** 1-based, gapless per wallet. */
  seq: number;
  /** The idempotency key, scoped in the wallet: `c:<client key>` or `s:<system key>`. */
  key: string;
  /** Hash of the request that made it (the same key with another request is refused). */
  requestHash: string;
  kind: LedgerKind;
  currency: string;
  /** Signed change of the balance. */
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  owedAfter: number;
  reservedAfter: number;
  roundId?: string;
  shoeId?: string;
  tableId?: string;
  reference?: string;
  bets?: Bets;
  /** The table session of a game entry (a bet's; a settlement's or refund's: its position's). */
  sessionId?: string;
  at: string;
  prevHash: string;
  hash: string;
}

/** Deferred commission a player owes for one shoe (seed 000: the markers in his seat's box). */
export interface DebtRecord {
  shoeId: string;
  operatorId: string;
  playerId: string;
  /** The seat it is kept at (the seat of the position that last added to it); null: standing. */
  seat?: number | null;
  owed: number;
  collected: number;
  collections: number;
  updatedAt: string;
  /**
   * `seamless`: owed by a seamless player, already taken by his bets' commission reserves (kept when
   * his Banca bets won); its collection moves no money, it only records the commission as collected.
   */
  wallet?: 'seamless';
  /**
   * Seamless: each collection, when and how much (at most a few: a leave, the shoe's end, its close):
   * the regulator feed's COMMISSION movements, as a hosted wallet's ledger has them.
   */
  log?: { at: string; amount: number }[];
}

export type RgLimits = Partial<Record<RgLimit, number>>;

export interface RgCounter {
  /** The period it counts: see `periodsOf`. */
  p: string;
  wager: number;
  loss: number;
}

export interface RgExclusion {
  kind: 'SELF_EXCLUSION' | 'COOLING_OFF';
  since: string;
  /** null: indefinite. */
  until: string | null;
}

/** A player's session at one table: opened by his first bet there, ended by leave or inactivity. */
export interface RgTableSession {
  id: string;
  startedAt: string;
  /** His last bet at the table: the session ends `timeoutMinutes` after it without another. */
  lastAt: string;
  /** Set when he left the table. */
  endedAt?: string;
  /** Stakes net of withdrawals, and the net result (returns − stakes), of the session. */
  staked: number;
  net: number;
  /** Reality checks shown in the session (one per `realityCheckMinutes` of play). */
  checks?: number;
}

export interface WalletRg {
  limits?: RgLimits;
  /** Relaxations waiting for their 24 hours: the value (null: removed) and when it applies. */
  pending?: Partial<Record<RgLimit, { value: number | null; at: string }>>;
  exclusion?: RgExclusion;
  timeoutMinutes?: number;
  /** The player's reality-check interval (issue #28 item 5); absent: none. */
  realityCheckMinutes?: number;
  day?: RgCounter;
  week?: RgCounter;
  month?: RgCounter;
  /** By table id. Sessions ended more than a day ago are dropped (the ledger keeps their ids). */
  sessions?: Record<string, RgTableSession>;
}
