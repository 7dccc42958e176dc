/**
 * The item layout of the Store on DynamoDB (docs/data-model.md), without the AWS SDK: where each entity
 * lives (table, pk/sk), the index attributes written with it, the access patterns of the list methods,
 * and the cursor codec (cursor.ts). The DynamoDB adapter translates these into requests; the in-memory Store
 * (@pyb/store-memory) models the same items, keys and indexes, so both list in the same order.
 * A new entity or list goes here once, then into both adapters and the store contract suite.
 */
import { createHash } from 'node:crypto';
import type { Entities, Entity, EntityKeys, WriteOp } from '@pyb/core';
import { GSI1, type LogicalTable } from './tables';

export type { LogicalTable };

export type Item = Record<string, unknown>;

export interface Location {
  table: LogicalTable;
  pk: string;
  sk: string;
}

export const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Sort keys of a wallet's ledger keys (LOCATE.ledger): `K#` + the scoped idempotency key. */
export const LEDGER_KEY_PREFIX = 'K#';

/**
 * Where each entity lives: the one encoding of the key layout (the adapter, bench/api.ts). Ids never
 * contain '#' (the core checks them), so the keys are unambiguous.
 */
export const LOCATE: { [E in Entity]: (key: EntityKeys[E]) => Location } = {
  table: (k) => ({ table: 'game', pk: `TABLE#${k.tableId}`, sk: 'TABLE' }),
  shoe: (k) => ({ table: 'game', pk: `SHOE#${k.shoeId}`, sk: 'SHOE' }),
  round: (k) => ({ table: 'game', pk: `ROUND#${k.roundId}`, sk: 'ROUND' }),
  position: (k) => ({ table: 'game', pk: `ROUND#${k.roundId}`, sk: `P#${k.playerId}` }),
  wallet: (k) => ({ table: 'wallets', pk: `W#${k.operatorId}#${k.playerId}`, sk: 'WALLET' }),
  // A ledger entry's key (its idempotency record): a marker naming the entry's sequence number, or,
  // for entries written before the entries moved to `L#<seq>`, the entry itself (ledgerKeyTarget).
  ledger: (k) => ({
    table: 'wallets',
    pk: `W#${k.operatorId}#${k.playerId}`,
    sk: `${LEDGER_KEY_PREFIX}${k.key}`,
  }),
  debt: (k) => ({ table: 'wallets', pk: `DEBT#${k.shoeId}`, sk: `${k.operatorId}#${k.playerId}` }),
  audit: (k) => ({ table: 'audit', pk: `SHOE#${k.shoeId}`, sk: `E#${pad(k.seq, 6)}` }),
  seat: (k) => ({ table: 'game', pk: `TABLE#${k.tableId}`, sk: `SEAT#${pad(k.seat, 2)}` }),
  gate: (k) => ({ table: 'game', pk: `ROUND#${k.roundId}`, sk: `G#${pad(k.gate, 2)}` }),
  batch: (k) => ({ table: 'game', pk: `ROUND#${k.roundId}`, sk: `B#${pad(k.batch, 6)}` }),
  // Signing-key certificates: append-only like the chains, so they live with them.
  keyCertificate: (k) => ({ table: 'audit', pk: 'SIGNING-KEYS', sk: `G#${pad(k.generation, 6)}` }),
  // A table's lock-outs and their clearing: append-only, beside the shoes' chains.
  tableEvent: (k) => ({ table: 'audit', pk: `TABLE#${k.tableId}`, sk: `E#${pad(k.seq, 6)}` }),
  operator: (k) => ({ table: 'game', pk: `OPERATOR#${k.operatorId}`, sk: 'OPERATOR' }),
  // The table's live feed (a projection of the chains, re-derivable) and its head, on a partition of their own.
  liveEvent: (k) => ({ table: 'game', pk: `LIVE#${k.tableId}`, sk: `E#${pad(k.seq, 9)}` }),
  liveHead: (k) => ({ table: 'game', pk: `LIVE#${k.tableId}`, sk: 'HEAD' }),
  // An operator's wallet-mode changes: append-only, beside the shoes' chains and the tables' events.
  operatorEvent: (k) => ({ table: 'audit', pk: `OPERATOR#${k.operatorId}`, sk: `E#${pad(k.seq, 6)}` }),
  // A seamless transaction on its own partition (one item, read by txId): written beside the position
  // it pays in the game table, listed per operator through GSI1 (seamlessTxIndex).
  seamlessTx: (k) => ({ table: 'game', pk: `STX#${k.txId}`, sk: 'STX' }),
  // Wallet movements outside rounds by time: one partition per operator and UTC day.
  movement: (k) => ({
    table: 'wallets',
    pk: movementPartition(k.operatorId, k.at),
    sk: `${k.at}#${k.playerId}#${pad(k.seq, SEQ_WIDTH)}`,
  }),
  // An operator's daily seamless reconciliation reports, one item per UTC day (the daily job's).
  seamlessReport: (k) => ({ table: 'game', pk: `STXREPORT#${k.operatorId}`, sk: `D#${k.date}` }),
};

