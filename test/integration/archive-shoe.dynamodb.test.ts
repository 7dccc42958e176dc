/**
 * The archiver end to end on DynamoDB Local: a shoe played and closed, its item read back exactly as
 * the game table's stream carries it (DynamoDB typed JSON), handed to the deployed handler's logic
 * with the local write-once archive. The archived bundle is the regulator's export and verifies
 * offline; duplicates are idempotent; an item altered after archiving is refused, not overwritten.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { LocalAuditArchive } from '@pyb/archive';
import { archiveKey } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { canonicalJson, verifyShoe } from '@pyb/fairness';
import { archiveStreamHandler } from '@pyb/functions/archive-stream';
import { logger } from '@pyb/functions/logger';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { createDynamoTestStack } from '../support/dynamodb';
import { playShoe } from '../support/game';
import { stepsInOrder } from '../support/order';

// The file's tests are the steps of one story, each using what the ones before it made (docs/testing.md, "Order and load").
stepsInOrder();

let stack: Awaited<ReturnType<typeof createDynamoTestStack>>;
let dir: string;
beforeAll(async () => {
  logger.setLogLevel('SILENT');
  stack = await createDynamoTestStack('archive');
  dir = mkdtempSync(join(tmpdir(), 'pyb-archive-it-'));
});
afterAll(async () => {
  await stack?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date('2026-12-01T12:00:00.000Z');
const RETENTION_DAYS = 3653;

const handler = (archive = new LocalAuditArchive(dir)) =>
  archiveStreamHandler(() => ({
    exportAudit: (actor, input) => stack.core.exportAudit(actor, input),
    archive,
    now: () => NOW,
    retentionDays: RETENTION_DAYS,
  }));

let sequence = 100;
/** The stream record DynamoDB emits for the item's current state (NEW_IMAGE view). */
async function streamRecord(shoeId: string): Promise<DynamoDBRecord> {
  const { Item } = await stack.tables.client.send(
    new GetItemCommand({
      TableName: stack.tables.names.game,
      Key: { pk: { S: `SHOE#${shoeId}` }, sk: { S: 'SHOE' } },
      ConsistentRead: true,
    }),
  );
  return {
    eventID: `e-${sequence}`,
    eventName: 'MODIFY',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: { pk: { S: `SHOE#${shoeId}` }, sk: { S: 'SHOE' } },
      NewImage: Item as never,
      SequenceNumber: String(sequence++),
      StreamViewType: 'NEW_IMAGE',
    },
  };
}
const event = (...Records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records });

async function closedShoe(name: string, rounds: number) {
  const { core } = stack;
  const table = await core.createTable(admin(), { name, variant: 'mini', config: { pairBets: true } });
  for (const playerId of ['ana', 'ben']) {
    await core.walletTransaction(operator(), {
      playerId,
      type: 'CREDIT',
      amount: 1_000_000,
      currency: 'EUR',
      idempotencyKey: `${name}-${playerId}`,
    });
  }
  const shoe = await core.openShoe(admin(), { tableId: table.tableId });
  if (rounds > 0) {
    await playShoe({
      core,
      actor: operator(),
      tableId: table.tableId,
      players: ['ana', 'ben'],
      config: tablePreset('mini', { pairBets: true }),
      seed: name,
      maxRounds: rounds,
    });
  }
  await core.closeShoe(admin(), { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
  return shoe.shoeId;
}

describe('archiver (DynamoDB stream -> write-once archive)', () => {
  let shoeId: string;
  let path: string;

  it('archives a closed shoe: the regulator’s export, in canonical JSON, that verifies offline', async () => {
    shoeId = await closedShoe('archive-1', 4);
    const result = await handler()(event(await streamRecord(shoeId)));
    expect(result).toEqual({ batchItemFailures: [] });

    path = new LocalAuditArchive(dir).path(archiveKey('op-1', shoeId));
    const stored = readFileSync(path, 'utf8');
    const exported = await stack.core.exportAudit(regulator('op-1'), { shoeId });
    expect(stored).toBe(canonicalJson(exported));
    const bundle = JSON.parse(stored);
    expect(bundle.rounds).toHaveLength(4);
    const pem = (await stack.keys.publicKey()).pem;
    const verified = await verifyShoe(bundle, {
      trustedPublicKey: [pem],
      trustedBeacons: [bundle.statement.beacon],
      trustedTimeStampAuthorities: [stack.timeStamps.pem],
    });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.verdict).toBe('verified');

    const meta = JSON.parse(readFileSync(`${path}.meta.json`, 'utf8'));
    expect(meta.retainUntil).toBe(new Date(NOW.getTime() + RETENTION_DAYS * 86_400_000).toISOString());
    expect(meta.metadata).toMatchObject({ 'operator-id': 'op-1', 'shoe-id': shoeId, format: bundle.format });
  });

  it('is idempotent: the same record again (a retry, a duplicate) leaves the one object as it was', async () => {
    const before = readFileSync(path, 'utf8');
    const result = await handler()(event(await streamRecord(shoeId), await streamRecord(shoeId)));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('a shoe altered after it was archived is refused (ARCHIVE_MISMATCH), reported for retry and the DLQ', async () => {
    const before = readFileSync(path, 'utf8');
    // Someone with write access edits the closed shoe's revealed cut index in storage.
    await stack.tables.client.send(
      new UpdateItemCommand({
        TableName: stack.tables.names.game,
        Key: { pk: { S: `SHOE#${shoeId}` }, sk: { S: 'SHOE' } },
        UpdateExpression: 'SET cutIndex = cutIndex + :one',
        ExpressionAttributeValues: { ':one': { N: '1' } },
      }),
    );
    const record = await streamRecord(shoeId);
    const result = await handler()(event(record));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber }] });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('stops at the first failing record, so Lambda retries from it; later records wait', async () => {
    const next = await closedShoe('archive-2', 2);
    const failing: LocalAuditArchive = Object.assign(new LocalAuditArchive(dir), {
      putOnce: async () => {
        throw new Error('S3 unavailable');
      },
    });
    const first = await streamRecord(next);
    const second = await streamRecord(next);
    const result = await handler(failing)(event(first, second));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: first.dynamodb!.SequenceNumber }]);
    // Once S3 is back, the retry archives it.
    expect(await handler()(event(first, second))).toEqual({ batchItemFailures: [] });
    expect(
      JSON.parse(readFileSync(new LocalAuditArchive(dir).path(archiveKey('op-1', next)), 'utf8')).rounds,
    ).toHaveLength(2);
  });

  it('skips what is not a closed shoe, and a shoe closed before any round (nothing to verify)', async () => {
    const empty = await closedShoe('archive-3', 0);
    const open = await streamRecord(empty);
    const notClosed = {
      ...open,
      dynamodb: { ...open.dynamodb, NewImage: { ...open.dynamodb!.NewImage, status: { S: 'OPEN' } } },
    } as DynamoDBRecord;
    const result = await handler()(event(notClosed, await streamRecord(empty)));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(() => readFileSync(new LocalAuditArchive(dir).path(archiveKey('op-1', empty)))).toThrow(/ENOENT/);
  });
});
