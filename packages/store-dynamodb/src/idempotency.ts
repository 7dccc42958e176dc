import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '@pyb/core';

/**
 * Idempotency records, one item per (operator, key): `pk` = `<operatorId>#<key>` (operator ids hold
 * no '#', so the scope is unambiguous). Every write is conditional; `expiresAt` is the TTL attribute,
 * and a record past it counts as absent even before DynamoDB's sweeper removes it.
 */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async beginIdempotent(
    record: IdempotencyRecord,
    nowSeconds: number,
  ): Promise<IdempotencyRecord | undefined> {
    const pk = scope(record.operatorId, record.key);
    // The existing record may vanish between the failed put and the read (released): try again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { pk, ...record },
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        );
        return undefined;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      const { Item } = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: { pk }, ConsistentRead: true }),
      );
      if (Item !== undefined) return toRecord(Item);
    }
    throw new Error(`idempotency record ${pk} keeps changing`);
  }

  async takeOverIdempotent(
    operatorId: string,
    key: string,
    expectedToken: string,
    lockToken: string,
    lockedUntil: number,
  ): Promise<boolean> {
    return this.conditional(() =>
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: scope(operatorId, key) },
          UpdateExpression: 'SET lockToken = :token, lockedUntil = :until',
          ConditionExpression: 'lockToken = :expected AND #state = :inFlight',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':token': lockToken,
            ':until': lockedUntil,
            ':expected': expectedToken,
            ':inFlight': 'IN_FLIGHT',
          },
        }),
      ),
    );
  }

  async completeIdempotent(
    operatorId: string,
    key: string,
    lockToken: string,
    response: StoredResponse,
  ): Promise<void> {
    // If the lock was taken over meanwhile, the new holder stores its own (equal) answer.
    await this.conditional(() =>
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: scope(operatorId, key) },
          UpdateExpression: 'SET #state = :done, #response = :response REMOVE lockedUntil',
          ConditionExpression: 'lockToken = :token',
          ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
          ExpressionAttributeValues: { ':done': 'DONE', ':response': response, ':token': lockToken },
        }),
      ),
    );
  }

  async releaseIdempotent(operatorId: string, key: string, lockToken: string): Promise<void> {
    await this.conditional(() =>
      this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: scope(operatorId, key) },
          ConditionExpression: 'lockToken = :token AND #state = :inFlight',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':token': lockToken, ':inFlight': 'IN_FLIGHT' },
        }),
      ),
    );
  }

  private async conditional(send: () => Promise<unknown>): Promise<boolean> {
    try {
      await send();
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

/** The key of an idempotency record (exported: nothing else re-encodes it). */
export const idempotencyScope = (operatorId: string, key: string): string => `${operatorId}#${key}`;
const scope = idempotencyScope;

function toRecord(item: Record<string, unknown>): IdempotencyRecord {
  const record: IdempotencyRecord = {
    operatorId: String(item.operatorId),
    key: String(item.key),
    fingerprint: String(item.fingerprint),
    state: item.state === 'DONE' ? 'DONE' : 'IN_FLIGHT',
    lockToken: String(item.lockToken),
    lockedUntil: Number(item.lockedUntil ?? 0),
    createdAt: String(item.createdAt),
    expiresAt: Number(item.expiresAt),
  };
  if (item.response !== undefined) record.response = item.response as StoredResponse;
  return record;
}
