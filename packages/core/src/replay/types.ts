/**
 * What a regulator sees of a round (replay, game recall): every step with the rule behind it, every
 * bet and the money it moved, and a verification block saying which checks passed, which failed and
 * why, and which must wait for the shoe's seed to be revealed.
 */
import type { BetType } from '@pyb/engine';
import type { ShoeCloseStatement, ShoeStatement } from '@pyb/fairness';
import type { LedgerKind, RoundStatus, RoundTotals, ShoeStatus } from '../model';

/** PENDING_REVEAL: needs the server seed, published when the shoe is closed. */
export type CheckStatus = 'PASSED' | 'FAILED' | 'PENDING_REVEAL' | 'NOT_APPLICABLE';

export interface ReplayProblem {
  /** Stable code, e.g. CHAIN_HASH, BETS_DIGEST, SETTLEMENT_MISMATCH, CARDS_MISMATCH, SEED_COMMITMENT. */
  code: string;
  detail: string;
  /** The audit event concerned, when there is one. */
  seq: number | null;
  /** The player concerned, when there is one. */
  playerId: string | null;
}

export interface ReplayCheck {
  status: CheckStatus;
  detail: string;
  problems: ReplayProblem[];
}

export interface RoundVerification {
  /** FAILED if any check failed; else PENDING_REVEAL if any waits for the seed; else VERIFIED. */
  status: 'VERIFIED' | 'PENDING_REVEAL' | 'FAILED';
  /** The shoe statement's ECDSA signature, and the statement SHOE_OPENED put in the chain. */
  statementSignature: ReplayCheck;
  /** The revealed server seed hashes to the commitment published before any bet. */
  commitment: ReplayCheck;
  /** The shoe re-dealt from the seeds: burn, this coup's position, its cards, its outcome. */
  cards: ReplayCheck;
  /** The recorded cards played through the engine give the recorded steps, totals and outcome. */
  tableau: ReplayCheck;
  /** The audit chain from its genesis to this round's last event, and the round's events vs its items. */
  auditChain: ReplayCheck;
  /** The stored bets are the ones committed when betting closed. */
  bets: ReplayCheck;
  /** Each position settled (or refunded) as the engine settles it, committed and moved in the ledger. */
  settlement: ReplayCheck;
  /** The chain head signed at close covers the chain this round is in. */
  chainHead: ReplayCheck;
  /** Names of the checks that wait for the reveal. */
  pendingReveal: string[];
}

export interface ReplayShoe {
  shoeId: string;
  tableId: string;
  number: number;
  status: 'OPEN' | 'CLOSED';
  phase: ShoeStatus;
  statement: ShoeStatement;
  /** base64 DER ECDSA P-256 over the RFC 8785 statement. */
  signature: string;
  keyId: string;
  /** The key the statement names, that the replay checked its signature with; null if unknown. */
  publicKey: { keyId: string; pem: string } | null;
  /**
   * The key the close statement names, when it is another (the signing key was rotated while the
   * shoe was open): the chain head's signature was checked with it. Null otherwise, or if unknown.
   */
  closePublicKey: { keyId: string; pem: string } | null;
  commitment: string;
  clientSeed: string | null;
  /** hex; null until the shoe is closed (never the sealed seed). */
  serverSeed: string | null;
  /** Null until the shoe is closed. */
  cutIndex: number | null;
  /** The first card shown and the cards burned after it: positions 0..burned of the shoe. */
  burn: { shown: string; burned: number; positions: { from: number; to: number } } | null;
  close: { statement: ShoeCloseStatement; signature: string } | null;
}

export interface ReplayStep {
  /** 1-based order in the coup. */
  step: number;
  action: 'DEAL' | 'DRAW' | 'STAND';
  to: 'PLAYER' | 'BANKER';
  /** Notation (`KH`); null for a stand decision. */
  card: string | null;
  /** Position of the card in the shoe order; null for a stand decision. */
  position: number | null;
  /** Stable rule code: INITIAL, NATURAL_9, PLAYER_DRAWS_0_5, BANKER_TABLEAU_3_VS_8_STANDS, ... */
  rule: string;
  note: string;
  /** Hand totals once this step is done. */
  playerTotal: number;
  bankerTotal: number;
}

export interface ReplayCoup {
  /** 0-based number of the coup in the shoe. */
  index: number;
  /** Its cards are the shoe positions [start, start + cardsUsed). */
  start: number;
  cardsUsed: number;
  positions: number[];
  steps: ReplayStep[];
  player: { cards: string[]; total: number };
  banker: { cards: string[]; total: number };
  winner: 'PLAYER' | 'BANKER' | 'TIE';
  natural: boolean;
  playerNatural: boolean;
  bankerNatural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  cutCardOut: boolean;
  last: boolean;
}

export interface ReplayBet {
  type: BetType;
  stake: number;
  result: 'WIN' | 'LOSE' | 'PUSH' | 'REFUNDED' | null;
  payout: number | null;
  commission: number | null;
  commissionOwed: number | null;
}

export interface ReplayMovement {
  seq: number;
  kind: LedgerKind;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  at: string;
}

export interface ReplayPosition {
  playerId: string;
  status: 'OPEN' | 'SETTLED' | 'REFUNDED';
  bets: ReplayBet[];
  stake: number;
  payout: number | null;
  commission: number | null;
  commissionOwed: number | null;
  /** The wallet before the round's first bet and after its last movement (payout or refund). */
  balance: { currency: string | null; before: number | null; after: number | null };
  /** The round's ledger entries of this player, in order. */
  movements: ReplayMovement[];
}

export interface ReplayEvent {
  seq: number;
  type: string;
  at: string;
  hash: string;
  prevHash: string;
}

export interface RoundReplay {
  roundId: string;
  tableId: string;
  shoeId: string;
  operatorId: string;
  /** 1-based number of the round in its shoe. */
  number: number;
  phase: RoundStatus;
  openedAt: string;
  closedAt: string | null;
  dealtAt: string | null;
  settledAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  shoe: ReplayShoe;
  coup: ReplayCoup | null;
  positions: ReplayPosition[];
  totals: RoundTotals | null;
  betsDigest: string | null;
  settlementsDigest: string | null;
  /** This round's events in the shoe's audit chain. */
  events: ReplayEvent[];
  verification: RoundVerification;
}

export interface PlayerRecallQuery {
  playerId: string;
  /** Regulators name the supervised operator; others default to their own. */
  operatorId?: string;
  cursor?: string;
  /** 1..50, default 10. */
  limit?: number;
}

export interface PlayerRecall {
  playerId: string;
  operatorId: string;
  /** The most recent rounds of this page, in play order (oldest first); positions: this player's. */
  rounds: RoundReplay[];
  /** Older rounds: pass back as `cursor`. */
  nextCursor: string | null;
}
