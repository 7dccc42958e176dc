import type { EndpointContract } from '../endpoint-contract';
import { PlayerHistory, PlayerHistoryParams, PlayerHistoryQuery } from '../history';
import { RgSettingsRequest, RgStatus } from '../responsible-gaming';
import {
  LedgerPage,
  LedgerQuery,
  Wallet,
  WalletParams,
  WalletTransactionRequest,
  WalletTransactionResponse,
} from '../wallets';

/** The endpoint contracts of the Wallets tag: wallets, their ledgers, responsible gaming and history (one export per endpoint: endpoint-contract.ts). */

export const getWalletContract = {
  tag: 'Wallets',
  description: "A player's wallet: balance, deferred commission owed, reserve, and what is available.",
  problems: ['WALLET_NOT_FOUND'],
  summary: "A player's wallet",
  params: WalletParams,
  response: Wallet,
  status: 200,
} satisfies EndpointContract;

export const walletTransactionContract = {
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
} satisfies EndpointContract;

export const getLedgerContract = {
  tag: 'Wallets',
  description:
    "The wallet's ledger, newest first; `nextCursor` pages further back (opaque, bound to this wallet).",
  problems: ['WALLET_NOT_FOUND', 'CURSOR_INVALID'],
  summary: "A page of a wallet's ledger, newest first",
  params: WalletParams,
  query: LedgerQuery,
  response: LedgerPage,
  status: 200,
} satisfies EndpointContract;

export const setResponsibleGamingContract = {
  tag: 'Wallets',
  description:
    "Sets a player's responsible-gaming limits (stake per round, loss and wager per UTC day/week/month, session length), a self-exclusion or cooling-off, or his session time-out. A tighter limit applies at once, a looser one (higher, or null to remove it) 24 hours later (AGCO 2.24); an exclusion can be extended, never shortened. Recorded in the player's ledger as an RG_SETTINGS entry of amount 0. Bets that would pass a limit, and every bet during an exclusion, are refused in the bet's transaction (422 RG_LIMIT_REACHED, PLAYER_EXCLUDED). Keyed by the Idempotency-Key. docs/responsible-gaming.md.",
  problems: ['WALLET_NOT_FOUND', 'INVALID_INPUT', 'EXCLUSION_ACTIVE', 'READ_ONLY', 'CONCURRENT_UPDATE'],
  summary: "Set a player's responsible-gaming limits or exclusion (operator)",
  params: WalletParams,
  body: RgSettingsRequest,
  response: RgStatus,
  status: 200,
} satisfies EndpointContract;

export const getResponsibleGamingContract = {
  tag: 'Wallets',
  description:
    "A player's responsible-gaming state: limits in force, relaxations pending with when they apply, an exclusion in force, the wager and loss counters of the current UTC day, week and month, and his table sessions with time played and net result (reality checks). docs/responsible-gaming.md.",
  problems: ['WALLET_NOT_FOUND'],
  summary: "A player's limits, counters and sessions (operator)",
  params: WalletParams,
  response: RgStatus,
  status: 200,
} satisfies EndpointContract;

export const playerHistoryContract = {
  tag: 'Wallets',
  problems: ['PLAYER_NOT_FOUND', 'CURSOR_INVALID', 'HISTORY_RANGE_INVALID'],
  summary:
    "A player's game history by date range, with the period's win/loss (operator for its player, admin)",
  description:
    'Rounds of the player opened in [from, to) (UTC, at most 366 days), newest first, each the same replay the regulator\'s recall shows (start and end times, table, shoe, the statement\'s code and rules versions, session id, bets per type, wins, commission, balance before and after); `totals` cover the whole range: stakes, returns, commission, refunds and winLoss = returns − stakes, reconciling to the unit with the ledger (docs/api.md, "Player history"). Every round of the range is reachable with `nextCursor`, whatever their number; `totals` are null when the range holds more than 2000 rounds.',
  params: PlayerHistoryParams,
  query: PlayerHistoryQuery,
  response: PlayerHistory,
  status: 200,
} satisfies EndpointContract;
