import {
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, LOGICAL_TABLES, type LogicalTable, TABLES, type TableNames } from '../tables';

/** Creates the tables (those that already exist are left as they are, so dev data survives). */
export async function createTables(
  client: DynamoDBClient,
  names: TableNames,
  which: readonly LogicalTable[] = LOGICAL_TABLES,
): Promise<void> {
  await Promise.all(
    which.map(async (logical) => {
      const def = TABLES[logical];
      try {
        await client.send(new CreateTableCommand(createTableInput(def, names[logical])));
      } catch (error) {
        if (error instanceof ResourceInUseException) return;
        throw error;
      }
      if (def.ttlAttribute) {
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName: names[logical],
            TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
          }),
        );
      }
    }),
  );
}

export async function deleteTables(
  client: DynamoDBClient,
  names: TableNames,
  which: readonly LogicalTable[] = LOGICAL_TABLES,
): Promise<void> {
  await Promise.all(
    which.map(async (logical) => {
      try {
        await client.send(new DeleteTableCommand({ TableName: names[logical] }));
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
    }),
  );
}
