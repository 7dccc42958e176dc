/**
 * Vitest global setup: one in-memory DynamoDB Local for the whole run. Test files get its endpoint
 * with `inject('dynamodbEndpoint')` (or env DYNAMODB_ENDPOINT) and create their own tables under a
 * unique prefix (test/support/dynamodb.ts), so files never see each other's data.
 */
import { startDynamoDbLocal } from '@pyb/store-dynamodb/local';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const local = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', local.endpoint);
  process.env.DYNAMODB_ENDPOINT = local.endpoint;
  return () => local.stop();
}
