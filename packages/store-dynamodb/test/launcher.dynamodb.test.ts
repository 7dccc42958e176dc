import { existsSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import {
  checkJava,
  createTables,
  DynamoDbLocalError,
  deleteTables,
  findDynamoDbLocalJar,
  localClientConfig,
  tableNames,
} from '../src/local';

describe('DynamoDB Local launcher', () => {
  it('finds the jar in the installed amplify-dynamodb-simulator package', () => {
    const { jar, libDir } = findDynamoDbLocalJar();
    expect(jar).toMatch(/amplify-dynamodb-simulator.*emulator.DynamoDBLocal\.jar$/);
    expect(existsSync(jar)).toBe(true);
    expect(existsSync(libDir)).toBe(true);
  });

  it('says to install Java 17 when there is no Java', () => {
    expect(() => checkJava('/nonexistent/bin/java')).toThrow(DynamoDbLocalError);
    expect(() => checkJava('/nonexistent/bin/java')).toThrow(/install a Java 17/);
  });

  it('names tables from a prefix, env vars winning', () => {
    expect(tableNames('dev')).toMatchObject({ game: 'dev-game', wallets: 'dev-wallets', audit: 'dev-audit' });
    expect(tableNames('dev', { TABLE_WALLETS: 'prod-wallets-x' }).wallets).toBe('prod-wallets-x');
  });

  it('creates every table with its keys and indexes on the running DynamoDB Local', async () => {
    const client = new DynamoDBClient(localClientConfig(inject('dynamodbEndpoint')));
    const names = tableNames(`launcher-${Date.now()}`);
    try {
      await createTables(client, names);
      await createTables(client, names); // idempotent (dev keeps its data)
      const wallets = await client.send(new DescribeTableCommand({ TableName: names.wallets }));
      // No index on wallets: ledger entries sort by their own key (L#<seq>).
      expect(wallets.Table?.LocalSecondaryIndexes).toBeUndefined();
      expect(wallets.Table?.KeySchema?.map((k) => k.AttributeName)).toEqual(['pk', 'sk']);
      const game = await client.send(new DescribeTableCommand({ TableName: names.game }));
      expect(game.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(['gsi1']);
      const principals = await client.send(new DescribeTableCommand({ TableName: names.principals }));
      expect(principals.Table?.KeySchema).toEqual([{ AttributeName: 'keyHash', KeyType: 'HASH' }]);
    } finally {
      await deleteTables(client, names);
      client.destroy();
    }
  });
});
