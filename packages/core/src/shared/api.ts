/**
 * The use cases the HTTP handlers call (createCore). Every call takes the Actor: another tenant's
 * resource is NOT_FOUND; a refusal is a DomainError with a stable code (listed in docs/data-model.md).
 */
import type * as C from '@pyb/contracts';
import type { ShoeBundle, ShoeProof } from '@pyb/fairness';
import type * as z from 'zod';
import type { Actor } from './actor';
import type { KeyCertificateRecord, SeamlessTxRecord, ShoeRecord } from './model';
import type { PublicKey } from './ports/key-service';
import type { SettlementBatch } from './ports/settlement-queue';
import type { PlayerRecall, PlayerRecallQuery, RoundReplay } from './replay-types';

// ---- inputs: the contract's request bodies (@pyb/contracts) with the ids of the path ---------------
// The core validates each again (ids, amounts, free text): it is called by more than the handlers.

type Body<T extends z.ZodType> = z.output<T>;

type CreateTableBody = Body<ReturnType<typeof C.CreateTableRequest>>;
/**
 * The API's body, except `config.decks`: the HTTP contract takes 6 or 8 (the rulebooks'), the core
 * any count its engine does (1..8) — a facility of in-process tests, whose short shoes keep a whole
 * shoe to a handful of coups (docs/rules.md, "Tables"). No caller outside the process reaches it.
 */
export type CreateTableInput = Omit<CreateTableBody, 'config'> & {
  config?: Omit<NonNullable<CreateTableBody['config']>, 'decks'> & { decks?: number };
};

/**
 * `clientSeed`: only for the first round of a shoe, which fixes it (after the commitment was
 * published, before the first card). Omitted there: a random one is drawn (Ids port, no key-service
 * call). On a later round it must equal the fixed one.
 */
export type OpenRoundInput = { tableId: string } & Body<ReturnType<typeof C.OpenRoundRequest>>;

/** Required to close a shoe the cut card has not ended (SHOE_CLOSE_REASONS of @pyb/contracts). */
export type CloseShoeInput = { shoeId: string } & Body<ReturnType<typeof C.CloseShoeRequest>>;

/** A player's seed: 1..256 UTF-8 bytes of clean text, public once the shoe closes. */
export type ContributeSeedInput = { shoeId: string } & Body<ReturnType<typeof C.ContributeSeedRequest>>;

export type ListShoesInput = { tableId: string } & Partial<z.output<ReturnType<typeof C.TableShoesQuery>>>;

export type BetInput = Body<ReturnType<typeof C.BetInput>>;

/**
 * The bets are added to the player's position of the round (a type already bet is raised).
 * `idempotencyKey`: the client's key, scoped per operator and player; a retry returns the first answer.
 */
export type PlaceBetInput = { roundId: string; idempotencyKey: string } & Body<
  ReturnType<typeof C.PlaceBetRequest>
>;

/**
 * Before "no va más" a player may reduce a bet or withdraw it (seed 004 forbids it only once the coup
 * starts). `bets`: take `amount` off each type (down to 0 withdraws it); `types`: withdraw those types
 * whole; neither: withdraw every bet of the position. The stake comes back through the ledger.
 */
export type WithdrawBetsInput = { roundId: string; idempotencyKey: string } & Body<
  ReturnType<typeof C.CancelBetsRequest>
> & { bets?: Body<ReturnType<typeof C.ReduceBetsRequest>>['bets'] };

export type VoidRoundInput = { roundId: string } & Body<ReturnType<typeof C.VoidRoundRequest>>;

/** `currency`: the wallet's; the first credit creates the wallet in it. */
export type WalletTransactionInput = { playerId: string; idempotencyKey: string } & Body<
  ReturnType<typeof C.WalletTransactionRequest>
>;

export type RgSettingsInput = Body<ReturnType<typeof C.RgSettingsRequest>>;
export type RgStatusView = z.output<ReturnType<typeof C.RgStatus>>;

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

