import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { deliverSeamlessTx } from '@pyb/core/use-cases';
import { decodeOutboxMessage, SqsOutboxQueue } from '@pyb/outbox-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { appContext, startWithDeadline, useCases } from '../../src/context';
import { invocationDeadline } from '../../src/deadline';
import { logger } from '../../src/logger';
import { flushMetrics } from '../../src/metrics';
import { walletsOf } from '../../src/seamless';

/**
 * The seamless outbox's consumer (SQS -> Lambda, ReportBatchItemFailures): each message names one
 * pending credit or rollback (or a stale debit to give up), delivered to the operator's wallet by the
 * core's idempotent `deliverSeamlessTx`. A message not acknowledged yet (the wallet's answer unknown
 * or a refusal, or any error) is reported alone — the others are deleted — after its visibility is set
 * to its backoff (30 s doubling to 1 h: @pyb/outbox-sqs), so SQS hands it back later; after the
 * queue's maxReceiveCount it is dead-lettered (alarmed) and reconciliation names its record.
 * Not an HTTP route: infra/src/seamless.ts deploys it.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event, lambda, options) => {
    const context = appContext();
    // The invocation's time: a delivery that runs out of it stops writing and is reported, so redelivered.
    const deadline = invocationDeadline(lambda, options?.signal);
    const ctx = startWithDeadline(deadline, () =>
      useCases(context, undefined, { wallets: walletsOf(context) }),
    );
    const failed: SQSRecord[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          await deliverSeamlessTx(ctx, decodeOutboxMessage(record.body));
        } catch (error) {
          logger.warn('seamless delivery not acknowledged', {
            messageId: record.messageId,
            receiveCount: record.attributes.ApproximateReceiveCount,
            error: error as Error,
          });
          failed.push(record);
        }
      }),
    );
    deadline.end();
    if (failed.length > 0) await backOff(context.env.OUTBOX_QUEUE_URL ?? '', failed);
    flushMetrics();
    return { batchItemFailures: failed.map((r) => ({ itemIdentifier: r.messageId })) };
  });

let redelivery: SqsOutboxQueue | undefined;

/** Best effort: a message whose visibility could not be set comes back after the queue's own timeout. */
async function backOff(queueUrl: string, records: readonly SQSRecord[]): Promise<void> {
  redelivery ??= new SqsOutboxQueue({ queueUrl });
  try {
    const refused = await redelivery.delayRedelivery(
      records.map((r) => ({
        receiptHandle: r.receiptHandle,
        receiveCount: Number(r.attributes.ApproximateReceiveCount),
      })),
    );
    if (refused > 0) logger.warn('backoff not set on some messages', { refused });
  } catch (error) {
    logger.warn('backoff not set', { error: error as Error });
  }
}
