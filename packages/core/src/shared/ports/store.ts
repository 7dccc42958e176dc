/**
 * The Store port. Writes are transactions of conditional operations on entities: all or nothing, and
 * a refused condition tells which operation failed. The use cases decide every condition (the rules);
 * the adapter only translates them (DynamoDB: one TransactWriteItems, ConditionExpressions).
 */
import type {
  AuditRecord,
  BatchRecord,
  DebtRecord,
  GateRecord,
  KeyCertificateRecord,
  LedgerEntry,
  LiveEventRecord,
  LiveHeadRecord,
  OperatorEventRecord,
  OperatorRecord,
  PositionRecord,
  RoundRecord,
  SeamlessReportRecord,
  SeamlessTxRecord,
  SeatRecord,
  ShoeRecord,
  TableEventRecord,
  TableRecord,
  WalletRecord,
} from '../model';

export interface Entities {
  table: TableRecord;
  shoe: ShoeRecord;
  round: RoundRecord;
  position: PositionRecord;
  wallet: WalletRecord;
  ledger: LedgerEntry;
  debt: DebtRecord;
  audit: AuditRecord;
  seat: SeatRecord;
  gate: GateRecord;
  batch: BatchRecord;
  keyCertificate: KeyCertificateRecord;
  tableEvent: TableEventRecord;
  operator: OperatorRecord;
  /** A change of an operator's wallet mode (append-only, in the audit table). */
  operatorEvent: OperatorEventRecord;
  seamlessTx: SeamlessTxRecord;
  /** A wallet movement outside rounds, by time (a copy of its ledger entry: wallet-ledger.ts). */
  movement: LedgerEntry;
  seamlessReport: SeamlessReportRecord;
  /** The table's live feed (live/feed.ts): an event, and how far the projection got. */
  liveEvent: LiveEventRecord;
  liveHead: LiveHeadRecord;
}

export interface EntityKeys {
  table: { tableId: string };
  shoe: { shoeId: string };
  round: { roundId: string };
  position: { roundId: string; playerId: string };
  wallet: { operatorId: string; playerId: string };
  ledger: { operatorId: string; playerId: string; key: string };
  debt: { shoeId: string; operatorId: string; playerId: string };
  audit: { shoeId: string; seq: number };
  seat: { tableId: string; seat: number };
  gate: { roundId: string; gate: number };
  batch: { roundId: string; batch: number };
  keyCertificate: { generation: number };
  tableEvent: { tableId: string; seq: number };
  operator: { operatorId: string };
  operatorEvent: { operatorId: string; seq: number };
  seamlessTx: { txId: string };
  movement: { operatorId: string; at: string; playerId: string; seq: number };
  seamlessReport: { operatorId: string; date: string };
  liveEvent: { tableId: string; seq: number };
  liveHead: { tableId: string };
}

export type Entity = keyof Entities;

/**
 * A condition on one attribute (a field name, or a dotted path into a map such as `bets.BANKER`):
 * null = absent, 'exists' = present, a primitive = equal to it, or a comparison / membership.
 */
export type Condition =
  | null
  | 'exists'
  | string
  | number
  | boolean
  | { in: readonly (string | number)[] }
  | { lt: number }
  | { lte: number }
  | { gte: number };

/** All must hold (AND). */
export type Expect = Readonly<Record<string, Condition>>;

export type WriteOp = {
  [E in Entity]:
    | {
        kind: 'put';
        entity: E;
        key: EntityKeys[E];
        item: Entities[E];
        /** Default: the item must not exist yet (puts never overwrite). */
        expect?: Expect;
      }
    | {
        kind: 'update';
        entity: E;
        key: EntityKeys[E];
        /** Attribute (or dotted path) -> new value; `null` removes it. */
        set?: Readonly<Record<string, unknown>>;
        /** Attribute (or dotted path) -> number added (a missing attribute counts as 0). */
        add?: Readonly<Record<string, number>>;
        /** Attribute -> values appended to a list (created when missing). */
        append?: Readonly<Record<string, readonly unknown[]>>;
        /** Conditions; the item must exist unless `upsert`. */
        expect?: Expect;
        /** Create the item if it does not exist (only `set` and `add` apply then). */
        upsert?: boolean;
      }
    | { kind: 'check'; entity: E; key: EntityKeys[E]; expect: Expect };
}[Entity];

export type CancelReason = 'CONDITION' | 'CONFLICT';

/**
 * A transaction that did not happen. `reasons[i]` says why operation i was refused: its condition
 * failed, or it collided with a concurrent write (retry). `undefined` = that operation was fine.
 */
export class TransactionCanceled extends Error {
  override readonly name = 'TransactionCanceled';
  constructor(
    readonly reasons: readonly (CancelReason | undefined)[],
    message = `transaction canceled: ${reasons.map((r) => r ?? '-').join(',')}`,
  ) {
    super(message);
  }

  failed(index: number): boolean {
    return this.reasons[index] === 'CONDITION';
  }

  /** Only collisions (no condition failed): the same transaction may simply be tried again. */
  get transient(): boolean {
    return this.reasons.every((r) => r !== 'CONDITION');
  }
}