// ---- views: the HTTP contract's shapes (@pyb/contracts), defined there once ----------------------

export type TableView = z.output<ReturnType<typeof C.Table>>;
export type TableEventsView = z.output<ReturnType<typeof C.TableEvents>>;
export type AvailabilityLogView = z.output<ReturnType<typeof C.AvailabilityLog>>;
export type GgrReportView = z.output<ReturnType<typeof C.GgrReport>>;
export type PlayerHistoryView = z.output<ReturnType<typeof C.PlayerHistory>>;
export type HistoryTotalsView = z.output<ReturnType<typeof C.HistoryTotals>>;
export type SeamlessTransactionsView = z.output<ReturnType<typeof C.SeamlessTransactions>>;
export type SeamlessTransactionView = z.output<ReturnType<typeof C.SeamlessTransaction>>;
export type SeamlessSummaryView = z.output<ReturnType<typeof C.SeamlessSummary>>;
export type SeamlessReportView = z.output<ReturnType<typeof C.SeamlessReport>>;
export interface SeamlessTransactionsQuery {
  operatorId: string;
  from: string;
  to: string;
  state?: C.SeamlessTxState | undefined;
  /** 1..100, default 50. */
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface PlayerHistoryQuery {
  playerId: string;
  /** UTC ISO times: rounds opened in [from, to). */
  from: string;
  to: string;
  /** Admins name the player's operator; operators default to their own. */
  operatorId?: string;
  cursor?: string;
  /** 1..50, default 10. */
  limit?: number;
}
/** start (with settings), pause, resume or stop a table's cadence. */
export type ControlCadenceInput = { tableId: string } & Body<ReturnType<typeof C.CadenceControlRequest>>;

export type UnlockTableInput = { tableId: string } & Body<ReturnType<typeof C.UnlockTableRequest>>;
export type SetAvailabilityInput = { tableId: string } & Body<ReturnType<typeof C.AvailabilityRequest>>;
export type AvailabilityLogInput = { operatorId: string; from: string; to: string };
export type AbandonShoeInput = { shoeId: string } & Body<ReturnType<typeof C.AbandonShoeRequest>>;
export type ShoeView = z.output<ReturnType<typeof C.Shoe>>;
export type CoupView = z.output<ReturnType<typeof C.Coup>>;
export type BetView = z.output<ReturnType<typeof C.BetView>>;
export type PositionView = z.output<ReturnType<typeof C.Position>>;
export type RoundView = z.output<ReturnType<typeof C.Round>>;
export type WalletView = z.output<ReturnType<typeof C.Wallet>>;
export type LedgerEntryView = z.output<ReturnType<typeof C.LedgerEntry>>;
export type LedgerPageView = z.output<ReturnType<typeof C.LedgerPage>>;
export type LeaveTableResult = z.output<ReturnType<typeof C.LeaveTableResponse>>;
export type ScoreboardView = z.output<ReturnType<typeof C.Scoreboard>>;
export type SeatMapView = z.output<ReturnType<typeof C.SeatMap>>;

export type PlaceBetResult = z.output<ReturnType<typeof C.PlaceBetResponse>> & {
  /** True when the key had already been used for this same bet (nothing was debited again). */
  replayed: boolean;
};

export type ContributionView = z.output<ReturnType<typeof C.Contribution>>;
export type ShoeSummaryView = z.output<ReturnType<typeof C.ShoeSummary>>;
export type ShoePageView = z.output<ReturnType<typeof C.ShoePage>>;

export type WalletTransactionResult = z.output<ReturnType<typeof C.WalletTransactionResponse>> & {
  replayed: boolean;
};

/** What one delivery of a seamless outbox record did (`delivered: false`: it was final already). */
export interface DeliveryResult {
  txId: string;
  state: SeamlessTxRecord['state'];
  delivered: boolean;
}

export type OperatorWalletView = z.output<ReturnType<typeof C.OperatorWallet>>;

export interface OperatorWalletInput {
  operatorId: string;
  walletMode: C.WalletMode;
  /** Required in seamless mode: the wallet's base URL and where its HMAC secret is. */
  seamless?: { baseUrl: string; secretRef: string };
}

/** A signing key with its certificate and validity (GET /v1/signing-key). */
export interface SigningKeyAnswer {
  key: PublicKey;
  /** Its certificate (signed by the generation before it, or by itself for the first); null before its first signature. */
  certificate: KeyCertificateRecord | null;
  /** When the next generation took over; null while it is the newest certified. */
  validUntil: string | null;
  /** Every generation's certificate, oldest first: what a verifier pins (`baccarat verify --key-certificates`). */
  certificates: KeyCertificateRecord[];
}

/** The scheduled check that an ended shoe was closed in time. */
export interface CloseDeadlineCheck {
  shoeId: string;
  /** true: closed (or never ended); false: ended and still not closed at its deadline. */
  closedInTime: boolean;
  status: ShoeRecord['status'] | 'MISSING';
  endedAt: string | null;
  detail: string;
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
  /** Clears a lock-out (admin), with a reason: TABLE_UNLOCKED. */
  unlockTable(actor: Actor, input: UnlockTableInput): Promise<TableView>;
  /** Start (with settings), pause, resume or stop the table running itself (tables/cadence.ts). */
  controlCadence(actor: Actor, input: ControlCadenceInput): Promise<TableView>;
  /** The table's lock-outs and their clearing, in order. */
  listTableEvents(actor: Actor, input: { tableId: string }): Promise<TableEventsView>;
  setTableAvailability(actor: Actor, input: SetAvailabilityInput): Promise<TableView>;
  availabilityLog(actor: Actor, input: AvailabilityLogInput): Promise<AvailabilityLogView>;
  /** Gross gaming revenue of one UTC day, per table and currency (rounds finished that day). */
  ggrReport(actor: Actor, input: { operatorId?: string; date: string }): Promise<GgrReportView>;

