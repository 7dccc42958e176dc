/** The settlement queue's Lambda consumer: one batch per message, failures reported per message. */
import type { SettlementBatch } from '@pyb/core';
import { encodeBatch } from '@pyb/settlement-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AppContext, buildContext, setAppContext } from '../src/context';

// The logger reads its level when it loads (with the handler): before the imports run. The batch
// handler itself is replaced: this is about how the Lambda reports each message.
const ran = vi.hoisted(() => {
  process.env.LOG_LEVEL = 'SILENT';
  return [] as SettlementBatch[];
});
vi.mock('@pyb/core/use-cases', async (original) => ({
  ...(await original<typeof import('@pyb/core/use-cases')>()),
  runSettlementBatch: async (_ctx: unknown, b: SettlementBatch) => {
    ran.push(b);
    if (b.kind === 'settle' && b.batch === 1) throw new Error('DynamoDB said no');
  },
}));
const { handler } = await import('../jobs/settle-batch/handler');

const record = (messageId: string, body: string): SQSRecord =>
  ({ messageId, body, attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;

const batch = (n: number): SettlementBatch => ({
  kind: 'settle',
  roundId: 'rnd_1',
  batch: n,
  playerIds: [`p${n}`],
});

const lambdaContext = { awsRequestId: 'req', functionName: 'pyb-test-settle-batch' } as Context;

afterEach(() => setAppContext(undefined));

describe('settle-batch handler', () => {
  it('runs every message’s batch and reports only the failed messages (ReportBatchItemFailures)', async () => {
    const context: AppContext = buildContext({
      TABLE_PREFIX: 'unused',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
    });
    context.settlementQueue = { send: async () => undefined };
    setAppContext(context);
    const event: SQSEvent = {
      Records: [
        record('m0', encodeBatch(batch(0))),
        record('m1', encodeBatch(batch(1))),
        record('m2', 'not a batch'),
        record('m3', encodeBatch(batch(3))),
      ],
    };
    const out = await handler(event, lambdaContext);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m1', 'm2']);
    expect(ran.map((b) => (b.kind === 'collect' ? -1 : b.batch)).sort()).toEqual([0, 1, 3]);
  });
});
