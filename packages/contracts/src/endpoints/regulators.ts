import type { EndpointContract } from '../endpoint-contract';
import {
  AuditParams,
  PlayerRecall,
  PlayerRoundsParams,
  PlayerRoundsQuery,
  ReplayParams,
  RoundReplay,
  ShoeBundle,
} from '../replay';
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
} from '../reports';
import {
  SeamlessParams,
  SeamlessReport,
  SeamlessReportParams,
  SeamlessTransactions,
  SeamlessTransactionsQuery,
} from '../seamless-reconciliation';

/** The endpoint contracts of the Regulators tag: round replay, game recall, audit export, reports and feeds (one export per endpoint: endpoint-contract.ts). */

export const replayRoundContract = {
  tag: 'Regulators',
  problems: ['ROUND_NOT_FOUND'],
  summary: 'Replay a round step by step, with its verification (regulator, operator)',
  description:
    'Every card in dealing order with its shoe position and the rule that called for it, every bet with its payout and the balance around it, and checks: statement signature, audit chain, bets, settlement, and once the shoe is closed the revealed seed and the re-dealt cards (PENDING_REVEAL before). Never shows an unrevealed seed.',
  params: ReplayParams,
  response: RoundReplay,
  status: 200,
} satisfies EndpointContract;

export const playerRoundsContract = {
  tag: 'Regulators',
  problems: ['PLAYER_NOT_FOUND', 'CURSOR_INVALID'],
  summary: "Game recall: a player's most recent rounds, replayed (regulator, operator)",
  description:
    'The last rounds of the player (10 by default), in play order, each with the same detail and verification as the replay; `nextCursor` pages further back. Regulators name the operator with `operatorId`.',
  params: PlayerRoundsParams,
  query: PlayerRoundsQuery,
  response: PlayerRecall,
  status: 200,
} satisfies EndpointContract;

export const exportAuditContract = {
  tag: 'Regulators',
  problems: ['SHOE_NOT_FOUND', 'SHOE_NOT_CLOSED', 'SHOE_ABANDONED', 'SHOE_NEVER_PLAYED'],
  summary: 'Export a closed shoe as one bundle that `baccarat verify` checks offline (regulator, operator)',
  description:
    'Statement, signature, every signing-key certificate, revealed server seed, contributed seeds, beacon round, every round with its bets and settlements, the void report, the signed round heads and the audit chain with its signed close. 409 SHOE_NOT_CLOSED before the shoe is closed.',
  params: AuditParams,
  response: ShoeBundle,
  status: 200,
} satisfies EndpointContract;

export const ggrReportContract = {
  tag: 'Regulators',
  problems: ['OPERATOR_NOT_FOUND', 'INVALID_INPUT'],
  summary: "An operator's gross gaming revenue for one UTC day, per table and currency (regulator, operator)",
  description:
    'Rounds settled or voided that day (each counts on the day it finished): stakes, returns, commission, deferred commission, voids and GGR = stakes − returns, per table and currency, with totals per currency. It reconciles to the unit with the ledger: GGR is the opposite of what the BET, BET_WITHDRAWAL and PAYOUT entries of those rounds moved (docs/regulators.md, "GGR report").',
  params: GgrParams,
  query: GgrQuery,
  response: GgrReport,
  status: 200,
} satisfies EndpointContract;

export const exportFeedContract = {
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
} satisfies EndpointContract;

export const listFeedFilesContract = {
  tag: 'Regulators',
  problems: ['OPERATOR_NOT_FOUND', 'FEED_RANGE_INVALID', 'FEED_RANGE_TOO_LARGE'],
  summary: 'The daily feed files of an operator for a range of days (regulator, operator)',
  description:
    'The files the daily job wrote for each UTC day in [from, to] (at most 31 days): `feed.ndjson` and `feed.csv` of the day before each run, with their size and when they were written.',
  params: FeedParams,
  query: FeedFilesQuery,
  response: FeedFileList,
  status: 200,
} satisfies EndpointContract;

export const getFeedFileContract = {
  tag: 'Regulators',
  problems: ['OPERATOR_NOT_FOUND', 'FEED_FILE_NOT_FOUND', 'FEED_TOO_LARGE'],
  summary: 'One daily feed file, as written (regulator, operator)',
  description:
    'The file as the daily job wrote it (NDJSON or CSV). A file over 5 MiB is not sent through the API (422 FEED_TOO_LARGE): it is read from the feed bucket.',
  params: FeedFileParams,
  response: FeedText,
  media: ['application/x-ndjson', 'text/csv'],
  status: 200,
} satisfies EndpointContract;

export const seamlessTransactionsContract = {
  tag: 'Regulators',
  problems: ['OPERATOR_NOT_FOUND', 'SEAMLESS_RANGE_INVALID', 'SEAMLESS_PERIOD_TOO_LARGE', 'CURSOR_INVALID'],
  summary:
    "A seamless operator's wallet transactions of a period, with their states and the period's reconciliation (operator, regulator)",
  description:
    "Every call the platform made to the operator's wallet (debits, credits, rollbacks) created in [from, to) (UTC, at most 31 days), a page at a time (by day, then shard, then time; a page fills across days: it holds `limit` transactions, or it is the last and has no `nextCursor`, whatever midnights the period crosses; a full page may have a `nextCursor` to an empty one; with `state` a page keeps only that state's, so it can be shorter: follow `nextCursor` until it is null), only those in `state` when given. The first page carries `summary` for the whole period: counts and amounts per state, kind and currency, the net the operator's books must show for the same txIds (credited − debited), and the unresolved ones named (not final 15 minutes after creation, or refused where a wallet must not refuse). A period of more than 20000 transactions is refused (422 SEAMLESS_PERIOD_TOO_LARGE): read the daily reports (docs/seamless-wallet.md §9).",
  params: SeamlessParams,
  query: SeamlessTransactionsQuery,
  response: SeamlessTransactions,
  status: 200,
} satisfies EndpointContract;

export const seamlessReportContract = {
  tag: 'Regulators',
  problems: ['OPERATOR_NOT_FOUND', 'SEAMLESS_REPORT_NOT_FOUND', 'INVALID_INPUT'],
  summary: "A seamless operator's daily reconciliation report (operator, regulator)",
  description:
    "What the daily job (00:30 UTC) found for one UTC day: the day's summary (as the transactions list gives it) and how many stuck credits and rollbacks it handed to the outbox again. 404 SEAMLESS_REPORT_NOT_FOUND before the job ran for that day (docs/seamless-wallet.md §9).",
  params: SeamlessReportParams,
  response: SeamlessReport,
  status: 200,
} satisfies EndpointContract;