  openShoe(actor: Actor, input: { tableId: string }): Promise<ShoeView>;
  getShoe(actor: Actor, input: { shoeId: string }): Promise<ShoeView>;
  /** Resumable: call again after a failure. An early close needs a reason. */
  closeShoe(actor: Actor, input: CloseShoeInput): Promise<ShoeView>;
  /** Gives up a shoe whose chain close found broken (its table locked by it): recorded, never verified. */
  abandonShoe(actor: Actor, input: AbandonShoeInput): Promise<ShoeView>;
  /** A player's seed for the shoe, before its first round. */
  contributeSeed(actor: Actor, input: ContributeSeedInput): Promise<ContributionView>;
  /** Every shoe of a table, by number, a page at a time. */
  listShoes(actor: Actor, input: ListShoesInput): Promise<ShoePageView>;
  /** The public proof of a closed shoe (no key needed: nothing personal in it). */
  shoeProof(input: { shoeId: string }): Promise<ShoeProof>;

  openRound(actor: Actor, input: OpenRoundInput): Promise<RoundView>;
  getRound(actor: Actor, input: { roundId: string }): Promise<RoundView>;
  placeBet(actor: Actor, input: PlaceBetInput): Promise<PlaceBetResult>;
  /** Reduces or withdraws bets before "no va más"; idempotent on the client's key like a bet. */
  withdrawBets(actor: Actor, input: WithdrawBetsInput): Promise<PlaceBetResult>;
  /** No va más, deal, settle. Resumable and idempotent: a resolved round is returned as it is. */
  /** "No va más" as its own step: betting closed and, under pyb-shoe/3, the receipt naming the beacon round. */
  closeBetting(actor: Actor, input: { roundId: string }): Promise<RoundView>;
  resolveRound(actor: Actor, input: { roundId: string }): Promise<RoundView>;
  /** Refunds every stake exactly once. Resumable. */
  voidRound(actor: Actor, input: VoidRoundInput): Promise<RoundView>;
  leaveTable(actor: Actor, input: { tableId: string; playerId: string }): Promise<LeaveTableResult>;

