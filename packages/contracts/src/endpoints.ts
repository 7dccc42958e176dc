import * as z from 'zod';
import {
  AuditParams,
  PlayerRecall,
  PlayerRoundsParams,
  PlayerRoundsQuery,
  ReplayParams,
  RoundReplay,
  ShoeBundle,
} from './replay';
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
import { CloseShoeRequest, OpenShoeRequest, Shoe, ShoeParams, SigningKey, SigningKeyQuery } from './shoes';
import { CreateTableRequest, Scoreboard, ScoreboardQuery, Table, TableParams } from './tables';
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
export interface EndpointContract {
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** POST bodies. When every field is optional, an absent body counts as `{}`. */
  body?: z.ZodType;
  response: z.ZodType;
  /** The success status: 201 when the POST creates a resource. */
  status: 200 | 201;
}

export const ENDPOINTS = {
  'create-table': {
    summary: 'Create a table from a preset (admin)',
    body: CreateTableRequest,
    response: Table,
    status: 201,
  },
  'get-table': { summary: 'Read a table', params: TableParams, response: Table, status: 200 },
  'get-scoreboard': {
    summary: "The results panel (bead plate, big road, derived roads) of the table's current shoe",
    params: TableParams,
    query: ScoreboardQuery,
    response: Scoreboard,
    status: 200,
  },
  'open-shoe': {
    summary: 'Open a new shoe: seed sealed, commitment signed and published (admin)',
    params: TableParams,
    body: OpenShoeRequest,
    response: Shoe,
    status: 201,
  },
  'get-shoe': {
    summary: 'Read a shoe (seed revealed once closed)',
    params: ShoeParams,
    response: Shoe,
    status: 200,
  },
  'close-shoe': {
    summary: 'Close a shoe: reveal the seed, collect deferred commission, sign the audit head (admin)',
    params: ShoeParams,
    body: CloseShoeRequest,
    response: Shoe,
    status: 200,
  },
  'open-round': {
    summary: 'Open the next round (coup) of the table: betting opens',
    params: TableParams,
    body: OpenRoundRequest,
    response: Round,
    status: 201,
  },
  'get-round': {
    summary: 'Read a round, its positions and its result',
    params: RoundParams,
    response: Round,
    status: 200,
  },
  'place-bet': {
    summary: "Place a player's bets for the round (wallet debited atomically)",
    params: RoundParams,
    body: PlaceBetRequest,
    response: PlaceBetResponse,
    status: 201,
  },
  'reduce-bets': {
    summary: 'Reduce a player\'s bets before "no va más" (the difference back to the wallet)',
    params: RoundParams,
    body: ReduceBetsRequest,
    response: PlaceBetResponse,
    status: 200,
  },
  'cancel-bets': {
    summary: 'Withdraw a player\'s bets before "no va más" (the stake back to the wallet)',
    params: RoundParams,
    body: CancelBetsRequest,
    response: PlaceBetResponse,
    status: 200,
  },
  'resolve-round': {
    summary:
      '"No va más": close betting, deal the coup and settle every position (SETTLING: in batches, after the answer)',
    params: RoundParams,
    body: ResolveRoundRequest,
    response: Round,
    status: 200,
  },
  'void-round': {
    summary: 'Void a round: every stake refunded, reason recorded in the audit trail',
    params: RoundParams,
    body: VoidRoundRequest,
    response: Round,
    status: 200,
  },
  'leave-table': {
    summary: 'A player leaves the table: his deferred commission is collected',
    params: LeaveParams,
    body: LeaveTableRequest,
    response: LeaveTableResponse,
    status: 200,
  },
  'get-wallet': { summary: "A player's wallet", params: WalletParams, response: Wallet, status: 200 },
  'wallet-transaction': {
    summary: 'Credit or debit a wallet (operator cash-in / cash-out)',
    params: WalletParams,
    body: WalletTransactionRequest,
    response: WalletTransactionResponse,
    status: 201,
  },
  'get-ledger': {
    summary: "A page of a wallet's ledger, newest first",
    params: WalletParams,
    query: LedgerQuery,
    response: LedgerPage,
    status: 200,
  },
  'replay-round': {
    summary: 'Replay a round step by step, with its verification (regulator, operator)',
    description:
      'Every card in dealing order with its shoe position and the rule that called for it, every bet with its payout and the balance around it, and checks: statement signature, audit chain, bets, settlement, and once the shoe is closed the revealed seed and the re-dealt cards (PENDING_REVEAL before). Never shows an unrevealed seed.',
    params: ReplayParams,
    response: RoundReplay,
    status: 200,
  },
  'player-rounds': {
    summary: "Game recall: a player's most recent rounds, replayed (regulator, operator)",
    description:
      'The last rounds of the player (10 by default), in play order, each with the same detail and verification as the replay; `nextCursor` pages further back. Regulators name the operator with `operatorId`.',
    params: PlayerRoundsParams,
    query: PlayerRoundsQuery,
    response: PlayerRecall,
    status: 200,
  },
  'export-audit': {
    summary: 'Export a closed shoe as one bundle that `baccarat verify` checks offline (regulator, operator)',
    description:
      'Statement, signature, public key, revealed server seed, client seed, every round, bet and settlement, and the audit chain with its signed head. 409 SHOE_NOT_CLOSED before the shoe is closed.',
    params: AuditParams,
    response: ShoeBundle,
    status: 200,
  },
  'get-signing-key': {
    summary: 'The public key that signs shoe statements and audit heads',
    description:
      'Without `keyId`, the key that signs now. With the `keyId` a statement names, that key, also after a key rotation retired it. 404 SIGNING_KEY_NOT_FOUND for a key id the service does not know.',
    query: SigningKeyQuery,
    response: SigningKey,
    status: 200,
  },
  'get-openapi': {
    summary: 'This API as an OpenAPI 3.1 document',
    response: z.record(z.string(), z.unknown()),
    status: 200,
  },
} satisfies Record<string, EndpointContract>;

export type EndpointName = keyof typeof ENDPOINTS;

/** A body schema that every field of which is optional accepts "no body" as `{}`. */
export const acceptsEmptyBody = (schema: z.ZodType | undefined): boolean =>
  schema === undefined || schema.safeParse({}).success;
