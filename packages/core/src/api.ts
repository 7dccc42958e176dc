/**
 * The use cases the HTTP handlers call (createCore). Every call takes the Actor: another tenant's
 * resource is NOT_FOUND; a refusal is a DomainError with a stable code (listed in docs/data-model.md).
 */
import type { BetType, DeepPartial, TableConfig, TableVariant } from '@pyb/engine';
import type { ShoeBundle, ShoeCloseStatement, ShoeStatement } from '@pyb/fairness';
import type { Actor } from './actor';
import type { LedgerKind, RoundStatus, ShoeStatus } from './model';
import type { SettlementBatch } from './ports/settlement-queue';
import type { PlayerRecall, PlayerRecallQuery, RoundReplay } from './replay/types';

// ---- inputs -------------------------------------------------------------------------------------

export interface CreateTableInput {
  name: string;
  variant: TableVariant;
  /** Overrides of the preset (deep-merged, then validated). */
  config?: DeepPartial<TableConfig>;
  /** Betting gates per round (1..64, default 16): an operational setting, not a rule of the game. */
  betGates?: number;
}

export interface OpenRoundInput {
  tableId: string;
  /**
   * Only for the first round of a shoe, which fixes it (after the commitment was published, before the
   * first card). Omitted there: a random one is drawn (Ids port, no key-service call). On a later
   * round it must equal the fixed one.
   */
  clientSeed?: string;
}

export interface BetInput {
  type: BetType;
  amount: number;
}

export interface PlaceBetInput {
  roundId: string;
  playerId: string;
  /** Added to the player's position of the round (a type already bet is raised). */
  bets: readonly BetInput[];
  /**
   * The seat (1..seats) to bet from: claims it if free (or lost by an idle holder), first come. Omitted:
   * the seat the player holds at the table, if any, else he bets standing. Fixed for the coup by his
   * first bet in it.
   */
  seat?: number;
  /** The client's key; scoped per operator and player. A retry returns the first answer. */
  idempotencyKey: string;
}

/**
 * Before "no va más" a player may reduce a bet or withdraw it (seed 004 forbids it only once the coup
 * starts). `bets`: take `amount` off each type (down to 0 withdraws it); `types`: withdraw those types
 * whole; neither: withdraw every bet of the position. The stake comes back through the ledger.
 */
export interface WithdrawBetsInput {
  roundId: string;
  playerId: string;
  bets?: readonly BetInput[];
  types?: readonly BetType[];
  idempotencyKey: string;
}

/** Irregularities (seed 004 §2.7) and operator causes a round can be voided for. */
export const VOID_REASONS = [
  'EXPOSED_CARD',
  'EXTRA_CARDS',
  'MISDEAL',
  'OPERATOR_ERROR',
  'TECHNICAL_FAULT',
] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

export interface VoidRoundInput {
  roundId: string;
  reason: VoidReason;
  note?: string;
}

export interface WalletTransactionInput {
  playerId: string;
  type: 'CREDIT' | 'DEBIT';
  amount: number;
  /** The wallet's currency; the first credit creates the wallet in it. */
  currency: string;
  idempotencyKey: string;
  reference?: string;
}

export interface WalletRef {
  playerId: string;
  /** Regulators name the supervised operator; others default to their own. */
  operatorId?: string;
}

export interface LedgerQuery extends WalletRef {
  /** From the previous page. */
  cursor?: string;
  /** 1..100, default 50. */
  limit?: number;
}

export interface PlayerRoundsQuery extends WalletRef {
  cursor?: string;
  limit?: number;
}

// ---- views --------------------------------------------------------------------------------------

export interface TableView {
  tableId: string;
  operatorId: string;
  name: string;
  config: TableConfig;
  currentShoeId: string | null;
  openRoundId: string | null;
  createdAt: string;
}

export interface ShoeView {
  shoeId: string;
  tableId: string;
  operatorId: string;
  number: number;
  /** OPEN until closed (an ENDED shoe is OPEN with `ended`). */
  status: 'OPEN' | 'CLOSED';
  phase: ShoeStatus;
  ended: boolean;
  decks: number;
  commitment: string;
  statement: ShoeStatement;
  /** base64 DER ECDSA P-256 over the RFC 8785 statement. */
  signature: string;
  keyId: string;
  clientSeed: string | null;
  rounds: number;
  coups: number;
  burn: { shown: string; burned: number } | null;
  openedAt: string;
  closedAt: string | null;
  /** hex, revealed at close. */
  serverSeed: string | null;
  cutIndex: number | null;
  /** The signed audit-chain head (at close). */
  close: { statement: ShoeCloseStatement; signature: string } | null;
}

export interface CoupStepView {
  /** Notation (`KH`); null for a stand decision. */
  card: string | null;
  to: 'PLAYER' | 'BANKER';
  action: 'DEAL' | 'DRAW' | 'STAND';
  rule: string;
  note: string;
}

export interface CoupView {
  player: { cards: string[]; total: number };
  banker: { cards: string[]; total: number };
  winner: 'PLAYER' | 'BANKER' | 'TIE';
  natural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  steps: CoupStepView[];
  /** Positions of its cards in the shoe order: [start, start + cardsUsed). */
  start: number;
  cardsUsed: number;
  cutCardOut: boolean;
}

export interface BetView {
  type: BetType;
  amount: number;
  result: 'WIN' | 'LOSE' | 'PUSH' | null;
  payout: number | null;
  commission: number | null;
  commissionOwed: number | null;
}

