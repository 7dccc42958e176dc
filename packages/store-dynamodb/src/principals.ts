import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Principal, PrincipalStore } from '@pyb/core';

/**
 * API-key principals, keyed by the SHA-256 of the key (the key itself is never stored). One item per
 * key; read once per request (a strongly consistent read is not needed: a new key may take a moment).
 */
export class DynamoPrincipalStore implements PrincipalStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async findPrincipal(keyHash: string): Promise<Principal | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { keyHash } }));
    return Item === undefined ? undefined : toPrincipal(Item);
  }

  async putPrincipal(principal: Principal): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...principal, supervises: [...principal.supervises] },
        ConditionExpression: 'attribute_not_exists(keyHash)',
      }),
    );
  }

  async revokePrincipal(keyHash: string, at: string): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyHash },
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
          ConditionExpression: 'attribute_exists(keyHash)',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false; // unknown key: nothing to revoke
      throw error;
    }
  }
}

function toPrincipal(item: Record<string, unknown>): Principal {
  const principal: Principal = {
    keyHash: String(item.keyHash),
    keyId: String(item.keyId),
    operatorId: String(item.operatorId),
    role: item.role as Principal['role'],
    supervises: Array.isArray(item.supervises) ? item.supervises.map(String) : [],
    label: String(item.label ?? ''),
    createdAt: String(item.createdAt),
  };
  if (typeof item.revokedAt === 'string') principal.revokedAt = item.revokedAt;
  if (item.platform === true) principal.platform = true;
  return principal;
}
