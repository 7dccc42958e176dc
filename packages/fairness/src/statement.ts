/**
 * The shoe statement (docs/provably-fair.md §4): what is signed and published before any bet.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { TableConfig } from '@pyb/engine';
import type { BeaconNetwork } from './beacon';
import { bytesToHex, utf8ToBytes } from './bytes';
import { canonicalJson } from './canonical';
import { SHOE_ENTROPY_SCHEME } from './entropy';
import type { CutCardBounds } from './shoe';
import { SERVER_SEED_BYTES } from './stream';

export const SHOE_SCHEME = SHOE_ENTROPY_SCHEME;
/** pyb-shoe/3 (§15): each coup drawn from the beacon round named when its betting closed (shoe-v3.ts SHOE_V3_SCHEME). */
export const SHOE_SCHEME_V3 = 'pyb-shoe/3';
/**
 * The dealing schemes a statement may name: pyb-shoe/2 fixes the whole order when contributions
 * close (read, verified, never opened again); pyb-shoe/3 draws each coup when it is needed, from the
 * beacon round named when betting on it closed (§15). New shoes are pyb-shoe/3.
 */
export const SHOE_SCHEMES = [SHOE_SCHEME, SHOE_SCHEME_V3] as const;
export type ShoeScheme = (typeof SHOE_SCHEMES)[number];
export const SHOE_CLOSE_SCHEME = 'pyb-shoe-close/1';
/** Seconds between the close of contributions and the earliest beacon round that may fix the order. */
export const DEFAULT_BEACON_MARGIN_SECONDS = 5;
/**
 * The least margin a verifier accepts (F7): with less, contributions could close when the round is
 * already out, or so near it that the platform sees it first.
 */
export const MIN_BEACON_MARGIN_SECONDS = 5;
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

/** The beacon a statement promises: its network, and the margin after the close of contributions. */
export interface StatementBeacon extends BeaconNetwork {
  marginSeconds: number;
}

/** The shoe before this one at its table, by the head its close signed (null for a table's first shoe). */
export interface PreviousShoe {
  shoeId: string;
  number: number;
  /** hex: the previous shoe's signed close head. */
  closeHead: string;
}

/**
 * The shoe opened before this one at its table, closed or not (D2): its number and the SHA-256 of its
 * signed statement's bytes. With the operator's receipt of each shoe opened (its signed statement), a
 * shoe deleted before its close and reopened under the same number leaves a gap (verify-receipts.ts).
 */
export interface PreviousOpenedShoe {
  shoeId: string;
  number: number;
  /** hex(SHA-256(statementBytes(its statement))). */
  statement: string;
}

export interface ShoeStatement {
  scheme: ShoeScheme;
  shoeId: string;
  tableId: string;
  operatorId: string;
  /** 1-based number of the shoe at its table. */
  number: number;
  previous: PreviousShoe | null;
  /** The shoe opened before this one (closed or not): absent on shoes opened before it was linked. */
  previousOpened?: PreviousOpenedShoe | null;
  /** The engine's rules version the coups are played and settled with. */
  rulesVersion: string;
  decks: number;
  cutCard: CutCardBounds;
  /** The table configuration in force for the whole shoe (binds payouts, commission, side bets). */
  table: TableConfig;
  commitment: string;
  beacon: StatementBeacon;
  /** The platform's build that signed it (source revision or code hash). */
  codeVersion: string;
  /** hex(SHA-256(digest salt)) (salted.ts): absent on a shoe opened before digests were salted. */
  saltCommitment?: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  keyId: string;
}

export interface ShoeStatementInput {
  scheme: ShoeScheme;
  shoeId: string;
  tableId: string;
  operatorId: string;
  number: number;
  previous: PreviousShoe | null;
  previousOpened?: PreviousOpenedShoe | null;
  rulesVersion: string;
  table: ShoeStatement['table'];
  commitment: string;
  beacon: StatementBeacon;
  codeVersion: string;
  saltCommitment?: string;
  createdAt: string;
  keyId: string;
}

/** Builds the statement, taking decks and cut-card bounds from the table so they cannot disagree. */
export function shoeStatement(input: ShoeStatementInput): ShoeStatement {
  const { table } = input;
  return {
    scheme: input.scheme,
    shoeId: input.shoeId,
    tableId: input.tableId,
    operatorId: input.operatorId,
    number: input.number,
    previous: input.previous,
    ...(input.previousOpened !== undefined && { previousOpened: input.previousOpened }),
    rulesVersion: input.rulesVersion,
    decks: table.decks,
    cutCard: { minCardsBehind: table.cutCard.minCardsBehind, maxCardsBehind: table.cutCard.maxCardsBehind },
    table,
    commitment: input.commitment,
    beacon: {
      scheme: input.beacon.scheme,
      chainHash: input.beacon.chainHash,
      publicKey: input.beacon.publicKey,
      genesisTime: input.beacon.genesisTime,
      period: input.beacon.period,
      marginSeconds: input.beacon.marginSeconds,
    },
    codeVersion: input.codeVersion,
    ...(input.saltCommitment !== undefined && { saltCommitment: input.saltCommitment }),
    createdAt: input.createdAt,
    keyId: input.keyId,
  };
}

/** The bytes that are signed: UTF-8 of the RFC 8785 JSON of the statement. */
export const statementBytes = (statement: ShoeStatement): Uint8Array => utf8ToBytes(canonicalJson(statement));

/** What a later statement's `previousOpened` names of this one. */
export const statementDigest = (statement: ShoeStatement): string =>
  bytesToHex(sha256(statementBytes(statement)));

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
