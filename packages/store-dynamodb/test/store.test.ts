import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DomainError, TransactionCanceled, type WalletRecord } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTables, deleteTables, localClientConfig, tableNames } from '../src/local';
import { DynamoStore } from '../src/store';

const client = new DynamoDBClient(localClientConfig(inject('dynamodbEndpoint')));
const names = tableNames(`store-${Date.now()}`);
const store = new DynamoStore({ tables: names, client });
beforeAll(() => createTables(client, names, ['game', 'wallets', 'audit']));
afterAll(async () => {
  await deleteTables(client, names, ['game', 'wallets', 'audit']);
  client.destroy();
});

const wallet = (playerId: string, balance: number): WalletRecord => ({
  operatorId: 'op',
  playerId,
  currency: 'EUR',
  balance,
  owed: 0,
  reserved: 0,
  available: balance,
  seq: 1,
  head: 'h',
  createdAt: 't',
  updatedAt: 't',
});

const canceled = async (p: Promise<unknown>): Promise<TransactionCanceled> => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransactionCanceled);
  return error as TransactionCanceled;
};

describe('DynamoStore', () => {
  it('never overwrites with a put, and says which operation of a transaction failed', async () => {
    const key = { operatorId: 'op', playerId: 'a' };
    await store.transact([{ kind: 'put', entity: 'wallet', key, item: wallet('a', 100) }]);
    const again = await canceled(
      store.transact([{ kind: 'put', entity: 'wallet', key, item: wallet('a', 999) }]),
    );
    expect(again.reasons).toEqual(['CONDITION']);
    const tx = await canceled(
      store.transact([
        { kind: 'put', entity: 'wallet', key: { operatorId: 'op', playerId: 'b' }, item: wallet('b', 5) },
        { kind: 'update', entity: 'wallet', key, set: { balance: 0 }, expect: { seq: 2 } },
      ]),
    );
    expect(tx.reasons).toEqual([undefined, 'CONDITION']);
    // All or nothing: the first put did not happen either.
    expect(await store.get('wallet', { operatorId: 'op', playerId: 'b' })).toBeUndefined();
    expect((await store.get('wallet', key))?.balance).toBe(100);
  });

  it('translates conditions on nested paths, comparisons, membership, absence; adds and appends', async () => {
    const key = { operatorId: 'op', playerId: 'c' };
    await store.transact([{ kind: 'put', entity: 'wallet', key, item: wallet('c', 10) }]);
    const update = (expect: Record<string, unknown>) =>
      store.transact([
        {
          kind: 'update',
          entity: 'wallet',
          key,
          add: { balance: 5, 'nested.count': 1 },
          set: { nested: undefined, updatedAt: 'u' },
          expect: expect as never,
        },
      ]);
    await store.transact([{ kind: 'update', entity: 'wallet', key, set: { nested: { count: 0 } } }]);
    await canceled(update({ balance: { gte: 11 } }));
    await canceled(update({ currency: { in: ['USD', 'GBP'] } }));
    await canceled(update({ 'nested.count': null }));
    await update({
      balance: { lt: 11 },
      currency: { in: ['EUR'] },
      'nested.count': 'exists',
      owed: 0,
      missing: null,
    });
    const read = (await store.get('wallet', key)) as WalletRecord & { nested: { count: number } };
    expect([read.balance, read.nested.count, read.updatedAt]).toEqual([15, 1, 'u']);
    // An update never creates an item unless asked to.
    expect(
      (
        await canceled(
          store.transact([
            {
              kind: 'update',
              entity: 'wallet',
              key: { operatorId: 'op', playerId: 'zz' },
              set: { balance: 1 },
            },
          ]),
        )
      ).reasons,
    ).toEqual(['CONDITION']);
  });

  it('pages a ledger with cursors that only work for their own wallet', async () => {
    const key = { operatorId: 'op', playerId: 'd' };
    for (let seq = 1; seq <= 5; seq++) {
      await store.transact([
        {
          kind: 'put',
          entity: 'ledger',
          key: { ...key, key: `c:${seq}` },
          item: { ...key, seq, key: `c:${seq}`, kind: 'CREDIT', amount: 1 } as never,
        },
      ]);
    }
    const first = await store.listLedger('op', 'd', { limit: 2, order: 'desc' });
    expect(first.items.map((e) => e.seq)).toEqual([5, 4]);
    const second = await store.listLedger('op', 'd', { limit: 10, order: 'desc', cursor: first.cursor! });
    expect(second.items.map((e) => e.seq)).toEqual([3, 2, 1]);
    await expect(
      store.listLedger('op', 'other', { limit: 2, order: 'desc', cursor: first.cursor! }),
    ).rejects.toBeInstanceOf(DomainError);
    await expect(
      store.listLedger('op', 'd', { limit: 2, order: 'desc', cursor: 'garbage' }),
    ).rejects.toMatchObject({ code: 'CURSOR_INVALID' });
  });
});
