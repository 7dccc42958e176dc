/** The Store contract (store/contract.ts) on the DynamoDB adapter, against DynamoDB Local. */
import { DynamoStore } from '@pyb/store-dynamodb';
import { createTestTables } from '../support/dynamodb';
import { storeContract } from './contract';

storeContract('DynamoStore', async () => {
  const tables = await createTestTables('contract');
  return { store: new DynamoStore({ tables: tables.names, client: tables.client }), cleanup: tables.drop };
});
