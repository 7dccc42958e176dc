/**
 * The core's Store port in memory, for fast use-case tests. Not a simplification: it keeps the very
 * items the DynamoDB adapter writes (same tables, pk/sk, index attributes — @pyb/store-dynamodb/layout)
 * and behaves as DynamoDB does where the use cases can tell:
 *
 * - a transaction is all or nothing; every refused condition is named (`reasons[i]`), the others are
 *   `undefined`; a put never overwrites unless given `expect`; an update needs the item unless `upsert`;
 * - what DynamoDB refuses as a bad request (two operations on one item, more than 100 operations, an
 *   item over 400 KB, a dotted path under a missing map, overlapping paths, `add` to a non-number,
 *   a condition DynamoDB cannot evaluate) throws a `StoreRequestError`, not a `TransactionCanceled`;
 * - values are stored as DynamoDB stores them: copied, `undefined` removed (also inside lists, as the
 *   document client's `removeUndefinedValues` does), `null` kept as NULL;
 * - reads are strongly consistent copies; list methods query the same partitions and indexes in the
 *   same order (sort keys compared as UTF-8 bytes, numbers as numbers), pages stop at `limit` items or
 *   1 MB, and a page that stops at `limit` has a cursor even when nothing follows (as DynamoDB's
 *   LastEvaluatedKey); index attributes are written by puts only, as in the adapter.
 *
 * Each call yields to the event loop before it touches the state (as a network round trip would), so
 * concurrent use cases interleave between their reads and their writes. A transaction then applies
 * atomically; DynamoDB's transient `TransactionConflict` never happens here (tests inject it).
 */
import {
  type CancelReason,
  type Entities,
  type Entity,
  type EntityKeys,
  type Page,
  type ReadOptions,
  type Store,
  TransactionCanceled,
  type WriteOp,
} from '@pyb/core';
import { decodeCursor, encodeCursor } from '@pyb/store-dynamodb/cursor';
import {
  ACCESS,
  type Access,
  cursorAttributes,
  type Item,
  indexAttributes,
  indexKeyOf,
  itemWrites,
  LOCATE,
  type Location,
  type LogicalTable,
  ledgerKeyTarget,
  strip,
  updateIndexAttributes,
} from '@pyb/store-dynamodb/layout';
import { ListingStore, type PageRequest } from '@pyb/store-dynamodb/listing';
import {
  assign,
  checkCondition,
  checkPaths,
  compareUtf8,
  copy,
  itemBytes,
  matches,
  read,
  remove,
  StoreRequestError,
  stored,
} from './item-rules';

export { compareUtf8, itemBytes, StoreRequestError } from './item-rules';

/** DynamoDB's limits that a use case can run into. */
export const LIMITS = {
  itemBytes: 400 * 1024,
  transactionItems: 100,
  pageBytes: 1024 * 1024,
};

export interface MemoryStoreOptions {
  /**
   * Awaited before each call touches the state (default: one turn of the event loop). Tests may
   * pass a scheduler's hook to choose the interleavings.
   */
  latency?: () => Promise<void>;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Slot {
  loc: Location;
  /** pk + sk */
  id: string;
}

type Table = Map<string, Map<string, Item>>;

export class MemoryStore extends ListingStore implements Store {
  private readonly tables = new Map<string, Table>();
  private readonly latency: () => Promise<void>;

  constructor(options: MemoryStoreOptions = {}) {
    super();
    this.latency = options.latency ?? yieldTurn;
  }

  private table(name: string): Table {
    let t = this.tables.get(name);
    if (!t) {
      t = new Map();
      this.tables.set(name, t);
    }
    return t;
  }

  private slot<E extends Entity>(entity: E, key: EntityKeys[E]): Slot {
    const loc = LOCATE[entity](key);
    return { loc, id: `${loc.table}\u0000${loc.pk}\u0000${loc.sk}` };
  }

  private itemAt(loc: Location): Item | undefined {
    return this.table(loc.table).get(loc.pk)?.get(loc.sk);
  }

  private write(loc: Location, item: Item): void {
    const t = this.table(loc.table);
    let partition = t.get(loc.pk);
    if (!partition) {
      partition = new Map();
      t.set(loc.pk, partition);
    }
    partition.set(loc.sk, item);
  }