/**
 * Shards of an operator's day in the seamless-transaction index. A GSI partition takes ~1,000 writes/s;
 * each bet writes its debit record twice and its credit twice (put, then the outcome), each write
 * copied to the index: 16 shards keep one operator under that up to ~4,000 bets/s
 * (docs/data-model.md). Listing a day costs 16 queries.
 */
export const SEAMLESS_TX_SHARDS = 16;

/** The shard of a txId: stable, spread evenly (the first 32 bits of its SHA-256). */
export const seamlessShard = (txId: string): number =>
  createHash('sha256').update(txId).digest().readUInt32BE(0) % SEAMLESS_TX_SHARDS;

/** The index partition of an operator's seamless transactions of one UTC day (`YYYY-MM-DD`) and shard. */
const seamlessPartition = (operatorId: string, day: string, shard: number) =>
  `STX#${operatorId}#${day}#${pad(shard, 2)}`;

/** The partition of an operator's movements of the UTC day of `at` (an ISO 8601 instant). */
export const movementPartition = (operatorId: string, at: string): string =>
  `MOVES#${operatorId}#${at.slice(0, 10)}`;

/** Sort keys of a wallet's ledger entries: `L#` + the sequence number, zero-padded so they sort by it. */
export const LEDGER_PREFIX = 'L#';
export const SEQ_WIDTH = 12;
export const ledgerSortKey = (seq: number) => `${LEDGER_PREFIX}${pad(seq, SEQ_WIDTH)}`;

/** Where a wallet's ledger entry `seq` lives: in the wallet's partition, in sequence order (no index). */
export const ledgerEntryAt = (operatorId: string, playerId: string, seq: number): Location => ({
  table: 'wallets',
  pk: `W#${operatorId}#${playerId}`,
  sk: ledgerSortKey(seq),
});

/** The attribute of a ledger key's marker item: the sequence number of the entry the key wrote. */
export const MARKER_SEQ = 'entrySeq';

/**
 * What the item at a ledger key (LOCATE.ledger) points to: the location of the entry when it is a
 * marker, undefined when it is the entry itself (written before the entries moved to `L#<seq>`, see
 * docs/data-model.md, *Migration*).
 */
export function ledgerKeyTarget(item: Item, key: EntityKeys['ledger']): Location | undefined {
  const seq = item[MARKER_SEQ];
  return typeof seq === 'number' ? ledgerEntryAt(key.operatorId, key.playerId, seq) : undefined;
}

/** One item a transaction writes: an operation of the core at the location it writes. */
export interface ItemWrite {
  op: WriteOp;
  loc: Location;
}

/**
 * The items a core operation writes. One each, but for a ledger entry: the entry at `L#<seq>` (listed
 * in order without an index copy) and, at its idempotency key, a marker naming its sequence number
 * (the key's condition — by default "not used yet" — is the marker's). Entries are never changed.
 */
export function itemWrites(op: WriteOp): ItemWrite[] {
  if (op.entity !== 'ledger') return [{ op, loc: LOCATE[op.entity](op.key as never) }];
  if (op.kind !== 'put') throw new Error('ledger entries are written once (put), never updated or checked');
  const { operatorId, playerId } = op.key;
  const entry: WriteOp = { kind: 'put', entity: 'ledger', key: op.key, item: op.item };
  const marker = {
    kind: 'put',
    entity: 'ledger',
    key: op.key,
    item: { [MARKER_SEQ]: op.item.seq },
    ...(op.expect !== undefined && { expect: op.expect }),
  } as unknown as WriteOp;
  return [
    { op: entry, loc: ledgerEntryAt(operatorId, playerId, op.item.seq) },
    { op: marker, loc: LOCATE.ledger(op.key) },
  ];
}

/**
 * Index attributes written with an item by a put (the access patterns of docs/data-model.md). Only a
 * put writes them — an update (or an upsert that creates the item) leaves the index attributes as they
 * were, so an item created by an upsert is in no index — with one exception, `updateIndexAttributes`.
 */
