/**
 * Per-file DynamoDB fixtures on the run's DynamoDB Local (test/setup/dynamodb.ts): a unique table
 * prefix per call, so test files (and tests) never see each other's items.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { CoreDeps } from '@pyb/core';
import { DynamoStore } from '@pyb/store-dynamodb';
import type { Item } from '@pyb/store-dynamodb/layout';
import {
  createTables,
  deleteTables,
  localClientConfig,
  type TableNames,
  tableNames,
} from '@pyb/store-dynamodb/local';
import { inject } from 'vitest';
import type { RawItems, TestStack } from './stack';

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

/** Raw item access on the tables (as someone with write access to them). */
export function rawItems(tables: TestTables): RawItems {
  const doc = DynamoDBDocumentClient.from(tables.client);
  return {
    get: async (table, Key) =>
      (await doc.send(new GetCommand({ TableName: tables.names[table], Key, ConsistentRead: true }))).Item as
        | Item
        | undefined,
    put: async (table, Item) => {
      await doc.send(new PutCommand({ TableName: tables.names[table], Item }));
    },
    delete: async (table, Key) => {
      await doc.send(new DeleteCommand({ TableName: tables.names[table], Key }));
    },
    partition: async (table, pk) => {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const out = await doc.send(
          new QueryCommand({
            TableName: tables.names[table],
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk },
            ConsistentRead: true,
            ...(start && { ExclusiveStartKey: start }),
          }),
        );
        items.push(...((out.Items as Item[]) ?? []));
        start = out.LastEvaluatedKey as Item | undefined;
      } while (start);
      return items;
    },
  };
}

/** Tables + a DynamoStore on them + raw access (test/support/stack.ts picks it for PYB_STORE=dynamodb). */
export async function dynamoStack(label: string) {
  const tables = await createTestTables(label);
  return {
    store: new DynamoStore({ tables: tables.names, client: tables.client }),
    raw: rawItems(tables),
    tables,
    drop: () => tables.drop(),
  };
}

/** For tests about DynamoDB itself (streams, raw items): the use cases on DynamoDB Local, whatever PYB_STORE says. */
export async function createDynamoTestStack(
  label = 'it',
  deps: Partial<CoreDeps> = {},
): Promise<TestStack & { tables: TestTables }> {
  const { createTestStack } = await import('./stack');
  return (await createTestStack(label, deps, 'dynamodb')) as TestStack & { tables: TestTables };
}
