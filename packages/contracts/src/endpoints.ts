import { lazily } from '@pyb/engine';
import * as z from 'zod';
import { PlayerHistory, PlayerHistoryParams, PlayerHistoryQuery } from './history';
import { OperatorWallet, OperatorWalletParams, SetOperatorWalletRequest } from './operators';
import type { ProblemCode } from './problems';
import {
  AuditParams,
  PlayerRecall,
  PlayerRoundsParams,
  PlayerRoundsQuery,
  ReplayParams,
  RoundReplay,
  ShoeBundle,
  ShoeProof,
} from './replay';
import {
  FeedFileList,
  FeedFileParams,
  FeedFilesQuery,
  FeedParams,
  FeedQuery,
  FeedText,
  GgrParams,
  GgrQuery,
  GgrReport,
} from './reports';
import { RgSettingsRequest, RgStatus } from './responsible-gaming';
import {
  CancelBetsRequest,
  LeaveParams,
  LeaveTableRequest,
  LeaveTableResponse,
  OpenRoundRequest,
  PlaceBetRequest,
  PlaceBetResponse,
  ReduceBetsRequest,
  ResolveRoundRequest,
  Round,
  RoundParams,
  VoidRoundRequest,
} from './rounds';
import {
  SeamlessParams,
  SeamlessReport,
  SeamlessReportParams,
  SeamlessTransactions,
  SeamlessTransactionsQuery,
} from './seamless-reconciliation';
import {
  CloseShoeRequest,
  ContributeSeedRequest,
  Contribution,
  OpenShoeRequest,
  Shoe,
  ShoePage,
  ShoeParams,
  SigningKey,
  SigningKeyQuery,
  TableShoesParams,
  TableShoesQuery,
} from './shoes';
import {
  CreateTableRequest,
  Scoreboard,
  ScoreboardQuery,
  SeatMap,
  Table,
  TableEvents,
  TableParams,
  UnlockTableRequest,
} from './tables';
import {
  LedgerPage,
  LedgerQuery,
  Wallet,
  WalletParams,
  WalletTransactionRequest,
  WalletTransactionResponse,
} from './wallets';

/**
 * The HTTP contract of each endpoint, keyed by its handler name in functions/src/routes.ts. The
 * handlers validate with these (request and response) and the OpenAPI document is built from them,
 * so the two cannot drift.
 */
/** Groups of endpoints in the document (and in docs/api.md). */
export const TAGS = {
  Tables: 'Tables and their results panel (scoreboard).',
  Shoes: 'Provably fair shoes: commitment before any bet, seed revealed at close.',
  Rounds: 'Rounds (coups): open, bets, "no va más" and settlement, void.',
  Wallets: 'Wallets and their ledgers, in integer minor units.',
  Regulators: 'Round replay, game recall and the audit export (docs/regulators.md).',
  Keys: 'The public keys that sign shoe statements and audit heads.',
  Operators: "An operator's wallet mode (hosted or seamless), set by platform-admin keys.",
  Meta: 'This API described.',
} as const;
export type Tag = keyof typeof TAGS;

export interface EndpointContract {
  summary: string;
  description: string;
  tag: Tag;
  /**
   * The codes the use case can answer with besides the ones the HTTP layer adds to every route of its
   * kind (HTTP_PROBLEMS): the document lists them per status, and the e2e validator holds the API to it.
   */
  problems: readonly ProblemCode[];
  /**
   * The schemas, as their `lazily` builders (packages/engine/src/lazily.ts): a handler builds its own
   * endpoint's schemas on its first request, never another endpoint's.
   */
  params?: () => z.ZodObject;
  query?: () => z.ZodObject;
  /** POST bodies. When every field is optional, an absent body counts as `{}`. */
  body?: () => z.ZodType;
  response: () => z.ZodType;
  /**
   * Set when the success answer is not JSON: the media types it may have (the use case returns
   * `{ contentType, body }`, the HTTP layer sends the body as it is). Errors stay problem+json.
   */
  media?: readonly string[];
  /** The success status: 201 when the POST creates a resource. */
  status: 200 | 201;
}