  /**
   * Raw item access for tests that tamper with stored data as someone with write access to the table
   * would (the items as DynamoDB holds them: with pk, sk and index attributes). Not part of the port.
   */
  readonly raw = {
    get: async (table: LogicalTable, key: { pk: string; sk: string }): Promise<Item | undefined> => {
      const item = this.table(table).get(key.pk)?.get(key.sk);
      return item ? copy(item) : undefined;
    },
    put: async (table: LogicalTable, item: Item): Promise<void> => {
      this.write({ table, pk: String(item.pk), sk: String(item.sk) }, stored(item) as Item);
    },
    delete: async (table: LogicalTable, key: { pk: string; sk: string }): Promise<void> => {
      this.table(table).get(key.pk)?.delete(key.sk);
    },
    /** A partition's items in sort-key order. */
    partition: async (table: LogicalTable, pk: string): Promise<Item[]> =>
      [...(this.table(table).get(pk)?.values() ?? [])]
        .sort((a, b) => compareUtf8(String(a.sk), String(b.sk)))
        .map((i) => copy(i)),
  };

  /** Always strongly consistent: an eventually consistent read may return the latest write too. */
  async get<E extends Entity>(
    entity: E,
    key: EntityKeys[E],
    _options?: ReadOptions,
  ): Promise<Entities[E] | undefined> {
    await this.latency();
    let item = this.itemAt(this.slot(entity, key).loc);
    // A ledger key holds a marker naming its entry (as in the adapter: a second read).
    const target =
      item && entity === 'ledger' ? ledgerKeyTarget(item, key as EntityKeys['ledger']) : undefined;
    if (target) item = this.itemAt(target);
    return item ? strip<Entities[E]>(copy(item)) : undefined;
  }

  async transact(ops: readonly WriteOp[]): Promise<void> {
    await this.latency();
    if (ops.length === 0) return;
    // The items the ops write (a ledger entry is two, as in the adapter), each with its op's index.
    const writes = ops.flatMap((op, i) => itemWrites(op).map((w) => ({ ...w, owner: i })));
    if (writes.length > LIMITS.transactionItems)
      throw new StoreRequestError(`a transaction holds at most ${LIMITS.transactionItems} operations`);
    const slots = writes.map((w) => `${w.loc.table}\u0000${w.loc.pk}\u0000${w.loc.sk}`);
    if (new Set(slots).size !== slots.length)
      throw new StoreRequestError('a transaction cannot include multiple operations on one item');
    for (const op of ops) {
      for (const [path, c] of Object.entries(op.expect ?? {})) checkCondition(path, c);
    }
    // Every condition against the state before the transaction; all refusals are named (per op).
    const before = writes.map((w) => this.itemAt(w.loc));
    const refused = writes.map(({ op }, i): boolean => {
      const current = before[i];
      const exists = current !== undefined;
      if (op.kind === 'put' && op.expect === undefined) return exists;
      if (op.kind === 'check' && !exists) return true;
      if (op.kind === 'update' && !op.upsert && !exists) return true;
      return !matches(current, op.expect);
    });
    const reasons = ops.map((_, i): CancelReason | undefined =>
      writes.some((w, j) => w.owner === i && refused[j]) ? 'CONDITION' : undefined,
    );
    // The new items, all computed before any is written (a bad request writes nothing either).
    const after = writes.map((w, i) => this.apply(w.op, w.loc, before[i]));
    if (reasons.some((r) => r !== undefined)) throw new TransactionCanceled(reasons);
    writes.forEach((w, i) => {
      const item = after[i];
      if (w.op.kind !== 'check' && item) this.write(w.loc, item);
    });
  }

  /** The item an operation leaves (undefined for a check). Throws StoreRequestError as DynamoDB would. */
  private apply(op: WriteOp, loc: Location, current: Item | undefined): Item | undefined {
    if (op.kind === 'check') return undefined;
    let next: Item;
    if (op.kind === 'put') {
      next = {
        ...(stored(op.item) as Item),
        ...indexAttributes(op.entity, op.item as never),
        pk: loc.pk,
        sk: loc.sk,
      };
    } else {
      next = current ? copy(current) : { pk: loc.pk, sk: loc.sk };
      const paths: string[] = [];
      const edits: Array<(item: Item) => void> = [];
      // An update that settles or refunds a position also writes its player-index keys (as the adapter).
      const set = { ...op.set, ...updateIndexAttributes(op.entity, op.key as never, op.set) };
      for (const [path, value] of Object.entries(set)) {
        if (value === undefined) continue;
        paths.push(path);
        edits.push((item) => (value === null ? remove(item, path) : assign(item, path, stored(value))));
      }
      for (const [path, delta] of Object.entries(op.add ?? {})) {
        paths.push(path);
        const old = read(current, path);
        if (old !== undefined && typeof old !== 'number')
          throw new StoreRequestError(`cannot add to ${path}: not a number`);
        const sum = ((old as number | undefined) ?? 0) + delta;
        edits.push((item) => assign(item, path, stored(sum)));
      }
      for (const [path, values] of Object.entries(op.append ?? {})) {
        paths.push(path);
        const old = read(current, path);
        if (old !== undefined && !Array.isArray(old))
          throw new StoreRequestError(`cannot append to ${path}: not a list`);
        edits.push((item) => assign(item, path, stored([...((old as unknown[]) ?? []), ...values])));
      }
      if (paths.length === 0) throw new StoreRequestError('an update must change something');
      checkPaths(paths);
      for (const edit of edits) edit(next);
    }
    if (itemBytes(next) > LIMITS.itemBytes)
      throw new StoreRequestError(
        `item size has exceeded the maximum allowed size (${LIMITS.itemBytes} bytes)`,
      );
    return next;
  }

