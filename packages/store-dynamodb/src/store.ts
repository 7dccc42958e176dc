/**
 * The core's Store port on DynamoDB (docs/data-model.md). A translator only: entity keys -> table,
 * pk/sk and index attributes; the core's conditions -> ConditionExpressions; a write of several
 * operations -> one TransactWriteItems (a single operation -> one conditional Put/Update, half the
 * write units). No game or money rule lives here.
 */
import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  type DynamoDBClientConfig,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type CancelReason,
  type Condition,
  type Entities,
  type Entity,
  type EntityKeys,
  type Expect,
  type Page,
  type ReadOptions,
  type Store,
  TransactionCanceled,
  type WriteOp,
} from '@pyb/core';
import { DEFAULT_CURSOR_KEY, decodeCursor, encodeCursor } from './cursor';
import {
  ACCESS,
  type Access,
  type Item,
  type ItemWrite,
  indexAttributes,
  indexKeyOf,
  itemWrites,
  LOCATE,
  type Location,
  ledgerKeyTarget,
  strip,
  updateIndexAttributes,
} from './layout';
import { ListingStore, type PageRequest } from './listing';
import type { TableNames } from './tables';

/** Cancellation reasons that mean "try again": a concurrent write or throttling. */
const RETRYABLE = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

/** Builds expression names/values with stable placeholders. */
class Expr {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private n = 0;
  private v = 0;
  private readonly byName = new Map<string, string>();

  path(dotted: string): string {
    return dotted
      .split('.')
      .map((segment) => {
        let placeholder = this.byName.get(segment);
        if (!placeholder) {
          placeholder = `#n${this.n++}`;
          this.byName.set(segment, placeholder);
          this.names[placeholder] = segment;
        }
        return placeholder;
      })
      .join('.');
  }

