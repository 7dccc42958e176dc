/**
 * What the use cases persist (through the Store port). Field names are the stored attribute names;
 * docs/data-model.md describes the items, keys and sizes.
 */
import type {
  AuditEventType,
  LedgerKind,
  RoundStatus,
  ShoeCloseReason,
  ShoeStatus,
  VoidReason,
} from '@pyb/contracts';
import type { BetType, Burn, CoupResult, PositionSettlement, ShoeState, TableConfig } from '@pyb/engine';
import type {
  BeaconRound,
  KeyCertificate,
  ShoeCloseStatement,
  ShoeStatement,
  SignedHead,
} from '@pyb/fairness';

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
  /** The last shoe closed at this table: the next statement links to its signed close head. */
  lastShoe?: { shoeId: string; number: number; closeHead: string };
}

/** OPEN: rounds may open. ENDED: the cut card came out, no more rounds. CLOSING/CLOSED: see closeShoe. */
export type { ShoeStatus };

export interface ShoeRecord {
  shoeId: string;
  tableId: string;
  operatorId: string;
  /** 1-based number of the shoe on its table. */
  number: number;
  status: ShoeStatus;
  /** The table configuration in force for the whole shoe (also inside the signed statement). */
  config: TableConfig;
  /** base64 of the server seed sealed by the key service (context {shoeId, operatorId}). */
  sealedSeed: string;
  commitment: string;
  statement: ShoeStatement;
  /** base64 DER ECDSA signature of the statement. */
  signature: string;
  keyId: string;
  /** The operator's client seed (its contribution, given with the first round), if it gave one. */
  clientSeed?: string;
  /** Seeds contributed so far (numbers the next one). */
  contributions?: number;
  /**
   * Set when the first round opens: no seed is taken after it. `beaconRound` is the first beacon round
   * published `marginSeconds` after `at`; its signature fixes the order. `head`: the signed chain head
   * after CONTRIBUTIONS_CLOSED (made right after the close; absent until then).
   */
  contributionsClosed?: {
    at: string;
    seq: number;
    count: number;
    digest: string;
    beaconRound: number;
    head?: SignedHead;
  };
  /** The beacon round once published and recorded (BEACON_RECORDED at `seq`), with the shoe entropy it gives. */
  beacon?: BeaconRound & { seq: number };
  /** hex: the text the random stream takes as its client input (fairness shoeEntropy). */
  entropy?: string;
  /** Rounds opened on this shoe (numbers them). */
  rounds: number;
  /** The engine's shoe state after the last coup; absent before the first coup (burn not done). */
  state?: ShoeState;
  /** The burn, recorded with the first coup. */
  burn?: Burn;
  openedAt: string;
  endedAt?: string;
  closedAt?: string;
  /** hex; revealed at close. */
  serverSeed?: string;
  cutIndex?: number;
  /** The signed audit head (close). */
  close?: { statement: ShoeCloseStatement; signature: string };
  /** Why it was closed before the cut card ended it; absent for an ended shoe. */
  closeReason?: ShoeCloseReason;
  /** Voided rounds, revealed at close: how many, and what they would have netted the house. */
  voids?: { count: number; houseNet: number };
}

/**
 * OPEN -> CLOSED ("no va más") -> DEALT (outcome recorded, settlement under way) -> SETTLED.
 * OPEN | CLOSED -> VOIDING (refunds under way) -> VOIDED. The API shows it as stored.
 */
export type { RoundStatus };

export interface RoundCoup {
  /** 0-based number of the coup in the shoe. */
  index: number;
  /** Position of its first card in the shoe order; it used cards [start, start + cardsUsed). */
  start: number;
  result: CoupResult;
  cutCardOut: boolean;
  /** This coup ended the shoe. */
  last: boolean;
}

export interface RoundTotals {
  positions: number;
  stake: number;
  payout: number;
  commission: number;
  commissionOwed: number;
}

export interface RoundRecord {
  roundId: string;
  tableId: string;
  shoeId: string;
  operatorId: string;
  /** 1-based number of the round in its shoe. */
  number: number;
  status: RoundStatus;
  /** Seat limit of the table and seats taken (one per player with a position). */
  seats: number;
  seatsTaken: number;
  openedAt: string;
  closedAt?: string;
  betsDigest?: string;
  coup?: RoundCoup;
  dealtAt?: string;
  settledAt?: string;
  settlementsDigest?: string;
  totals?: RoundTotals;
  voidReason?: VoidReason;
  voidNote?: string;
  voidedAt?: string;
  refundsDigest?: string;
  /** The chain head after ROUND_SETTLED or ROUND_VOIDED, signed with the statement key: the receipt. */
  head?: SignedHead;
  /** Sequence numbers of this round's events in the shoe's audit chain. */
  audit: { opened: number; bettingClosed?: number; dealt?: number; settled?: number; voided?: number };
}

export interface PositionRecord {
  roundId: string;
  playerId: string;
  operatorId: string;
  tableId: string;
  shoeId: string;
  /** When the round opened (orders a player's rounds). */
  openedAt: string;
  bets: Bets;
  stake: number;
  /** DEFERRED mode: worst-case commission of the BANKER bet, held back from the wallet until settlement. */
  reserve: number;
  /** Ledger keys of the bet debits. */
  betKeys: string[];
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
  settlement?: PositionSettlement;
  /** Ledger sequence number of the settlement movement (absent when no money moved). */
  settleSeq?: number;
  refundedAt?: string;
  refundSeq?: number;
}

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
  at: string;
  prevHash: string;
  hash: string;
}

/** Deferred commission a player owes for one shoe. */
export interface DebtRecord {
  shoeId: string;
  operatorId: string;
  playerId: string;
  owed: number;
  collected: number;
  collections: number;
  updatedAt: string;
}

export type { AuditEventType };

/** The hashed object. */
export interface AuditEvent {
  seq: number;
  type: AuditEventType;
  shoeId: string;
  roundId?: string;
  at: string;
  data: Record<string, unknown>;
}

export interface AuditRecord {
  shoeId: string;
  seq: number;
  type: AuditEventType;
  roundId?: string;
  /** RFC 8785 JSON of the AuditEvent, stored verbatim. */
  event: string;
  prevHash: string;
  hash: string;
}

/** A signing-key generation's certificate (fairness KeyCertificate), kept in the audit table. */
export interface KeyCertificateRecord {
  generation: number;
  certificate: KeyCertificate;
  /** base64 DER ECDSA: by the previous generation, or by itself for generation 1. */
  signature: string;
}
