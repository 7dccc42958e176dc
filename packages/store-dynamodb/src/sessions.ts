import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type LaunchRecord, SESSION_HOURS, type SessionRecord, type SessionStore } from '@pyb/core';

/**
 * The sessions table (docs/data-model.md): one item per launch token (`L#<sha256>`), per session
 * (`S#<sessionId>`) and per player revoked (`P#<operatorId>#<playerId>`). Each expires by TTL (`ttl`,
 * epoch seconds) a day after it can matter: a spent launch is remembered past its minute so that a second
 * exchange is told LAUNCH_TOKEN_USED; a revocation outlives every session it can refuse.
 */
const DAY_S = 86_400;
const epoch = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

const launchPk = (tokenHash: string) => `L#${tokenHash}`;
const sessionPk = (sessionId: string) => `S#${sessionId}`;
const playerPk = (operatorId: string, playerId: string) => `P#${operatorId}#${playerId}`;

export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putLaunch(launch: LaunchRecord): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: launchPk(launch.tokenHash), ...launch, ttl: epoch(launch.expiresAt) + DAY_S },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async spendLaunch(tokenHash: string, at: string): Promise<{ launch?: LaunchRecord; spent: boolean }> {
    const Key = { pk: launchPk(tokenHash) };
    try {
      const { Attributes } = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key,
          UpdateExpression: 'SET usedAt = :at',
          // The one exchange: a second (or a racing) one fails this condition.
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
          ExpressionAttributeValues: { ':at': at },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return { launch: toLaunch(Attributes!), spent: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const { Item } = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true }),
      );
      return Item === undefined ? { spent: false } : { launch: toLaunch(Item), spent: false };
    }
  }

  async putSession(session: SessionRecord): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: sessionPk(session.sessionId), ...session, ttl: epoch(session.endsAt) + DAY_S },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: sessionPk(sessionId) }, ConsistentRead: true }),
    );
    return Item === undefined ? undefined : toSession(Item);
  }

  async rotateRefresh(sessionId: string, from: string, to: string, at: string): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: sessionPk(sessionId) },
          UpdateExpression: 'SET refreshHash = :to, refreshedAt = :at',
          ConditionExpression: 'refreshHash = :from AND attribute_not_exists(endedAt)',
          ExpressionAttributeValues: { ':from': from, ':to': to, ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async endSession(
    sessionId: string,
    at: string,
    reason: NonNullable<SessionRecord['endReason']>,
  ): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: sessionPk(sessionId) },
          UpdateExpression: 'SET endedAt = :at, endReason = :reason',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(endedAt)',
          ExpressionAttributeValues: { ':at': at, ':reason': reason },
        }),
      );
    } catch (error) {
      // Ended already (or gone by TTL): the first end stands.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async revokedBefore(operatorId: string, playerId: string): Promise<string | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: playerPk(operatorId, playerId) },
        ConsistentRead: true,
      }),
    );
    return typeof Item?.revokedBefore === 'string' ? Item.revokedBefore : undefined;
  }

  async revokePlayer(operatorId: string, playerId: string, at: string): Promise<string> {
    const ttl = epoch(at) + SESSION_HOURS * 3600 + DAY_S;
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: playerPk(operatorId, playerId) },
          UpdateExpression: 'SET revokedBefore = :at, operatorId = :op, playerId = :player, #ttl = :ttl',
          // Never back: a revocation that arrives late does not undo a later one (ISO instants sort).
          ConditionExpression: 'attribute_not_exists(revokedBefore) OR revokedBefore < :at',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':at': at, ':op': operatorId, ':player': playerId, ':ttl': ttl },
        }),
      );
      return at;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return (await this.revokedBefore(operatorId, playerId)) ?? at;
    }
  }
}

const optional = (item: Record<string, unknown>, ...names: string[]) =>
  Object.fromEntries(names.filter((n) => typeof item[n] === 'string').map((n) => [n, String(item[n])]));

function toLaunch(item: Record<string, unknown>): LaunchRecord {
  return {
    tokenHash: String(item.tokenHash),
    operatorId: String(item.operatorId),
    playerId: String(item.playerId),
    createdAt: String(item.createdAt),
    expiresAt: String(item.expiresAt),
    ...optional(item, 'tableId', 'currency', 'usedAt'),
  };
}

function toSession(item: Record<string, unknown>): SessionRecord {
  return {
    sessionId: String(item.sessionId),
    operatorId: String(item.operatorId),
    playerId: String(item.playerId),
    createdAt: String(item.createdAt),
    endsAt: String(item.endsAt),
    refreshHash: String(item.refreshHash),
    ...optional(item, 'tableId', 'currency', 'refreshedAt', 'endedAt'),
    ...(item.endReason === 'LOGOUT' || item.endReason === 'REFRESH_REUSED'
      ? { endReason: item.endReason }
      : {}),
  };
}