export interface PositionView {
  roundId: string;
  playerId: string;
  /** The seat the player bets from (1..seats), or null: standing. */
  seat: number | null;
  bets: BetView[];
  stake: number;
  payout: number | null;
  commission: number | null;
  commissionOwed: number | null;
  status: 'OPEN' | 'SETTLED' | 'REFUNDED';
}

export interface RoundView {
  roundId: string;
  tableId: string;
  shoeId: string;
  operatorId: string;
  /** Number of the round in its shoe, from 1. */
  coup: number;
  status: 'OPEN' | 'CLOSED' | 'RESOLVED' | 'VOIDED';
  phase: RoundStatus;
  openedAt: string;
  resolvedAt: string | null;
  result: CoupView | null;
  positions: PositionView[];
  /** The shoe's last coup: announced when the round opens where that is known (ONE_MORE_COUP), else once dealt. */
  lastCoup: boolean;
  voidReason: string | null;
  betsDigest: string | null;
  settlementsDigest: string | null;
}

export interface WalletView {
  operatorId: string;
  playerId: string;
  currency: string;
  balance: number;
  /** Deferred commission owed. */
  commissionOwed: number;
  /** Held back for open BANKER bets (DEFERRED). */
  reserved: number;
  /** What bets and debits may take: balance − commissionOwed − reserved. */
  available: number;
  updatedAt: string;
}

export interface LedgerEntryView {
  entryId: string;
  seq: number;
  playerId: string;
  kind: LedgerKind;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  roundId: string | null;
  shoeId: string | null;
  reference: string | null;
  createdAt: string;
}

export interface LedgerPageView {
  entries: LedgerEntryView[];
  nextCursor: string | null;
}

export interface PlaceBetResult {
  position: PositionView;
  /** The wallet balance right after this bet. */
  balance: number;
  entry: LedgerEntryView;
  /** True when the key had already been used for this same bet (nothing was debited again). */
  replayed: boolean;
}

export interface WalletTransactionResult {
  entry: LedgerEntryView;
  wallet: WalletView;
  replayed: boolean;
}

export interface LeaveTableResult {
  tableId: string;
  playerId: string;
  commissionCollected: number;
  balance: number;
  /** The seat the player gave up by leaving, if he held one. */
  seatReleased: number | null;
}

export interface PlayerRoundView {
  roundId: string;
  tableId: string;
  shoeId: string;
  openedAt: string;
  position: PositionView;
}

export interface ChainProblem {
  /** The round where the chain breaks; null for a shoe-level item. */
  roundId: string | null;
  /** Sequence number of the audit event concerned, when there is one. */
  seq: number | null;
  code: string;
  detail: string;
}

export interface ChainReport {
  shoeId: string;
  ok: boolean;
  events: number;
  head: string | null;
  rounds: number;
  /** Whether the seed was revealed and every coup recomputed from it. */
  coupsVerified: boolean;
  problems: ChainProblem[];
}

// ---- the use cases ------------------------------------------------------------------------------

export interface Core {
  createTable(actor: Actor, input: CreateTableInput): Promise<TableView>;
  getTable(actor: Actor, input: { tableId: string }): Promise<TableView>;

  openShoe(actor: Actor, input: { tableId: string }): Promise<ShoeView>;
  getShoe(actor: Actor, input: { shoeId: string }): Promise<ShoeView>;
  /** Resumable: call again after a failure. */
  closeShoe(actor: Actor, input: { shoeId: string }): Promise<ShoeView>;

  openRound(actor: Actor, input: OpenRoundInput): Promise<RoundView>;
  getRound(actor: Actor, input: { roundId: string }): Promise<RoundView>;
  placeBet(actor: Actor, input: PlaceBetInput): Promise<PlaceBetResult>;
  /** Reduces or withdraws bets before "no va más"; idempotent on the client's key like a bet. */
  withdrawBets(actor: Actor, input: WithdrawBetsInput): Promise<PlaceBetResult>;
  /** No va más, deal, settle. Resumable and idempotent: a resolved round is returned as it is. */
  resolveRound(actor: Actor, input: { roundId: string }): Promise<RoundView>;
  /** Refunds every stake exactly once. Resumable. */
  voidRound(actor: Actor, input: VoidRoundInput): Promise<RoundView>;
  leaveTable(actor: Actor, input: { tableId: string; playerId: string }): Promise<LeaveTableResult>;

  walletTransaction(actor: Actor, input: WalletTransactionInput): Promise<WalletTransactionResult>;
  getWallet(actor: Actor, input: WalletRef): Promise<WalletView>;
  getLedger(actor: Actor, input: LedgerQuery): Promise<LedgerPageView>;
  playerRounds(
    actor: Actor,
    input: PlayerRoundsQuery,
  ): Promise<{ rounds: PlayerRoundView[]; nextCursor: string | null }>;

  /** Recomputes the shoe's audit chain from the stored items and reports where it breaks. */
  checkShoeChain(actor: Actor, input: { shoeId: string }): Promise<ChainReport>;

  /** A round step by step with its verification; seed-dependent checks are PENDING_REVEAL until close. */
  replayRound(actor: Actor, input: { roundId: string }): Promise<RoundReplay>;
  /** Game recall: a player's most recent rounds (a page, in play order), each replayed. */
  recallPlayerRounds(actor: Actor, input: PlayerRecallQuery): Promise<PlayerRecall>;
  /** A closed shoe as one public bundle that `baccarat verify` checks offline. SHOE_NOT_CLOSED before. */
  exportAudit(actor: Actor, input: { shoeId: string }): Promise<ShoeBundle>;

  /** The settlement queue's consumer (no actor: the system runs it). Idempotent; throws to be retried. */
  runSettlementBatch(batch: SettlementBatch): Promise<void>;
}