export interface Page<T> {
  items: T[];
  /** Opaque; pass back to get the next page. */
  cursor?: string;
}

/** Reads are strongly consistent unless `consistent: false` (half the cost; may lag a write by ~1 s). */
export interface ReadOptions {
  consistent?: boolean;
}

export interface Store {
  /** Read of one entity (strongly consistent by default). */
  get<E extends Entity>(
    entity: E,
    key: EntityKeys[E],
    options?: ReadOptions,
  ): Promise<Entities[E] | undefined>;
  transact(ops: readonly WriteOp[]): Promise<void>;

  /** Positions of a round (strongly consistent). */
  listPositions(roundId: string): Promise<PositionRecord[]>;
  /** An operator's tables by creation time, a page at a time (an index: eventually consistent). */
  listTables(operatorId: string, page: { limit: number; cursor?: string }): Promise<Page<TableRecord>>;
  /** Shoes of a table by number, a page at a time (an index: eventually consistent). */
  listShoes(tableId: string, page: { limit: number; cursor?: string }): Promise<Page<ShoeRecord>>;
  /** Rounds of a shoe in order (an index: eventually consistent). */
  listRounds(shoeId: string): Promise<RoundRecord[]>;
  /**
   * A player's positions, newest first (an index: eventually consistent); `openedIn`: only those
   * opened in [from, to) (ISO times), read from the index's sort key (nothing outside is read).
   */
  listPlayerPositions(
    operatorId: string,
    playerId: string,
    page: { limit: number; cursor?: string; openedIn?: { from: string; to: string } },
  ): Promise<Page<PositionRecord>>;
  /** A wallet's ledger by sequence number. */
  listLedger(
    operatorId: string,
    playerId: string,
    page: { limit: number; cursor?: string; order: 'asc' | 'desc' },
  ): Promise<Page<LedgerEntry>>;
  /** Deferred-commission debts of a shoe (strongly consistent). */
  listDebts(shoeId: string): Promise<DebtRecord[]>;
  /** A table's own events (lock-outs and their clearing) in order (strongly consistent). */
  listTableEvents(tableId: string): Promise<TableEventRecord[]>;
  /** An operator's wallet-mode changes in order (strongly consistent). */
  listOperatorEvents(operatorId: string): Promise<OperatorEventRecord[]>;
  /** The shoe's audit chain in order (strongly consistent). */
  listAudit(shoeId: string): Promise<AuditRecord[]>;
  /** The last event of the shoe's chain (strongly consistent). */
  auditHead(shoeId: string): Promise<AuditRecord | undefined>;
  /** The seat items of a table, by seat number (strongly consistent by default). */
  listSeats(tableId: string, options?: ReadOptions): Promise<SeatRecord[]>;
  /** The finished batches of a round's settlement or refunds (strongly consistent). */
  listBatches(roundId: string): Promise<BatchRecord[]>;
  /**
   * An operator's wallet movements outside rounds (credits, debits, responsible-gaming changes,
   * commission collections, session ends) with `from <= at < to`, by time then player and sequence
   * number, a page at a time (strongly consistent). `from` and `to` lie in one UTC day: `to` at most
   * the next midnight (the movements are kept per operator and day).
   */
  listMovements(
    operatorId: string,
    range: { from: string; to: string },
    page: { limit: number; cursor?: string },
  ): Promise<Page<LedgerEntry>>;
  /** A wallet's ledger entries with `fromSeq <= seq <= toSeq`, in order (strongly consistent). */
  listLedgerRange(
    operatorId: string,
    playerId: string,
    fromSeq: number,
    toSeq: number,
  ): Promise<LedgerEntry[]>;
  /**
   * An operator's seamless transactions created in `[from, to)` (ISO timestamps; at most
   * MAX_SEAMLESS_LIST_DAYS days apart, which touch one UTC day more when they do not start at
   * midnight), a page at a time: what reconciliation reads. An index, sharded by day and hash of the
   * txId (docs/data-model.md): eventually consistent; ordered by day, then shard,
   * then creation time — not globally by time. A page fills across days: it holds `limit` items, or
   * it is the last and has no cursor (DynamoDB's 1 MB read may still cut one short, with a cursor:
   * follow it until there is none).
   */
  listSeamlessTxs(
    operatorId: string,
    range: { from: string; to: string },
    page: { limit: number; cursor?: string },
  ): Promise<Page<SeamlessTxRecord>>;
}

/**
 * The live feed's listing, beside the Store (both adapters have it: store-dynamodb listing.ts); kept
 * apart so the many Store wrappers of the tests need not know it.
 */
export interface LiveFeedStore {
  /** A table's live events with seq > `after`, in order, at most `limit` (strongly consistent). */
  listLiveEvents(tableId: string, after: number, limit: number): Promise<LiveEventRecord[]>;
}

/** The longest period one listing of seamless transactions covers (a day is SEAMLESS_TX_SHARDS queries). */
export const MAX_SEAMLESS_LIST_DAYS = 31;
