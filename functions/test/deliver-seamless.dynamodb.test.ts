/**
 * The seamless outbox's Lambda consumer: each message's txId delivered by the core, failures reported
 * per message (ReportBatchItemFailures) and put back with their backoff (ChangeMessageVisibilityBatch,
 * the exact request), a message that is not an outbox message failed the same way (then dead-lettered).
 */
import { ChangeMessageVisibilityBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { encodeOutboxMessage } from '@pyb/outbox-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildContext, setAppContext } from '../src/context';

const delivered = vi.hoisted(() => {
  process.env.LOG_LEVEL = 'SILENT';
  return [] as string[];
});
// The delivery itself is the core's (tested with the reference wallet there): here, how the Lambda
// reports each message. A txId ending in 'unknown' is one the wallet has not acknowledged.
vi.mock('@pyb/core/use-cases', async (original) => ({
  ...(await original<typeof import('@pyb/core/use-cases')>()),
  deliverSeamlessTx: async (_ctx: unknown, txId: string) => {
    delivered.push(txId);
    if (txId.endsWith('unknown')) throw new Error(`seamless ${txId} not acknowledged: status 503`);
    return { txId, state: 'CREDITED', delivered: true };
  },
}));
const sqs = mockClient(SQSClient);
const { handler } = await import('../jobs/deliver-seamless/handler');

const record = (messageId: string, body: string, receiveCount: number): SQSRecord =>
  ({
    messageId,
    body,
    receiptHandle: `rh-${messageId}`,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSRecord;
const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/pyb-test-outbox';
const ENV = { TABLE_PREFIX: 'unused', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', OUTBOX_QUEUE_URL: QUEUE_URL };
const lambdaContext = { awsRequestId: 'req', functionName: 'pyb-test-deliver-seamless' } as Context;

afterEach(() => {
  setAppContext(undefined);
  sqs.reset();
  delivered.length = 0;
});
afterAll(() => sqs.restore());

describe('deliver-seamless handler', () => {
  it('delivers every message, reports only the undelivered ones, each put back after its own backoff', async () => {
    setAppContext(buildContext(ENV));
    sqs.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
    const event: SQSEvent = {
      Records: [
        record('m0', encodeOutboxMessage('crd_0000000000000ok0'), 1),
        record('m1', encodeOutboxMessage('crd_000000000unknown'), 1),
        record('m2', encodeOutboxMessage('rbk_000000000unknown'), 4),
        record('m3', 'not an outbox message', 2),
        record('m4', encodeOutboxMessage('rbk_0000000000000ok4'), 7),
      ],
    };
    const out = await handler(event, lambdaContext);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m1', 'm2', 'm3']);
    expect(delivered.sort()).toEqual([
      'crd_0000000000000ok0',
      'crd_000000000unknown',
      'rbk_0000000000000ok4',
      'rbk_000000000unknown',
    ]);
    const calls = sqs.commandCalls(ChangeMessageVisibilityBatchCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.QueueUrl).toBe(QUEUE_URL);
    expect([...calls[0]!.Entries!].sort((a, b) => a.ReceiptHandle!.localeCompare(b.ReceiptHandle!))).toEqual([
      { Id: expect.any(String), ReceiptHandle: 'rh-m1', VisibilityTimeout: 30 },
      { Id: expect.any(String), ReceiptHandle: 'rh-m2', VisibilityTimeout: 240 },
      { Id: expect.any(String), ReceiptHandle: 'rh-m3', VisibilityTimeout: 60 },
    ]);
  });

  it('all delivered: no failures and no visibility change; SQS refusing the backoff still reports the failure', async () => {
    setAppContext(buildContext(ENV));
    const ok = await handler(
      { Records: [record('a', encodeOutboxMessage('crd_00000000000000aa'), 1)] },
      lambdaContext,
    );
    expect(ok.batchItemFailures).toEqual([]);
    expect(sqs.commandCalls(ChangeMessageVisibilityBatchCommand)).toEqual([]);

    sqs.on(ChangeMessageVisibilityBatchCommand).rejects(new Error('AccessDenied'));
    const failed = await handler(
      { Records: [record('b', encodeOutboxMessage('crd_000000000unknown'), 1)] },
      lambdaContext,
    );
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: 'b' }]);
  });
});