  /** One Query: the partition's items in sort-key order, from after `start`, up to `limit` / 1 MB. */
  private query(
    access: Access,
    order: 'asc' | 'desc',
    limit?: number,
    start?: Item,
  ): { items: Item[]; last?: Item } {
    const index = indexKeyOf(access);
    const t = this.table(access.table);
    const candidates: Item[] =
      index.partition === 'pk'
        ? [...(t.get(access.partition)?.values() ?? [])]
        : [...t.values()]
            .flatMap((p) => [...p.values()])
            .filter((i) => i[index.partition] === access.partition);
    const sortType = index.sortType === 'N' ? 'number' : 'string';
    const inIndex = candidates.filter((i) => {
      const s = i[index.sort];
      if (typeof s !== sortType) return false;
      if (access.sortBetween !== undefined) {
        const [from, to] = access.sortBetween;
        if (typeof s !== 'string' || compareUtf8(s, from) < 0 || compareUtf8(s, to) > 0) return false;
      }
      return access.sortPrefix === undefined || (s as string).startsWith(access.sortPrefix);
    });
    const compare = (a: Item, b: Item): number => {
      const sa = a[index.sort];
      const sb = b[index.sort];
      const bySort = typeof sa === 'number' ? sa - (sb as number) : compareUtf8(sa as string, sb as string);
      if (bySort !== 0) return bySort;
      // Equal index sort keys: by the table's key (DynamoDB does not promise an order; this is stable).
      return compareUtf8(`${a.pk}\u0000${a.sk}`, `${b.pk}\u0000${b.sk}`);
    };
    const sorted = inIndex.sort((a, b) => (order === 'asc' ? compare(a, b) : compare(b, a)));
    const from = start
      ? sorted.findIndex((i) => (order === 'asc' ? compare(i, start) : compare(start, i)) > 0)
      : 0;
    const rest = from < 0 ? [] : sorted.slice(from);
    const items: Item[] = [];
    let bytes = 0;
    for (const item of rest) {
      const size = itemBytes(item);
      if (items.length > 0 && bytes + size > LIMITS.pageBytes) break;
      items.push(item);
      bytes += size;
      if (limit !== undefined && items.length >= limit) break;
    }
    const stopped = items.length < rest.length || (limit !== undefined && items.length >= limit);
    const lastItem = items.at(-1);
    const last = stopped && lastItem ? keyOf(lastItem, access) : undefined;
    return { items: items.map((i) => copy(i)), ...(last && { last }) };
  }

  protected async queryAll<T>(access: Access): Promise<T[]> {
    await this.latency();
    const out: T[] = [];
    let start: Item | undefined;
    do {
      const page = this.query(access, 'asc', undefined, start);
      out.push(...page.items.map((i) => strip<T>(i)));
      start = page.last;
    } while (start);
    return out;
  }

  protected async queryPage<T>(access: Access, page: PageRequest): Promise<Page<T>> {
    await this.latency();
    const start = page.cursor === undefined ? undefined : decodeCursor(page.cursor, access);
    if (!Number.isSafeInteger(page.limit) || page.limit < 1)
      throw new StoreRequestError('limit must be a positive integer');
    const out = this.query(access, page.order, page.limit, start);
    return {
      items: out.items.map((i) => strip<T>(i)),
      ...(out.last && { cursor: encodeCursor(out.last, access) }),
    };
  }

  async auditHead(shoeId: string) {
    await this.latency();
    const item = this.query(ACCESS.audit(shoeId), 'desc', 1).items[0];
    return item ? strip<Entities['audit']>(item) : undefined;
  }
}

/** The last evaluated key of a page: the table's key plus the index's. */
function keyOf(item: Item, access: Access): Item {
  const key: Item = {};
  for (const name of Object.keys(cursorAttributes(access))) key[name] = item[name];
  return key;
}
