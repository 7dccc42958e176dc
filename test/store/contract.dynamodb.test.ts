/** The Store contract (store/contract.ts) on the DynamoDB adapter, against DynamoDB Local. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoStore } from '@pyb/store-dynamodb';
import { createTestTables } from '../support/dynamodb';
import { storeContract } from './contract';

storeContract('DynamoStore', async () => {
  const tables = await createTestTables('contract');
  const store = new DynamoStore({ tables: tables.names, client: tables.client });
  return {
    store,
    putRaw: async (table, item) => {
      await store.doc.send(new PutCommand({ TableName: tables.names[table], Item: item }));
    },
    cleanup: tables.drop,
  };
});
