/**
 * The DynamoDB tables, defined once (docs/data-model.md). The DynamoDB Local launcher, the tests and the
 * CDK app all build their tables from these definitions, so the key schema cannot drift between them.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/** Logical table names, as `functions/src/routes.ts` grants them. */
export type LogicalTable = 'game' | 'wallets' | 'audit' | 'principals' | 'idempotency' | 'sessions';
export const LOGICAL_TABLES: readonly LogicalTable[] = [
  'game',
  'wallets',
  'audit',
  'principals',
  'idempotency',
  'sessions',
];

export type TableNames = Record<LogicalTable, string>;

export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

export interface IndexDefinition {
  name: string;
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
}

export interface TableDefinition {
  logical: LogicalTable;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /** Global secondary indexes (projection ALL). */
  globalIndexes: readonly IndexDefinition[];
  /** Local secondary indexes (same partition key; projection ALL). */
  localIndexes: readonly IndexDefinition[];
  /** Attribute DynamoDB expires items by (epoch seconds), if any. Never on money or audit data. */
  ttlAttribute?: string;
  /** Data kept for years (game recall, audit): point-in-time recovery and deletion protection in the CDK app. */
  retained: boolean;
}

const S = (name: string): KeyAttribute => ({ name, type: 'S' });

/** Overloaded GSI of the game table: rounds of a shoe, shoes of a table, positions of a player. */
export const GSI1 = 'gsi1';

export const TABLES: Readonly<Record<LogicalTable, TableDefinition>> = {
  game: {
    logical: 'game',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    globalIndexes: [{ name: GSI1, partitionKey: S('gsi1pk'), sortKey: S('gsi1sk') }],
    localIndexes: [],
    retained: true,
  },
  wallets: {
    logical: 'wallets',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    globalIndexes: [],
    // No index: ledger entries sort by their own key (`L#<seq>`, docs/data-model.md).
    localIndexes: [],
    retained: true,
  },
  audit: {
    logical: 'audit',
    partitionKey: S('pk'),
    sortKey: S('sk'),
    globalIndexes: [],
    localIndexes: [],
    retained: true,
  },
  principals: {
    logical: 'principals',
    partitionKey: S('keyHash'),
    globalIndexes: [],
    localIndexes: [],
    retained: true,
  },
  idempotency: {
    logical: 'idempotency',
    partitionKey: S('pk'),
    globalIndexes: [],
    localIndexes: [],
    ttlAttribute: 'expiresAt',
    retained: false,
  },
  // Players' launch tokens, sessions and revocation markers (sessions.ts): hours long, gone by TTL.
  sessions: {
    logical: 'sessions',
    partitionKey: S('pk'),
    globalIndexes: [],
    localIndexes: [],
    ttlAttribute: 'ttl',
    retained: false,
  },
};

/**
 * Physical names from a prefix: `<prefix>-game`, `<prefix>-wallets`, ... Deployed functions get each
 * name from an env var (`TABLE_GAME`, `TABLE_WALLETS`, ...), which wins over the prefix.
 */
export function tableNames(prefix: string, env: Record<string, string | undefined> = {}): TableNames {
  const name = (logical: LogicalTable) => env[`TABLE_${logical.toUpperCase()}`] ?? `${prefix}-${logical}`;
  return {
    game: name('game'),
    wallets: name('wallets'),
    audit: name('audit'),
    principals: name('principals'),
    idempotency: name('idempotency'),
    sessions: name('sessions'),
  };
}

/** Names for a Lambda or local process: TABLE_* env vars, else `${TABLE_PREFIX ?? 'pyb'}-<logical>`. */
export const tableNamesFromEnv = (env: Record<string, string | undefined> = process.env): TableNames =>
  tableNames(env.TABLE_PREFIX ?? 'pyb', env);

/** The CreateTable request for one definition (on-demand billing). */
export function createTableInput(def: TableDefinition, tableName: string): CreateTableCommandInput {
  const attributes = new Map<string, KeyAttribute>();
  const add = (a: KeyAttribute | undefined) => {
    if (a) attributes.set(a.name, a);
  };
  add(def.partitionKey);
  add(def.sortKey);
  for (const index of [...def.globalIndexes, ...def.localIndexes]) {
    add(index.partitionKey);
    add(index.sortKey);
  }
  const keySchema = (pk: KeyAttribute, sk?: KeyAttribute) => [
    { AttributeName: pk.name, KeyType: 'HASH' as const },
    ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()].map((a) => ({
      AttributeName: a.name,
      AttributeType: a.type,
    })),
    KeySchema: keySchema(def.partitionKey, def.sortKey),
    ...(def.globalIndexes.length > 0 && {
      GlobalSecondaryIndexes: def.globalIndexes.map((i) => ({
        IndexName: i.name,
        KeySchema: keySchema(i.partitionKey, i.sortKey),
        Projection: { ProjectionType: 'ALL' as const },
      })),
    }),
    ...(def.localIndexes.length > 0 && {
      LocalSecondaryIndexes: def.localIndexes.map((i) => ({
        IndexName: i.name,
        KeySchema: keySchema(i.partitionKey, i.sortKey),
        Projection: { ProjectionType: 'ALL' as const },
      })),
    }),
  };
}
