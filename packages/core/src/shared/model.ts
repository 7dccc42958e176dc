/**
 * What the use cases persist (through the Store port). Field names are the stored attribute names;
 * docs/data-model.md describes the items, keys and sizes.
 */
import type {
  AuditEventType,
  CreditKind,
  LedgerKind,
  RgLimit,
  RoundStatus,
  SeamlessRefusalCode,
  SeamlessSummaryData,
  SeamlessTxOp,
  SeamlessTxState,
  ShoeCloseReason,
  ShoeStatus,
  VoidReason,
  WalletMode,
} from '@pyb/contracts';
import type {
  BetType,
  Burn,
  Card,
  CoupResult,
  PositionSettlement,
  ShoeState,
  TableConfig,
} from '@pyb/engine';
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
  /** Rounds opened on this table over all its shoes (numbers them: `RoundRecord.tableRound`). */
  rounds?: number;
  /** Betting gates of each round (shards of "no va más", 1..64); default `DEFAULT_BET_GATES`. */
  betGates?: number;
  /** The last shoe closed at this table: the next statement links to its signed close head. */
  lastShoe?: { shoeId: string; number: number; closeHead: string };
  /**
   * Set when the key service or the randomness failed at open-shoe or resolve (docs/regulators.md,
   * "Lock-out"): no shoe opens, no round opens or is dealt, until an admin clears it with a reason.
   */
  lock?: TableLock;
  /** Table events (TABLE_LOCKED, TABLE_UNLOCKED) recorded so far: numbers the next one. */
  events?: number;
}

/** What failed, where: kept on the locked table and in its TABLE_LOCKED event. */
export interface TableLock {
  /** KEY_SERVICE: seed generation, sealing, unsealing or signing. RANDOMNESS: the beacon or the seed's entropy. */
  source: 'KEY_SERVICE' | 'RANDOMNESS';
  /** The failure's code (e.g. KEY_SERVICE_MISCONFIGURED, SEALED_SEED_INVALID, BEACON_INVALID, ENTROPY_FAILED). */
  cause: string;
  /** What the failure said (no secret: key-service and beacon messages name ids, never key material). */
  detail: string;
  /** The call that failed. */
  phase: 'OPEN_SHOE' | 'RESOLVE';
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
  type: 'TABLE_LOCKED' | 'TABLE_UNLOCKED';
  at: string;
  /** TABLE_LOCKED: what failed. */
  lock?: TableLock;
  /** TABLE_UNLOCKED: the admin's reason, and which lock it clears. */
  reason?: string;
  clears?: number;
  /** TABLE_UNLOCKED: the key's role and operator (API keys have no person's name). */
  by?: { role: string; operatorId: string };
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
  /** The cut card came out (public once it happened): with ONE_MORE_COUP the next round is the last. */
  cutCardOut?: boolean;
  /** Why it was closed before the cut card ended it; absent for an ended shoe. */
  closeReason?: ShoeCloseReason;
  /** Voided rounds, revealed at close: how many, and what they would have netted the house. */
  voids?: { count: number; houseNet: number };
}

/**
 * OPEN -> CLOSED ("no va más") -> DEALT (outcome recorded) -> SETTLED, settled in the resolve request;
 * or DEALT -> SETTLING (positions handed to the settlement queue in batches) -> SETTLED when the last
 * batch lands. OPEN | CLOSED -> VOIDING (refunds under way, inline or in batches) -> VOIDED. The API
 * shows it as stored.
 */
export type { RoundStatus };

/** Positions settled (or refunded) by the settlement queue: how they were cut into batches. */
export interface RoundBatches {
  kind: BatchKind;
  /** Number of batches: the positions (by player id) cut in chunks of `size`. */
  count: number;
  size: number;
  /** When the batches were last sent (resolve re-sends the unfinished ones after a while). */
  sentAt: string;
}

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