/** An OpenAPI document (the answer of the two Meta endpoints). */
const OpenApiDocument = lazily(() => z.record(z.string(), z.unknown()));

export const ENDPOINTS = {
  'create-table': {
    tag: 'Tables',
    description:
      'Creates a table from a preset (mini, midi, full) with optional overrides; the configuration is validated as a whole. Admin keys only.',
    problems: ['TABLE_CONFIG_INVALID'],
    summary: 'Create a table from a preset (admin)',
    body: CreateTableRequest,
    response: Table,
    status: 201,
  },
  'get-table': {
    tag: 'Tables',
    description: 'A table with its configuration, its shoe in play and its round in play.',
    problems: ['TABLE_NOT_FOUND'],
    summary: 'Read a table',
    params: TableParams,
    response: Table,
    status: 200,
  },
  'get-scoreboard': {
    tag: 'Tables',
    description:
      "The coups of one shoe and the roads drawn from them. Default: the table's current shoe — after a close the table has none, and the answer is empty (`shoeId: null`): pass `shoeId` to see a closed shoe's.",
    problems: ['TABLE_NOT_FOUND', 'SHOE_NOT_FOUND'],
    summary: "The results panel (bead plate, big road, derived roads) of the table's current shoe",
    params: TableParams,
    query: ScoreboardQuery,
    response: Scoreboard,
    status: 200,
  },
  'get-seats': {
    tag: 'Tables',
    description:
      "The table's seats and who holds them, read for the round open now (else the next one). A holder without a bet for more than 3 coups is `idle`: his seat goes to the first player who claims it with a bet's `seat` (seed 004). Every other player bets standing.",
    problems: ['TABLE_NOT_FOUND'],
    summary: 'The seat map of a table',
    params: TableParams,
    response: SeatMap,
    status: 200,
  },
  'unlock-table': {
    tag: 'Tables',
    description:
      'Clears the lock a key-service or randomness failure put on the table (docs/regulators.md, "Lock-out"), once the cause is fixed, with a reason recorded in the TABLE_UNLOCKED event. Admin keys only.',
    problems: ['TABLE_NOT_FOUND', 'TABLE_NOT_LOCKED', 'INVALID_INPUT', 'CONCURRENT_UPDATE'],
    summary: 'Clear a table lock with a reason (admin)',
    params: TableParams,
    body: UnlockTableRequest,
    response: Table,
    status: 200,
  },
  'list-table-events': {
    tag: 'Tables',
    description:
      "The table's own audit events in order: each TABLE_LOCKED (what failed, where, when) and the TABLE_UNLOCKED that cleared it (reason, by which key role).",
    problems: ['TABLE_NOT_FOUND'],
    summary: "A table's lock-outs and their clearing",
    params: TableParams,
    response: TableEvents,
    status: 200,
  },
  'open-shoe': {
    tag: 'Shoes',
    description:
      'Draws a server seed (sealed by the key service), publishes its SHA-256 commitment in a signed statement and starts the audit chain. One shoe in play per table. Admin keys only.',
    problems: [
      'TABLE_NOT_FOUND',
      'SHOE_ALREADY_OPEN',
      'SIGNING_KEY_UNCERTIFIED',
      'TABLE_LOCKED',
      'KEY_SERVICE_UNAVAILABLE',
    ],
    summary: 'Open a new shoe: seed sealed, commitment signed and published (admin)',
    params: TableParams,
    body: OpenShoeRequest,
    response: Shoe,
    status: 201,
  },
  'get-shoe': {
    tag: 'Shoes',
    description: 'A shoe: its signed statement and commitment; its server seed and cut once closed.',
    problems: ['SHOE_NOT_FOUND'],
    summary: 'Read a shoe (seed revealed once closed)',
    params: ShoeParams,
    response: Shoe,
    status: 200,
  },
  'close-shoe': {
    tag: 'Shoes',
    description:
      'Re-walks the audit chain (a chain that does not hold is not signed: 409 AUDIT_CHAIN_BROKEN), collects the deferred commission, reveals the server seed, appends SHOE_CLOSED and signs the chain head. A shoe the cut card has not ended (an interrupted session) closes only with a `reason` (422 CLOSE_REASON_REQUIRED). Resumable: call again after a failure. Admin keys only.',
    problems: [
      'SHOE_NOT_FOUND',
      'CLOSE_REASON_INVALID',
      'ROUND_IN_PLAY',
      'AUDIT_CHAIN_BROKEN',
      'CONCURRENT_UPDATE',
      'CLOSE_REASON_REQUIRED',
      'SIGNING_KEY_UNCERTIFIED',
    ],
    summary: 'Close a shoe: reveal the seed, collect deferred commission, sign the audit head (admin)',
    params: ShoeParams,
    body: CloseShoeRequest,
    response: Shoe,
    status: 200,
  },
  'contribute-seed': {
    tag: 'Shoes',
    problems: [
      'SEED_INVALID',
      'SHOE_NOT_FOUND',
      'SHOE_NOT_OPEN',
      'CONTRIBUTIONS_CLOSED',
      'CONTRIBUTIONS_FULL',
      'CONCURRENT_UPDATE',
    ],
    summary: "Add a player's seed to a shoe before its first round",
    description:
      "Each seed is recorded in order in the shoe's audit chain and mixed into its order: one seed nobody could foresee is enough. Opening the shoe's first round closes the contributions (409 CONTRIBUTIONS_CLOSED afterwards).",
    params: ShoeParams,
    body: ContributeSeedRequest,
    response: Contribution,
    status: 201,
  },
  'list-shoes': {
    tag: 'Shoes',
    problems: ['TABLE_NOT_FOUND', 'CURSOR_INVALID'],
    summary: 'Every shoe of a table, by number (a page at a time)',
    description:
      "Numbers are gapless and each statement names the previous shoe's close head, so a shoe left out, or ended and never closed, shows.",
    params: TableShoesParams,
    query: TableShoesQuery,
    response: ShoePage,
    status: 200,
  },
  'get-proof': {
    tag: 'Shoes',
    problems: ['SHOE_NOT_FOUND', 'SHOE_NOT_CLOSED', 'SHOE_NEVER_PLAYED'],
    summary: 'The public proof of a closed shoe (no key): `baccarat verify` checks it',
    description:
      'Statement and signature, key certificates, revealed seed, contributed seeds, beacon round, burn, cut, every coup, the signed heads and the audit chain with its signed close. Nothing personal: no player id, no amount. 409 SHOE_NOT_CLOSED before the shoe is closed.',
    params: ShoeParams,
    response: ShoeProof,
    status: 200,
  },
  'open-round': {
    tag: 'Rounds',
    description:
      "Opens the table's next round on its shoe (one in play per table); betting opens. The first round of a shoe closes its seed contributions (the operator's `clientSeed`, if given, is the last), records their digest and names the beacon round that will fix the order; its signed head is the shoe's `contributions.head`.",
    problems: [
      'CLIENT_SEED_INVALID',
      'TABLE_NOT_FOUND',
      'NO_SHOE_OPEN',
      'SHOE_ENDED',
      'ROUND_IN_PLAY',
      'CLIENT_SEED_ALREADY_FIXED',
      'CONTRIBUTIONS_FULL',
      'CONCURRENT_UPDATE',
      'SIGNING_KEY_UNCERTIFIED',
      'TABLE_LOCKED',
    ],
    summary: 'Open the next round (coup) of the table: betting opens',
    params: TableParams,
    body: OpenRoundRequest,
    response: Round,
    status: 201,
  },
  'get-round': {
    tag: 'Rounds',
    description: 'A round: its status, its positions, and its coup once dealt.',
    problems: ['ROUND_NOT_FOUND'],
    summary: 'Read a round, its positions and its result',
    params: RoundParams,
    response: Round,
    status: 200,
  },
  'place-bet': {
    tag: 'Rounds',
    description:
      "Adds bets to the player's position: the wallet is debited and the position written in one conditional transaction. The Idempotency-Key keys the ledger entry: a retry with it replays the first answer.",
    problems: [
      'ROUND_NOT_FOUND',
      'ROUND_NOT_OPEN',
      'WALLET_NOT_FOUND',
      'SEAT_INVALID',
      'SEAT_TAKEN',
      'SEAT_MISMATCH',
      'ALREADY_SEATED',
      'CURRENCY_MISMATCH',
      'BET_EMPTY',
      'BET_AMOUNT_INVALID',
      'BET_PLAYER_AND_BANKER',
      'BET_DUPLICATE_TYPE',
      'BET_BELOW_MIN',
      'BET_ABOVE_MAX',
      'BET_SIDE_DISABLED',
      'INSUFFICIENT_FUNDS',
      'AMOUNT_TOO_LARGE',
      'POSITION_CALL_LIMIT',
      'WALLET_REFUSED',
      'WALLET_UNAVAILABLE',
      'WALLET_MODE_MISMATCH',
      'SEAMLESS_DEBIT_IN_FLIGHT',
      'CONCURRENT_UPDATE',
    ],
    summary: "Place a player's bets for the round (wallet debited atomically)",
    params: RoundParams,
    body: PlaceBetRequest,
    response: PlaceBetResponse,
    status: 201,
  },
  'reduce-bets': {
    tag: 'Rounds',
    description:
      'Takes an amount off each named bet of the player\'s position before "no va más" (down to 0 withdraws it); the difference goes back to the wallet as a BET_WITHDRAWAL ledger entry (a seamless operator: as a REFUND credit to its wallet, written to the outbox), in one conditional transaction keyed by the Idempotency-Key. What stays keeps the table\'s rules.',
    problems: [
      'ROUND_NOT_FOUND',
      'ROUND_NOT_OPEN',
      'WALLET_NOT_FOUND',
      'BET_EMPTY',
      'BET_AMOUNT_INVALID',
      'BET_DUPLICATE_TYPE',
      'BET_BELOW_MIN',
      'BET_NOT_PLACED',
      'BET_REDUCE_TOO_LARGE',
      'POSITION_CALL_LIMIT',
      'WALLET_MODE_MISMATCH',
      'CONCURRENT_UPDATE',
    ],
    summary: 'Reduce a player\'s bets before "no va más" (the difference back to the wallet)',
    params: RoundParams,
    body: ReduceBetsRequest,
    response: PlaceBetResponse,
    status: 200,
  },
  'cancel-bets': {
    tag: 'Rounds',
    description:
      'Withdraws the named bet types whole (every bet when `types` is omitted) before "no va más"; the stake goes back to the wallet as a BET_WITHDRAWAL ledger entry (a seamless operator: as a REFUND credit to its wallet, written to the outbox), in one conditional transaction keyed by the Idempotency-Key.',
    problems: [
      'ROUND_NOT_FOUND',
      'ROUND_NOT_OPEN',
      'WALLET_NOT_FOUND',
      'BET_EMPTY',
      'BET_DUPLICATE_TYPE',
      'BET_BELOW_MIN',
      'BET_NOT_PLACED',
      'POSITION_CALL_LIMIT',
      'WALLET_MODE_MISMATCH',
      'CONCURRENT_UPDATE',
    ],
    summary: 'Withdraw a player\'s bets before "no va más" (the stake back to the wallet)',
    params: RoundParams,
    body: CancelBetsRequest,
    response: PlaceBetResponse,
    status: 200,
  },
  'resolve-round': {
    tag: 'Rounds',
    description:
      'Closes betting, commits the bets, deals the coup from the shoe and settles every position exactly once: in the request up to 50 positions (SETTLED), else handed to the settlement queue in batches after the answer (SETTLING: read the round until it is SETTLED). The round’s signed head (its receipt) is made when the last position is settled. Resumable and idempotent: a settled round is answered as it is; called again on a SETTLING round it finishes it, or re-sends the batches not done once overdue.',
    problems: [
      'ROUND_NOT_FOUND',
      'ROUND_VOIDED',
      'CONCURRENT_UPDATE',
      'BEACON_PENDING',
      'SIGNING_KEY_UNCERTIFIED',
      'TABLE_LOCKED',
      'KEY_SERVICE_UNAVAILABLE',
    ],
    summary:
      '"No va más": close betting, deal the coup and settle every position (SETTLING: in batches, after the answer)',
    params: RoundParams,
    body: ResolveRoundRequest,
    response: Round,
    status: 200,
  },
  'void-round': {
    tag: 'Rounds',
    description:
      "Before the deal: refunds every stake exactly once and records the reason (and note) in the audit chain. With `burnCards` (a dealer error exposed the coup's cards, seed 004) the cards the coup would have used are burned too, and ROUND_VOIDED records them. Resumable.",
    problems: [
      'ROUND_NOT_FOUND',
      'ROUND_ALREADY_DEALT',
      'VOID_REASON_INVALID',
      'CONCURRENT_UPDATE',
      'SIGNING_KEY_UNCERTIFIED',
    ],
    summary: 'Void a round: every stake refunded, reason recorded in the audit trail',
    params: RoundParams,
    body: VoidRoundRequest,
    response: Round,
    status: 200,
  },
  'leave-table': {
    tag: 'Rounds',
    description:
      'Collects the deferred commission the player owes for the shoe in play, and answers his balance.',
    problems: ['TABLE_NOT_FOUND', 'WALLET_NOT_FOUND', 'CONCURRENT_UPDATE', 'WALLET_UNAVAILABLE'],
    summary: 'A player leaves the table: his deferred commission is collected',
    params: LeaveParams,
    body: LeaveTableRequest,
    response: LeaveTableResponse,
    status: 200,
  },
  'get-wallet': {
    tag: 'Wallets',
    description: "A player's wallet: balance, deferred commission owed, reserve, and what is available.",
    problems: ['WALLET_NOT_FOUND'],
    summary: "A player's wallet",
    params: WalletParams,
    response: Wallet,
    status: 200,
  },
  'wallet-transaction': {
    tag: 'Wallets',
    description:
      'A credit creates the wallet in its currency; a debit takes at most what is available. Keyed by the Idempotency-Key.',
    problems: [
      'WALLET_NOT_FOUND',
      'CURRENCY_MISMATCH',
      'INSUFFICIENT_FUNDS',
      'AMOUNT_TOO_LARGE',
      'CONCURRENT_UPDATE',
    ],
    summary: 'Credit or debit a wallet (operator cash-in / cash-out)',
    params: WalletParams,
    body: WalletTransactionRequest,
    response: WalletTransactionResponse,
    status: 201,
  },
  'get-ledger': {
    tag: 'Wallets',
    description:
      "The wallet's ledger, newest first; `nextCursor` pages further back (opaque, bound to this wallet).",
    problems: ['WALLET_NOT_FOUND', 'CURSOR_INVALID'],
    summary: "A page of a wallet's ledger, newest first",
    params: WalletParams,
    query: LedgerQuery,
    response: LedgerPage,
    status: 200,
  },
  'set-responsible-gaming': {
    tag: 'Wallets',
    description:
      "Sets a player's responsible-gaming limits (stake per round, loss and wager per UTC day/week/month, session length), a self-exclusion or cooling-off, or his session time-out. A tighter limit applies at once, a looser one (higher, or null to remove it) 24 hours later (AGCO 2.24); an exclusion can be extended, never shortened. Recorded in the player's ledger as an RG_SETTINGS entry of amount 0. Bets that would pass a limit, and every bet during an exclusion, are refused in the bet's transaction (422 RG_LIMIT_REACHED, PLAYER_EXCLUDED). Keyed by the Idempotency-Key. docs/responsible-gaming.md.",
    problems: ['WALLET_NOT_FOUND', 'INVALID_INPUT', 'EXCLUSION_ACTIVE', 'READ_ONLY', 'CONCURRENT_UPDATE'],
    summary: "Set a player's responsible-gaming limits or exclusion (operator)",
    params: WalletParams,
    body: RgSettingsRequest,
    response: RgStatus,
    status: 200,
  },
  'get-responsible-gaming': {
    tag: 'Wallets',
    description:
      "A player's responsible-gaming state: limits in force, relaxations pending with when they apply, an exclusion in force, the wager and loss counters of the current UTC day, week and month, and his table sessions with time played and net result (reality checks). docs/responsible-gaming.md.",
    problems: ['WALLET_NOT_FOUND'],
    summary: "A player's limits, counters and sessions (operator)",
    params: WalletParams,
    response: RgStatus,
    status: 200,
  },
  'replay-round': {
    tag: 'Regulators',
    problems: ['ROUND_NOT_FOUND'],
    summary: 'Replay a round step by step, with its verification (regulator, operator)',
    description:
      'Every card in dealing order with its shoe position and the rule that called for it, every bet with its payout and the balance around it, and checks: statement signature, audit chain, bets, settlement, and once the shoe is closed the revealed seed and the re-dealt cards (PENDING_REVEAL before). Never shows an unrevealed seed.',
    params: ReplayParams,
    response: RoundReplay,
    status: 200,
  },
  'player-rounds': {
    tag: 'Regulators',
    problems: ['PLAYER_NOT_FOUND', 'CURSOR_INVALID'],
    summary: "Game recall: a player's most recent rounds, replayed (regulator, operator)",
    description:
      'The last rounds of the player (10 by default), in play order, each with the same detail and verification as the replay; `nextCursor` pages further back. Regulators name the operator with `operatorId`.',
    params: PlayerRoundsParams,
    query: PlayerRoundsQuery,
    response: PlayerRecall,
    status: 200,
  },
  'player-history': {
    tag: 'Wallets',
    problems: ['PLAYER_NOT_FOUND', 'CURSOR_INVALID', 'HISTORY_RANGE_INVALID', 'HISTORY_TOO_LARGE'],
    summary:
      "A player's game history by date range, with the period's win/loss (operator for its player, admin)",
    description:
      "Rounds of the player opened in [from, to) (UTC, at most 366 days), newest first, each the same replay the regulator's recall shows (start and end times, table, shoe, the statement's code and rules versions, session id, bets per type, wins, commission, balance before and after); `totals` cover the whole range: stakes, returns, commission, refunds and winLoss = returns − stakes, reconciling to the unit with the ledger (docs/api.md, \"Player history\"). A range reaching past the player's 2000 most recent rounds is refused (422 HISTORY_TOO_LARGE).",
    params: PlayerHistoryParams,
    query: PlayerHistoryQuery,
    response: PlayerHistory,
    status: 200,
  },
  'export-audit': {
    tag: 'Regulators',
    problems: ['SHOE_NOT_FOUND', 'SHOE_NOT_CLOSED', 'SHOE_NEVER_PLAYED'],
    summary: 'Export a closed shoe as one bundle that `baccarat verify` checks offline (regulator, operator)',
    description:
      'Statement, signature, every signing-key certificate, revealed server seed, contributed seeds, beacon round, every round with its bets and settlements, the void report, the signed round heads and the audit chain with its signed close. 409 SHOE_NOT_CLOSED before the shoe is closed.',
    params: AuditParams,
    response: ShoeBundle,
    status: 200,
  },
  'ggr-report': {
    tag: 'Regulators',
    problems: ['OPERATOR_NOT_FOUND', 'INVALID_INPUT'],
    summary:
      "An operator's gross gaming revenue for one UTC day, per table and currency (regulator, operator)",
    description:
      'Rounds settled or voided that day (each counts on the day it finished): stakes, returns, commission, deferred commission, voids and GGR = stakes − returns, per table and currency, with totals per currency. It reconciles to the unit with the ledger: GGR is the opposite of what the BET, BET_WITHDRAWAL and PAYOUT entries of those rounds moved (docs/regulators.md, "GGR report").',
    params: GgrParams,
    query: GgrQuery,
    response: GgrReport,
    status: 200,
  },
  'export-feed': {
    tag: 'Regulators',
    problems: ['OPERATOR_NOT_FOUND', 'FEED_RANGE_INVALID', 'FEED_RANGE_TOO_LARGE', 'FEED_TOO_LARGE'],
    summary:
      "An operator's regulator feed for a time range of at most one day, as NDJSON or CSV (regulator, operator)",
    description:
      'Shoes in play in [from, to) as they stood at `to` (no server seed before the close), rounds finished in the range with their bets, calls, settlements, refunds and wallet movements, the wallet movements outside rounds, and a closing `summary` (counts, and per currency the sums that reconcile with the GGR report and the ledger). NDJSON: one JSON object per line with its `type`; CSV: one file, the fixed columns of docs/regulators.md. Longer ranges, or more than 5 MiB, are in the daily files (422).',
    params: FeedParams,
    query: FeedQuery,
    response: FeedText,
    media: ['application/x-ndjson', 'text/csv'],
    status: 200,
  },
  'list-feed-files': {
    tag: 'Regulators',
    problems: ['OPERATOR_NOT_FOUND', 'FEED_RANGE_INVALID', 'FEED_RANGE_TOO_LARGE'],
    summary: 'The daily feed files of an operator for a range of days (regulator, operator)',
    description:
      'The files the daily job wrote for each UTC day in [from, to] (at most 31 days): `feed.ndjson` and `feed.csv` of the day before each run, with their size and when they were written.',
    params: FeedParams,
    query: FeedFilesQuery,
    response: FeedFileList,
    status: 200,
  },
  'get-feed-file': {
    tag: 'Regulators',
    problems: ['OPERATOR_NOT_FOUND', 'FEED_FILE_NOT_FOUND', 'FEED_TOO_LARGE'],
    summary: 'One daily feed file, as written (regulator, operator)',
    description:
      'The file as the daily job wrote it (NDJSON or CSV). A file over 5 MiB is not sent through the API (422 FEED_TOO_LARGE): it is read from the feed bucket.',
    params: FeedFileParams,
    response: FeedText,
    media: ['application/x-ndjson', 'text/csv'],
    status: 200,
  },
  'seamless-transactions': {
    tag: 'Regulators',
    problems: ['OPERATOR_NOT_FOUND', 'SEAMLESS_RANGE_INVALID', 'SEAMLESS_PERIOD_TOO_LARGE', 'CURSOR_INVALID'],
    summary:
      "A seamless operator's wallet transactions of a period, with their states and the period's reconciliation (operator, regulator)",
    description:
      "Every call the platform made to the operator's wallet (debits, credits, rollbacks) created in [from, to) (UTC, at most 31 days), a page at a time (by day, then shard, then time; a page may be short and still have a `nextCursor`: follow it), only those in `state` when given. The first page carries `summary` for the whole period: counts and amounts per state, kind and currency, the net the operator's books must show for the same txIds (credited − debited), and the unresolved ones named (not final 15 minutes after creation, or refused where a wallet must not refuse). A period of more than 20000 transactions is refused (422 SEAMLESS_PERIOD_TOO_LARGE): read the daily reports (docs/seamless-wallet.md §9).",
    params: SeamlessParams,
    query: SeamlessTransactionsQuery,
    response: SeamlessTransactions,
    status: 200,
  },
  'seamless-report': {
    tag: 'Regulators',
    problems: ['OPERATOR_NOT_FOUND', 'SEAMLESS_REPORT_NOT_FOUND', 'INVALID_INPUT'],
    summary: "A seamless operator's daily reconciliation report (operator, regulator)",
    description:
      "What the daily job (00:30 UTC) found for one UTC day: the day's summary (as the transactions list gives it) and how many stuck credits and rollbacks it handed to the outbox again. 404 SEAMLESS_REPORT_NOT_FOUND before the job ran for that day (docs/seamless-wallet.md §9).",
    params: SeamlessReportParams,
    response: SeamlessReport,
    status: 200,
  },
  'get-operator-wallet': {
    tag: 'Operators',
    problems: ['OPERATOR_NOT_FOUND'],
    summary: "An operator's wallet mode, its seamless wallet and every change of them",
    description:
      "Hosted (the platform's wallets) or seamless (the operator's wallet API, its base URL and the reference of its signing secret — never the secret), with who changed it when. Readable by the operator's own keys, its regulators and platform-admin keys; an operator never set is hosted (`updatedAt: null`).",
    params: OperatorWalletParams,
    response: OperatorWallet,
    status: 200,
  },
  'set-operator-wallet': {
    tag: 'Operators',
    problems: [
      'PLATFORM_ADMIN_REQUIRED',
      'SEAMLESS_CONFIG_INVALID',
      'OPERATOR_WALLET_BUSY',
      'CONCURRENT_UPDATE',
    ],
    summary: "Switch an operator's wallet mode, hosted or seamless (platform admin)",
    description:
      'Sets the operator\'s wallet mode (and, seamless, its wallet: https base URL, the operator\'s own Secrets Manager secret). The same mode and wallet again changes nothing. Changing the mode is refused (409 OPERATOR_WALLET_BUSY) while a round of the operator holds bets, or, leaving seamless, while a seamless transaction of the last 24 hours is not final; every change is recorded (who, when, old and new). Containers see it within 60 s (`effectiveBy`). Platform-admin keys only (docs/deploy.md, "Seamless operators").',
    params: OperatorWalletParams,
    body: SetOperatorWalletRequest,
    response: OperatorWallet,
    status: 200,
  },
  'get-signing-key': {
    tag: 'Keys',
    problems: ['SIGNING_KEY_NOT_FOUND'],
    summary: 'The public key that signs shoe statements and audit heads, with its validity',
    description:
      'Without `keyId`, the key that signs now. With the `keyId` a statement names, that key, also after a key rotation retired it. Each comes with its certificate: its generation and the interval it may sign in, signed by the generation before it. 404 SIGNING_KEY_NOT_FOUND for a key id the service does not know.',
    query: SigningKeyQuery,
    response: SigningKey,
    status: 200,
  },
  'get-seamless-openapi': {
    tag: 'Meta',
    description:
      'The seamless wallet protocol (docs/seamless-wallet.md) as an OpenAPI 3.1 document: the API an operator in seamless mode implements (balance, debit, credit, rollback), built from the schemas the platform checks its answers with.',
    problems: [],
    summary: 'The seamless wallet protocol an operator implements, as OpenAPI 3.1',
    response: OpenApiDocument,
    status: 200,
  },
  'get-openapi': {
    tag: 'Meta',
    description:
      'The OpenAPI 3.1 document of this API, built from the same schemas the handlers validate with.',
    problems: [],
    summary: 'This API as an OpenAPI 3.1 document',
    response: OpenApiDocument,
    status: 200,
  },
} satisfies Record<string, EndpointContract>;

export type EndpointName = keyof typeof ENDPOINTS;

/** A body schema that every field of which is optional accepts "no body" as `{}`. */
export const acceptsEmptyBody = (schema: (() => z.ZodType) | undefined): boolean =>
  schema === undefined || schema().safeParse({}).success;
