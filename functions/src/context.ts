import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  type Clock,
  type Core,
  createCore,
  type IdempotencyStore,
  type KeyService,
  type PrincipalStore,
  type Store,
  systemClock,
} from '@pyb/core';
import { createKeyService, keyServiceConfigFromEnv } from '@pyb/keys';
import {
  DynamoIdempotencyStore,
  DynamoPrincipalStore,
  DynamoStore,
  type TableNames,
  tableNamesFromEnv,
} from '@pyb/store-dynamodb';

/**
 * The composition root: every adapter a handler needs, built once per Lambda container (or once per
 * local server) from the environment:
 *   TABLE_PREFIX / TABLE_GAME, TABLE_WALLETS, ...  table names (@pyb/store-dynamodb tableNamesFromEnv)
 *   DYNAMODB_ENDPOINT                                DynamoDB Local (dev, tests); unset on AWS
 *   KEY_SERVICE, SEED_KEY_ID, SIGNING_KEY_ID, LOCAL_KEYS_DIR   the key service (@pyb/keys)
 */
export interface AppContext {
  tables: TableNames;
  doc: DynamoDBDocumentClient;
  store: Store;
  principals: PrincipalStore;
  idempotency: IdempotencyStore;
  keys: KeyService;
  clock: Clock;
  /** The use cases (one instance per container: it caches shoe orders). */
  core: Core;
}

export function buildContext(env: Record<string, string | undefined> = process.env): AppContext {
  const endpoint = env.DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient(
    endpoint
      ? {
          endpoint,
          region: env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {},
  );
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const tables = tableNamesFromEnv(env);
  const store = new DynamoStore({ tables, doc });
  const keys = createKeyService(keyServiceConfigFromEnv(env));
  const clock = systemClock;
  return {
    tables,
    doc,
    store,
    principals: new DynamoPrincipalStore(doc, tables.principals),
    idempotency: new DynamoIdempotencyStore(doc, tables.idempotency),
    keys,
    clock,
    core: createCore({ store, keys, clock }),
  };
}

let current: AppContext | undefined;

/** The container's context (built on first use, so a cold start pays for it once). */
export const appContext = (): AppContext => {
  current ??= buildContext();
  return current;
};

/** The local server and tests install their own context (same handlers, other adapters). */
export function setAppContext(context: AppContext | undefined): void {
  current = context;
}