export function indexAttributes<E extends Entity>(entity: E, item: Entities[E]): Item {
  switch (entity) {
    case 'table': {
      const t = item as Entities['table'];
      return { gsi1pk: `OPERATOR#${t.operatorId}`, gsi1sk: `TABLE#${t.createdAt}#${t.tableId}` };
    }
    case 'shoe': {
      const s = item as Entities['shoe'];
      return { gsi1pk: `TABLE#${s.tableId}`, gsi1sk: `SHOE#${pad(s.number, 6)}` };
    }
    case 'round': {
      const r = item as Entities['round'];
      return { gsi1pk: `SHOE#${r.shoeId}`, gsi1sk: `ROUND#${pad(r.number, 6)}` };
    }
    case 'seamlessTx': {
      const t = item as Entities['seamlessTx'];
      return {
        gsi1pk: seamlessPartition(t.operatorId, t.createdAt.slice(0, 10), seamlessShard(t.txId)),
        gsi1sk: `${t.createdAt}#${t.txId}`,
      };
    }
    case 'position':
      // Not by the bet that creates it: a position enters the player index when it is settled or
      // refunded (updateIndexAttributes), so a bet writes no index entry.
      return {};
    default:
      return {};
  }
}

/** A position's entry in the player index (GSI1: a player's rounds, newest first). */
export const positionIndexAttributes = (p: {
  operatorId: string;
  playerId: string;
  openedAt: string;
  roundId: string;
}): Item => ({ gsi1pk: `PLAYER#${p.operatorId}#${p.playerId}`, gsi1sk: `${p.openedAt}#${p.roundId}` });

/**
 * Index attributes an update writes: an update that settles or refunds a position (it sets
 * `settledAt` or `refundedAt`, with the position's `operatorId` and `openedAt`) puts it into the player
 * index — the index is sparse: open positions are not in it. Nothing for any other update.
 */
export function updateIndexAttributes(
  entity: Entity,
  key: EntityKeys[Entity],
  set: Readonly<Record<string, unknown>> | undefined,
): Item {
  if (entity !== 'position' || !set || (set.settledAt === undefined && set.refundedAt === undefined))
    return {};
  const { operatorId, openedAt } = set as { operatorId?: unknown; openedAt?: unknown };
  if (typeof operatorId !== 'string' || typeof openedAt !== 'string') {
    throw new Error(
      'settling or refunding a position sets its operatorId and openedAt (the player index keys)',
    );
  }
  return positionIndexAttributes({ operatorId, openedAt, ...(key as EntityKeys['position']) });
}

// `lseq`: the sort key of the ledger index that entries written before 2026-12 still carry.
export const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'lseq'];

/** The entity as the core wrote it: the item without its key and index attributes. */
export const strip = <T>(item: Item): T => {
  const out: Item = { ...item };
  for (const k of KEY_ATTRIBUTES) delete out[k];
  return out as T;
};

/** A table's key, or an index's key (the partition and sort attributes and the sort key's type). */
export interface IndexKey {
  /** undefined: the table itself. */
  name?: string;
  partition: string;
  sort: string;
  sortType: 'S' | 'N';
  /** A global index is eventually consistent on AWS (a local one can be read strongly consistent). */
  global: boolean;
}

export const TABLE_KEY: IndexKey = { partition: 'pk', sort: 'sk', sortType: 'S', global: false };
export const INDEXES = {
  gsi1: { name: GSI1, partition: 'gsi1pk', sort: 'gsi1sk', sortType: 'S', global: true },
} as const satisfies Record<string, IndexKey>;

/** One access pattern: a Query of one partition of a table or index, optionally `begins_with` a prefix. */
export interface Access {
  table: LogicalTable;
  index?: keyof typeof INDEXES;
  /** The value of the (index's) partition attribute. */
  partition: string;
  /** `begins_with` on the (index's) sort attribute. */
  sortPrefix?: string;
  /** `BETWEEN` on the (index's) sort attribute (both ends included). */
  sortBetween?: readonly [string, string];
  /** Read eventually consistent (half the cost; may lag a write by about a second). */
  eventual?: boolean;
}

