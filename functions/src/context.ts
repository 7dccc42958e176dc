import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyStore, KeyService, PrincipalStore } from '@pyb/core';
import { createKeyService, keyServiceConfigFromEnv } from '@pyb/keys';
import {
  DynamoIdempotencyStore,
  DynamoPrincipalStore,
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
  principals: PrincipalStore;
  idempotency: IdempotencyStore;
  keys: KeyService;
  clock: { now(): Date };
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
  return {
    tables,
    doc,
    principals: new DynamoPrincipalStore(doc, tables.principals),
    idempotency: new DynamoIdempotencyStore(doc, tables.idempotency),
    keys: createKeyService(keyServiceConfigFromEnv(env)),
    clock: { now: () => new Date() },
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