  value(value: unknown): string {
    const placeholder = `:v${this.v++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  condition(attribute: string, c: Condition): string {
    const p = this.path(attribute);
    if (c === null) return `attribute_not_exists(${p})`;
    if (c === 'exists') return `attribute_exists(${p})`;
    if (typeof c !== 'object') return `${p} = ${this.value(c)}`;
    if ('in' in c) return `${p} IN (${c.in.map((x) => this.value(x)).join(', ')})`;
    if ('lt' in c) return `${p} < ${this.value(c.lt)}`;
    if ('lte' in c) return `${p} <= ${this.value(c.lte)}`;
    return `${p} >= ${this.value(c.gte)}`;
  }

  conditions(expect: Expect | undefined, extra: string[] = []): string | undefined {
    const parts = [...extra, ...Object.entries(expect ?? {}).map(([a, c]) => this.condition(a, c))];
    return parts.length > 0 ? parts.join(' AND ') : undefined;
  }

  /** Only the placeholders used (DynamoDB refuses unused ones). */
  attach<T extends object>(input: T): T {
    return {
      ...input,
      ...(Object.keys(this.names).length > 0 && { ExpressionAttributeNames: this.names }),
      ...(Object.keys(this.values).length > 0 && { ExpressionAttributeValues: this.values }),
    };
  }
}

export interface DynamoStoreOptions {
  tables: TableNames;
  /** A document client to share, a client, or the config for one. */
  doc?: DynamoDBDocumentClient;
  client?: DynamoDBClient;
  clientConfig?: DynamoDBClientConfig;
  /**
   * The HMAC key list cursors are sealed with; every container of a deployment must share it
   * (CURSOR_KEY, docs/deploy.md). Default: DEFAULT_CURSOR_KEY (opaque and bound, not secret).
   */
  cursorKey?: Uint8Array;
}

export class DynamoStore extends ListingStore implements Store {
  readonly doc: DynamoDBDocumentClient;
  readonly tables: TableNames;

  private readonly cursorKey: Uint8Array;

  constructor(options: DynamoStoreOptions) {
    super();
    this.doc =
      options.doc ??
      DynamoDBDocumentClient.from(options.client ?? new DynamoDBClient(options.clientConfig ?? {}), {
        marshallOptions: { removeUndefinedValues: true },
      });
    this.tables = options.tables;
    this.cursorKey = options.cursorKey ?? DEFAULT_CURSOR_KEY;
  }

  async get<E extends Entity>(
    entity: E,
    key: EntityKeys[E],
    options: ReadOptions = {},
  ): Promise<Entities[E] | undefined> {
    const read = async (loc: Location) =>
      (
        await this.doc.send(
          new GetCommand({
            TableName: this.tables[loc.table],
            Key: { pk: loc.pk, sk: loc.sk },
            ConsistentRead: options.consistent !== false,
          }),
        )
      ).Item as Item | undefined;
    let item = await read(LOCATE[entity](key));
    // A ledger key holds a marker naming its entry (written in the same transaction): one more read.
    const target =
      item && entity === 'ledger' ? ledgerKeyTarget(item, key as EntityKeys['ledger']) : undefined;
    if (target) item = await read(target);
    return item ? strip<Entities[E]>(item) : undefined;
  }

  /** One item write as a TransactWriteItems element (Put / Update / ConditionCheck). */
  private writeItem({ op, loc: at }: ItemWrite): Record<string, Item> {
    const loc = { ...at, tableName: this.tables[at.table] };
    const Key = { pk: loc.pk, sk: loc.sk };
    const expr = new Expr();
    if (op.kind === 'put') {
      const Item = {
        ...(op.item as unknown as Item),
        ...indexAttributes(op.entity, op.item as never),
        ...Key,
      };
      const ConditionExpression =
        op.expect === undefined ? `attribute_not_exists(${expr.path('pk')})` : expr.conditions(op.expect);
      return { Put: expr.attach({ TableName: loc.tableName, Item, ConditionExpression }) };
    }
    const mustExist = op.kind === 'check' || !op.upsert ? [`attribute_exists(${expr.path('pk')})`] : [];
    const ConditionExpression = expr.conditions(op.expect, mustExist);
    if (op.kind === 'check') {
      return { ConditionCheck: expr.attach({ TableName: loc.tableName, Key, ConditionExpression }) };
    }
    const sets: string[] = [];
    const removes: string[] = [];
    const set = { ...op.set, ...updateIndexAttributes(op.entity, op.key as never, op.set) };
    for (const [attribute, value] of Object.entries(set)) {
      if (value === null) removes.push(expr.path(attribute));
      else if (value !== undefined) sets.push(`${expr.path(attribute)} = ${expr.value(value)}`);
    }
    for (const [attribute, delta] of Object.entries(op.add ?? {})) {
      const p = expr.path(attribute);
      sets.push(`${p} = if_not_exists(${p}, ${expr.value(0)}) + ${expr.value(delta)}`);
    }
    for (const [attribute, values] of Object.entries(op.append ?? {})) {
      const p = expr.path(attribute);
      sets.push(`${p} = list_append(if_not_exists(${p}, ${expr.value([])}), ${expr.value(values)})`);
    }
    const UpdateExpression = [
      sets.length > 0 ? `SET ${sets.join(', ')}` : '',
      removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return {
      Update: expr.attach({ TableName: loc.tableName, Key, UpdateExpression, ConditionExpression }),
    };
  }

  async transact(ops: readonly WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    // Each op's items (a ledger entry is two), and for each item the op it belongs to.
    const writes = ops.flatMap((op, i) => itemWrites(op).map((w) => ({ ...w, owner: i })));
    const items = writes.map((w) => this.writeItem(w));
    if (items.length === 1 && !items[0]!.ConditionCheck) {
      // A single write needs no transaction: a conditional Put/Update is as atomic and costs half.
      try {
        if (items[0]!.Put) await this.doc.send(new PutCommand(items[0]!.Put as never));
        else await this.doc.send(new UpdateCommand(items[0]!.Update as never));
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) throw new TransactionCanceled(['CONDITION']);
        throw error;
      }
      return;
    }
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        const codes = writes.map((_, i) => error.CancellationReasons?.[i]?.Code ?? 'None');
        // Anything but a failed condition or a collision (a validation error, an item collection over
        // its size limit) is a bug or a limit: surface it instead of retrying.
        const fatal = codes.find((c) => c !== 'None' && c !== 'ConditionalCheckFailed' && !RETRYABLE.has(c));
        if (fatal) throw error;
        // An op is refused when one of its items is (a failed condition names it before a collision).
        const reasons = ops.map((_, i): CancelReason | undefined => {
          const mine = codes.filter((_, w) => writes[w]!.owner === i);
          if (mine.includes('ConditionalCheckFailed')) return 'CONDITION';
          return mine.some((c) => c !== 'None') ? 'CONFLICT' : undefined;
        });
        // DynamoDB may cancel without naming an item (e.g. a conflicting transaction): retryable.
        throw new TransactionCanceled(reasons.some((r) => r) ? reasons : ops.map(() => 'CONFLICT' as const));
      }
      if ((error as { name?: string }).name === 'TransactionConflictException') {
        throw new TransactionCanceled(ops.map(() => 'CONFLICT' as const));
      }
      throw error;
    }
  }

  /** The Query of one access pattern (layout.ts), strongly consistent unless it reads a global index. */
  private queryInput(access: Access, order: 'asc' | 'desc' = 'asc', limit?: number): QueryCommandInput {
    const index = indexKeyOf(access);
    const names: Record<string, string> = { '#p': index.partition };
    const values: Record<string, unknown> = { ':p': access.partition };
    let condition = '#p = :p';
    if (access.sortPrefix !== undefined) {
      names['#s'] = index.sort;
      values[':s'] = access.sortPrefix;
      condition += ' AND begins_with(#s, :s)';
    }
    if (access.sortBetween !== undefined) {
      names['#s'] = index.sort;
      [values[':from'], values[':to']] = access.sortBetween;
      condition += ' AND #s BETWEEN :from AND :to';
    }
    return {
      TableName: this.tables[access.table],
      ...(index.name !== undefined && { IndexName: index.name }),
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: order === 'asc',
      ...(limit !== undefined && { Limit: limit }),
      ...(!index.global && !access.eventual && { ConsistentRead: true }),
    };
  }

  protected async queryAll<T>(access: Access): Promise<T[]> {
    const input = this.queryInput(access);
    const items: T[] = [];
    let start: Item | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({ ...input, ...(start && { ExclusiveStartKey: start }) }),
      );
      items.push(...((out.Items as Item[]) ?? []).map((i) => strip<T>(i)));
      start = out.LastEvaluatedKey as Item | undefined;
    } while (start);
    return items;
  }

  protected async queryPage<T>(access: Access, page: PageRequest): Promise<Page<T>> {
    const start = page.cursor === undefined ? undefined : decodeCursor(page.cursor, access, this.cursorKey);
    const out = await this.doc.send(
      new QueryCommand({
        ...this.queryInput(access, page.order, page.limit),
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    const last = out.LastEvaluatedKey as Item | undefined;
    return {
      items: ((out.Items as Item[]) ?? []).map((i) => strip<T>(i)),
      ...(last && { cursor: encodeCursor(last, access, this.cursorKey) }),
    };
  }

  async auditHead(shoeId: string) {
    const out = await this.doc.send(new QueryCommand(this.queryInput(ACCESS.audit(shoeId), 'desc', 1)));
    const item = out.Items?.[0];
    return item ? strip<Entities['audit']>(item as Item) : undefined;
  }
}