/** The access patterns of the Store's list methods (order: the sort key's, ascending unless reversed). */
export const ACCESS = {
  positions: (roundId: string): Access => ({
    table: 'game',
    partition: `ROUND#${roundId}`,
    sortPrefix: 'P#',
  }),
  tables: (operatorId: string): Access => ({
    table: 'game',
    index: 'gsi1',
    partition: `OPERATOR#${operatorId}`,
    sortPrefix: 'TABLE#',
  }),
  shoes: (tableId: string): Access => ({
    table: 'game',
    index: 'gsi1',
    partition: `TABLE#${tableId}`,
    sortPrefix: 'SHOE#',
  }),
  rounds: (shoeId: string): Access => ({
    table: 'game',
    index: 'gsi1',
    partition: `SHOE#${shoeId}`,
    sortPrefix: 'ROUND#',
  }),
  /**
   * `openedIn` [from, to): the sort key is `openedAt#roundId`, so BETWEEN from AND to holds every
   * position opened at `from` or later and none opened at `to` ("to#…" sorts after "to").
   */
  playerPositions: (
    operatorId: string,
    playerId: string,
    openedIn?: { from: string; to: string },
  ): Access => ({
    table: 'game',
    index: 'gsi1',
    partition: `PLAYER#${operatorId}#${playerId}`,
    ...(openedIn && { sortBetween: [openedIn.from, openedIn.to] as const }),
  }),
  ledger: (operatorId: string, playerId: string): Access => ({
    table: 'wallets',
    partition: `W#${operatorId}#${playerId}`,
    sortPrefix: LEDGER_PREFIX,
  }),
  debts: (shoeId: string): Access => ({ table: 'wallets', partition: `DEBT#${shoeId}` }),
  audit: (shoeId: string): Access => ({ table: 'audit', partition: `SHOE#${shoeId}`, sortPrefix: 'E#' }),
  tableEvents: (tableId: string): Access => ({
    table: 'audit',
    partition: `TABLE#${tableId}`,
    sortPrefix: 'E#',
  }),
  liveEvents: (tableId: string, after: number): Access => ({
    table: 'game',
    partition: `LIVE#${tableId}`,
    sortBetween: [`E#${pad(after + 1, 9)}`, `E#${'9'.repeat(9)}`],
  }),
  operatorEvents: (operatorId: string): Access => ({
    table: 'audit',
    partition: `OPERATOR#${operatorId}`,
    sortPrefix: 'E#',
  }),
  seats: (tableId: string, eventual = false): Access => ({
    table: 'game',
    partition: `TABLE#${tableId}`,
    sortPrefix: 'SEAT#',
    ...(eventual && { eventual }),
  }),
  batches: (roundId: string): Access => ({ table: 'game', partition: `ROUND#${roundId}`, sortPrefix: 'B#' }),
  /**
   * An operator's movements outside rounds with `from <= at < to`, both in one UTC day: the sort key
   * starts with `at`, so `BETWEEN from AND to` holds `at = from` and never `at = to` (`to#…` > `to`).
   */
  movements: (operatorId: string, from: string, to: string): Access => {
    const next = new Date(Date.parse(`${from.slice(0, 10)}T00:00:00.000Z`) + 86_400_000).toISOString();
    if (!(from <= to && to <= next))
      throw new RangeError(`movements ${from}..${to} span more than one UTC day`);
    return { table: 'wallets', partition: movementPartition(operatorId, from), sortBetween: [from, to] };
  },
  /** A wallet's ledger entries with `from <= seq <= to` (a position's calls). */
  ledgerRange: (operatorId: string, playerId: string, from: number, to: number): Access => ({
    table: 'wallets',
    partition: `W#${operatorId}#${playerId}`,
    sortBetween: [ledgerSortKey(from), ledgerSortKey(to)],
  }),
  /**
   * One (day, shard) of an operator's seamless transactions created in `[from, to)`: the index sort key
   * is `createdAt#txId`, so BETWEEN `from` AND `to` holds exactly the creation times from <= t < to.
   */
  seamlessTxs: (operatorId: string, day: string, shard: number, from: string, to: string): Access => ({
    table: 'game',
    index: 'gsi1',
    partition: seamlessPartition(operatorId, day, shard),
    sortBetween: [from, to],
  }),
};

/** The UTC days (`YYYY-MM-DD`) that `[from, to)` touches, in order. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(to);
  for (let t = Date.parse(`${from.slice(0, 10)}T00:00:00.000Z`); t < end; t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export const indexKeyOf = (access: Access): IndexKey =>
  access.index === undefined ? TABLE_KEY : INDEXES[access.index];

/** The attributes of a page's last evaluated key: the table's key, plus the index's when querying one. */
export function cursorAttributes(access: Access): Record<string, 'S' | 'N'> {
  const index = indexKeyOf(access);
  return { pk: 'S', sk: 'S', [index.partition]: 'S', [index.sort]: index.sortType };
}
