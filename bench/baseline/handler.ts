/**
 * The yardstick of bench/bundles.ts: a trivial handler that imports only the DynamoDB client (and the
 * document client) and reads one item. Every function's bundle import time is compared with this one's.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pk?: string }) => {
  const out = await doc.send(
    new GetCommand({ TableName: process.env.TABLE_GAME ?? 'game', Key: { pk: event.pk ?? 'x', sk: 'x' } }),
  );
  return { statusCode: 200, body: JSON.stringify(out.Item ?? null) };
};
