/** The records of the rounds, their positions and settlement batches (index.ts: what the model is). */
import type { RoundStatus, VoidReason } from '@pyb/contracts';
import type { Burn, Card, CoupResult, PositionSettlement } from '@pyb/engine';
import type { BeaconRound, SignedHead } from '@pyb/fairness';
import type { StoredAnchor } from '../ports/time-stamps';
import type { Discard } from './shoes';
import type { Bets, OptionalBetType } from './tables';

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
  /** pyb-shoe/3: the beacon round its cards were drawn from (the one "no va más" named). */
  beacon?: BeaconRound;
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
  /** pyb-shoe/3: the beacon round the burned cards were drawn from. */
  beacon?: BeaconRound;
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
  /**
   * Cadence tables: when betting closes (openedAt + bettingSeconds). A bet at or after it is refused
   * whether or not "no va más" has run yet; the cadence's Wait state then calls it.
   */
  closesAt?: string;
  /** Pair and side bets the operator had switched off at the table when the round opened: refused in it. */
  betsOff?: OptionalBetType[];
  /** "No va más" called: bets are refused from here on (the gates close next, in one transaction). */
  closingAt?: string;
  closedAt?: string;
  betsDigest?: string;
  /**
   * pyb-shoe/3: the beacon round "no va más" named (BETTING_CLOSED), the first published at least
   * the margin after it, and the chain head signed right after it — the receipt that names the round
   * before it is out. The coup (or a dealer-error burn) is drawn from that round only.
   */
  /**
   * pyb-shoe/3: the beacon round "no va más" named, its signed head, and that head's RFC 3161 anchor
   * (docs/time-stamps.md) — nothing is drawn for the round before all three exist.
   */
  betting?: { beaconRound: number; head?: SignedHead; anchor?: StoredAnchor };
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
  /** Voided after the beacon round that fixes its cards was published (D1). */
  discard?: Discard;
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

export type BatchKind = 'settle' | 'refund';

/** A batch of positions the settlement queue finished (written once, when all of them are done). */
export interface BatchRecord {
  roundId: string;
  batch: number;
  kind: BatchKind;
  positions: number;
  doneAt: string;
}
