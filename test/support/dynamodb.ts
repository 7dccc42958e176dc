/**
 * Per-file DynamoDB fixtures on the run's DynamoDB Local (test/setup/dynamodb.ts): a unique table
 * prefix per call, so test files (and tests) never see each other's items.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Core, type CoreDeps, createCore, type Store } from '@pyb/core';
import { LocalKeyService } from '@pyb/keys';
import { DynamoStore } from '@pyb/store-dynamodb';
import {
  createTables,
  deleteTables,
  localClientConfig,
  type TableNames,
  tableNames,
} from '@pyb/store-dynamodb/local';
import { inject } from 'vitest';

export function dynamodbEndpoint(): string {
  const endpoint = inject('dynamodbEndpoint') ?? process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('DynamoDB Local is not running (vitest globalSetup test/setup/dynamodb.ts)');
  return endpoint;
}

export interface TestTables {
  names: TableNames;
  client: DynamoDBClient;
  drop(): Promise<void>;
}

/** A fresh set of tables under a unique prefix. */
export async function createTestTables(label = 'it'): Promise<TestTables> {
  const client = new DynamoDBClient(localClientConfig(dynamodbEndpoint()));
  const names = tableNames(`${label}-${randomBytes(4).toString('hex')}`);
  await createTables(client, names);
  return {
    names,
    client,
    drop: async () => {
      await deleteTables(client, names);
      client.destroy();
    },
  };
}

export interface TestStack {
  tables: TestTables;
  store: DynamoStore;
  keys: LocalKeyService;
  keysDir: string;
  /** The use cases on this stack; `core(wrap)` builds another instance over a wrapped store. */
  core: Core;
  coreWith(overrides: Partial<CoreDeps> & { store?: Store }): Core;
  cleanup(): Promise<void>;
}

/** Tables + a DynamoStore + a LocalKeyService in a temp key folder + the use cases. */
export async function createTestStack(label = 'it', deps: Partial<CoreDeps> = {}): Promise<TestStack> {
  const tables = await createTestTables(label);
  const store = new DynamoStore({ tables: tables.names, client: tables.client });
  const keysDir = mkdtempSync(join(tmpdir(), 'pyb-keys-'));
  const keys = new LocalKeyService({ dir: keysDir, env: {} });
  const coreWith = (overrides: Partial<CoreDeps>) => createCore({ store, keys, ...deps, ...overrides });
  return {
    tables,
    store,
    keys,
    keysDir,
    core: coreWith({}),
    coreWith,
    cleanup: async () => {
      await tables.drop();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}
