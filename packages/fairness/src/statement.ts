/**
 * The shoe statement (docs/provably-fair.md §2): what is signed and published before any bet.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { TableConfig } from '@pyb/engine';
import { bytesToHex, utf8ToBytes } from './bytes';
import { canonicalJson } from './canonical';
import type { CutCardBounds } from './shoe';
import { SERVER_SEED_BYTES } from './stream';

export const SHOE_SCHEME = 'pyb-shoe/1';
export const SHOE_CLOSE_SCHEME = 'pyb-shoe-close/1';
/**
 * The game rules a statement promises and this verifier replays: the tableau, burn, cut-card and
 * settlement rules of packages/engine (seeds 000, 003, 004). A change to any of them needs a new value.
 * 2: settlement gained the side bets and Banca modes (docs/rules.md) and the presets their fixed shape.
 */
export const RULES_VERSION = 'pyb-rules/2';

/** commitment = hex(SHA-256(server seed)), lowercase. */
export function commitmentOf(serverSeed: Uint8Array): string {
  if (serverSeed.length !== SERVER_SEED_BYTES)
    throw new RangeError(`server seed must be ${SERVER_SEED_BYTES} bytes`);
  return bytesToHex(sha256(serverSeed));
}

export interface ShoeStatement {
  scheme: typeof SHOE_SCHEME;
  shoeId: string;
  tableId: string;
  operatorId: string;
  /** The engine's rules version the coups are played and settled with. */
  rulesVersion: string;
  decks: number;
  cutCard: CutCardBounds;
  /** The table configuration in force for the whole shoe (binds payouts, commission, side bets). */
  table: TableConfig;
  commitment: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  keyId: string;
}

export interface ShoeStatementInput {
  shoeId: string;
  tableId: string;
  operatorId: string;
  rulesVersion: string;
  table: ShoeStatement['table'];
  commitment: string;
  createdAt: string;
  keyId: string;
}

/** Builds the statement, taking decks and cut-card bounds from the table so they cannot disagree. */
export function shoeStatement(input: ShoeStatementInput): ShoeStatement {
  const { table } = input;
  return {
    scheme: SHOE_SCHEME,
    shoeId: input.shoeId,
    tableId: input.tableId,
    operatorId: input.operatorId,
    rulesVersion: input.rulesVersion,
    decks: table.decks,
    cutCard: { minCardsBehind: table.cutCard.minCardsBehind, maxCardsBehind: table.cutCard.maxCardsBehind },
    table,
    commitment: input.commitment,
    createdAt: input.createdAt,
    keyId: input.keyId,
  };
}

/** The bytes that are signed: UTF-8 of the RFC 8785 JSON of the statement. */
export const statementBytes = (statement: ShoeStatement): Uint8Array => utf8ToBytes(canonicalJson(statement));

/**
 * What is signed at shoe close: the head of the shoe's audit chain. `length` is the number of chain
 * events the head covers, so a truncated export is caught even when every link holds.
 */
export interface ShoeCloseStatement {
  scheme: typeof SHOE_CLOSE_SCHEME;
  shoeId: string;
  commitment: string;
  head: string;
  length: number;
  closedAt: string;
  keyId: string;
}

export const closeStatementBytes = (statement: ShoeCloseStatement): Uint8Array =>
  utf8ToBytes(canonicalJson(statement));