export interface RoundBurn {
  /** Position of its first card in the shoe order; it burned cards [start, start + cards.length). */
  start: number;
  cards: Card[];
  cutCardOut: boolean;
  /** The burn ended the shoe. */
  last: boolean;
  /** The shoe's own burn (seed 003), when this was the shoe's first use of its cards. */
  shoeBurn?: Burn;
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
  /** Seats of the table (numbered 1..seats); every further player bets standing. */
  seats: number;
  /** Betting gates: a position change condition-checks gate `gateOf(playerId, gates)` (see gates.ts). */
  gates: number;
  /** Ordinal of the round on its table over all shoes (1-based): how idle seats are counted. */
  tableRound: number;
  /** "Última mano" announced when the round opened (seed 004): it is the shoe's last coup. */
  lastAnnounced?: boolean;
  openedAt: string;
  /** "No va más" called: bets are refused from here on (the gates close next, in one transaction). */
  closingAt?: string;
  closedAt?: string;
  betsDigest?: string;
  coup?: RoundCoup;
  dealtAt?: string;
  settledAt?: string;
  settlementsDigest?: string;
  totals?: RoundTotals;
  voidReason?: VoidReason;
  voidNote?: string;
  /** Voided with `burnCards` (seed 004): the cards the coup would have used, burned unplayed. */
  burned?: RoundBurn;
  voidedAt?: string;
  refundsDigest?: string;
  /** Settlement (or refunds) fanned out on the settlement queue. */
  batches?: RoundBatches;
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
  /** Seat number (1..seats) the player bets from, or null: standing. */
  seat: number | null;
  /**
   * The seat's `lastRound` before this coup's bet marked it played: put back if the player withdraws
   * his whole stake before "no va más" (seed 004: a coup without a stake is not played).
   */
  seatBefore?: number;
  /** The player's table session of the first call (absent on positions from before sessions). */
  sessionId?: string;
  /**
   * `seamless`: the stake was debited from the operator's wallet (docs/seamless-wallet.md); payouts and
   * refunds go back as seamless credits through the outbox. Absent: the hosted wallet. Fixed at the
   * position's first call, so a settlement never depends on the operator's mode at the time.
   */
  wallet?: 'seamless';
  /**
   * Seamless: the txIds of the calls that made this position, in order — a bet's or raise's debit, a
   * reduce's or withdrawal's REFUND credit (the name is from before withdrawals: kept for stored items).
   */
  debits?: string[];
  /**
   * Calls that changed the position (bet, raise, reduce, withdraw): its version (every change is
   * conditional on it) and bounded by MAX_POSITION_CALLS. Each call is one ledger entry of the
   * wallet, all with sequence numbers in [firstSeq, lastSeq].
   */
  calls: number;
  firstSeq: number;
  lastSeq: number;
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

export type BatchKind = 'settle' | 'refund';

/** A batch of positions the settlement queue finished (written once, when all of them are done). */
export interface BatchRecord {
  roundId: string;
  batch: number;
  kind: BatchKind;
  positions: number;
  doneAt: string;
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

/**
 * An operator: how its players hold their money (docs/seamless-wallet.md). No record = `hosted`
 * (every operator from before #15). Read by the bet path through a per-process cache
 * (OPERATOR_TTL_MS), so a hosted bet pays no read for it in the steady state.
 */
export interface OperatorRecord {
  operatorId: string;
  walletMode: WalletMode;
  /** Seamless mode: where the operator's wallet listens and which secret signs the calls. */
  seamless?: {
    /** The wallet's base URL (no trailing slash), e.g. `https://wallet.operator.example/pyb`. */
    baseUrl: string;
    /**
     * Where the HMAC secret is: a Secrets Manager secret ARN or name in AWS; `env:<NAME>` for a
     * variable of the process (the local stack). Never the secret itself.
     */
    secretRef: string;
  };
  createdAt: string;
  updatedAt: string;
  /** Changes recorded so far (OperatorEventRecord): numbers the next one. Absent: none yet. */
  changes?: number;
}

/** An operator's wallet mode and wallet, as one change left or found them. */
export type OperatorWalletState = Pick<OperatorRecord, 'walletMode' | 'seamless'>;

/**
 * One change of an operator's wallet mode or wallet (audit table, append-only): who, when, old → new.
 * Written in the transaction that writes the operator's record.
 */
export interface OperatorEventRecord {
  operatorId: string;
  seq: number;
  type: 'WALLET_SET';
  at: string;
  /** The key's role, operator and id (`provision:<user>` for the provisioning script). */
  by: { role: string; operatorId: string; keyId?: string };
  from: OperatorWalletState;
  to: OperatorWalletState;
}

export type { CreditKind, SeamlessTxOp, SeamlessTxState };

/**
 * One call the platform makes to an operator's seamless wallet, by its txId: the platform's books of
 * that wallet (replay, recall and reconciliation read them). States: docs/seamless-wallet.md §5.
 *
 * - DEBIT (`dbt_`): a bet's stake. DEBIT_PENDING -> DEBITED | DEBIT_REFUSED | ROLLBACK_PENDING ->
 *   ROLLED_BACK. Written before the wallet is called; DEBITED in the position's transaction.
 * - CREDIT (`crd_`): a payout, refund or commission release. CREDIT_PENDING (written in the
 *   transaction that settles / refunds / reduces the position: the outbox) -> CREDITED. A REFUND
 *   written by a reduce/withdraw is one of the position's calls (its txId in `PositionRecord.debits`,
 *   `requestHash` and `bets` set, like a debit's).
 * - ROLLBACK (`rbk_`): cancels the debit `debitTxId`. ROLLBACK_PENDING (the outbox) -> ROLLED_BACK,
 *   the debit's record moving to ROLLED_BACK in the same transaction.
 *
 * Pending credits and rollbacks are the outbox: the OutboxQueue carries their txIds, the delivery
 * use case calls the wallet until it answers OK.
 */
export interface SeamlessTxRecord {
  txId: string;
  op: SeamlessTxOp;
  /** CREDIT: what it gives back. */
  creditKind?: CreditKind;
  /** ROLLBACK: the debit it cancels. */
  debitTxId?: string;
  /** DEBIT in ROLLBACK_PENDING / ROLLED_BACK: the rollback that cancels it. */
  rollbackTxId?: string;
  operatorId: string;
  playerId: string;
  currency: string;
  /** Minor units, > 0. */
  amount: number;
  roundId: string;
  tableId: string;
  /** What the money is for, the same on every retry (`roundId:playerId:<call>`). */
  betRef: string;
  state: SeamlessTxState;
  /** Calls made to the wallet with this txId so far (a debit: at most 1). */
  attempts: number;
  createdAt: string;
  updatedAt: string;
  /** When the last call was made. */
  attemptedAt?: string;
  /** When it reached a final state. */
  resolvedAt?: string;
  /** DEBIT_REFUSED: the wallet's refusal (or a credit's, which a person must look at). */
  refusal?: { code: SeamlessRefusalCode; message?: string };
  /** The wallet's own id of the booking, as it answered. */
  operatorTxId?: string;
  /** The player's balance in the operator's wallet after this call, as it answered. */
  balanceAfter?: number;
  /** ROLLBACK answered OK: whether a debit was given back (false: the debit never arrived). */
  applied?: boolean;
  /** Why the last call's outcome was unknown (still pending). */
  lastError?: string;
  /**
   * DEBIT, and the REFUND of a reduce/withdraw: hash of the client's request (the same idempotency key
   * with another call is refused).
   */
  requestHash?: string;
  /** DEBIT: the bets this stake is for; the REFUND of a reduce/withdraw: the bets it takes back. */
  bets?: Bets;
  /** DEBIT: the seat the client asked for, if any. */
  seat?: number;
  /** DEBIT given up (ROLLBACK_PENDING / ROLLED_BACK): why — what a retry of the bet is answered. */
  rollbackReason?: 'UNKNOWN_OUTCOME' | 'BETTING_CLOSED' | 'NOT_PLACED' | 'ABANDONED';
  /** DEBIT and the REFUND of a reduce/withdraw: the shoe of its round (the call's answer names it). */
  shoeId?: string;
  /**
   * The part of `amount` that is a commission reserve (a DEFERRED table's Banca bet: docs/rules.md,
   * "Deferred commission in seamless mode"): a DEBIT's reserve taken, a REFUND's given back, a
   * ROLLBACK's as its debit's. Absent: none. A COMMISSION_RELEASE is all reserve.
   */
  commissionReserve?: number;
  /** COMMISSION_RELEASE: the position's debits whose reserve it gives back. */
  debitTxIds?: string[];
}

/**
 * The seamless reconciliation of one operator's UTC day, stored by the daily job (a re-run replaces
 * it): the summary of that day's transactions (bounded: sums and at most SEAMLESS_UNRESOLVED_NAMED_MAX
 * unresolved ones named) and how many stuck credits and rollbacks it handed to the outbox again.
 */
export interface SeamlessReportRecord {
  operatorId: string;
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  from: string;
  to: string;
  /** When the job made it. */
  asOf: string;
  summary: SeamlessSummaryData;
  redelivered: number;
}

// ---- responsible gaming (responsible-gaming.ts): what a wallet item carries ---------------------

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
}

export interface WalletRg {
  limits?: RgLimits;
  /** Relaxations waiting for their 24 hours: the value (null: removed) and when it applies. */
  pending?: Partial<Record<RgLimit, { value: number | null; at: string }>>;
  exclusion?: RgExclusion;
  timeoutMinutes?: number;
  day?: RgCounter;
  week?: RgCounter;
  month?: RgCounter;
  /** By table id. Sessions ended more than a day ago are dropped (the ledger keeps their ids). */
  sessions?: Record<string, RgTableSession>;
}