  walletTransaction(actor: Actor, input: WalletTransactionInput): Promise<WalletTransactionResult>;
  getWallet(actor: Actor, input: WalletRef): Promise<WalletView>;
  getLedger(actor: Actor, input: LedgerQuery): Promise<LedgerPageView>;
  /** The operator sets a player's responsible-gaming limits, exclusion or session time-out (RG_SETTINGS entry). */
  setResponsibleGaming(
    actor: Actor,
    input: RgSettingsInput & { playerId: string; idempotencyKey: string },
  ): Promise<RgStatusView & { replayed: boolean }>;
  /** Limits in force, pending relaxations, exclusion, period counters and table sessions (reality check). */
  getResponsibleGaming(actor: Actor, input: { playerId: string }): Promise<RgStatusView>;

  /** Recomputes the shoe's audit chain from the stored items and reports where it breaks. */
  checkShoeChain(actor: Actor, input: { shoeId: string }): Promise<ChainReport>;

  /** A round step by step with its verification; seed-dependent checks are PENDING_REVEAL until close. */
  replayRound(actor: Actor, input: { roundId: string }): Promise<RoundReplay>;
  /** Game recall: a player's most recent rounds (a page, in play order), each replayed. */
  recallPlayerRounds(actor: Actor, input: PlayerRecallQuery): Promise<PlayerRecall>;
  /** The player's rounds in a date range with the period's totals (docs/api.md, "Player history"). */
  playerHistory(actor: Actor, input: PlayerHistoryQuery): Promise<PlayerHistoryView>;
  /** A closed shoe as one public bundle that `baccarat verify` checks offline. SHOE_NOT_CLOSED before. */
  exportAudit(actor: Actor, input: { shoeId: string }): Promise<ShoeBundle>;

  /** The settlement queue's consumer (no actor: the system runs it). Idempotent; throws to be retried. */
  /**
   * Delivers one pending seamless credit or rollback to the operator's wallet (the outbox queue's
   * consumer). Idempotent; throws SeamlessDeliveryPending while the wallet's answer is unknown.
   */
  deliverSeamlessTx(txId: string): Promise<DeliveryResult>;
  /** A seamless operator's transactions of a period with the period's reconciliation (docs/seamless-wallet.md §9). */
  listSeamlessTransactions(actor: Actor, input: SeamlessTransactionsQuery): Promise<SeamlessTransactionsView>;
  /** The daily job's stored reconciliation of one UTC day. */
  getSeamlessReport(actor: Actor, input: { operatorId: string; date: string }): Promise<SeamlessReportView>;
  /** The daily job (no actor): the day's report stored, its stuck transactions re-sent to the outbox. */
  reconcileSeamlessDay(input: { operatorId: string; date?: string }): Promise<SeamlessReportView>;
  /** An operator's wallet mode and its changes (the operator's keys, its regulators, platform admins). */
  getOperatorWallet(actor: Actor, input: { operatorId: string }): Promise<OperatorWalletView>;
  /** Sets an operator's wallet mode (platform-admin keys: the route, scripts/provision, the dev seed). */
  setOperatorWallet(actor: Actor, input: OperatorWalletInput): Promise<OperatorWalletView>;
  /** Runs one settlement batch (the queue's consumer); answers the table it moved. */
  runSettlementBatch(batch: SettlementBatch): Promise<string>;
  /** A signing key (the current one, or the one named) with its certificate and validity (public). */
  signingKey(input: { keyId?: string | undefined }): Promise<SigningKeyAnswer>;
  /** Whether an ended shoe was closed by its deadline (the scheduled check; no caller, no actor). */
  checkCloseDeadline(input: { shoeId: string }): Promise<CloseDeadlineCheck>;
}
