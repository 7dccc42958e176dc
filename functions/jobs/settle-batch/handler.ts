import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { runSettlementBatch } from '@pyb/core/use-cases';
import { decodeBatch } from '@pyb/settlement-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { appContext, startWithDeadline, useCases } from '../../src/context';
import { invocationDeadline } from '../../src/deadline';
import { keysOf } from '../../src/keys';
import { publishingTable } from '../../src/live';
import { logger } from '../../src/logger';
import { flushMetrics } from '../../src/metrics';
import { queueOf } from '../../src/queue';
import { seamlessOf } from '../../src/seamless';
import { rotationStamperOf } from '../../src/time-stamps';

/**
 * The settlement queue's consumer (SQS -> Lambda, ReportBatchItemFailures): each message is one batch
 * of positions, run by the core's idempotent batch handler. A failed message is reported alone (the
 * others are deleted), redelivered after the visibility timeout, and dead-lettered after
 * maxReceiveCount attempts (alarmed). Not an HTTP route: infra/src/settlement.ts deploys it.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event, lambda, options) => {
    const context = appContext();
    // The invocation's time: a batch that runs out of it stops writing and is reported, so redelivered.
    const deadline = invocationDeadline(lambda, options?.signal);
    // Keys: the batch that finishes a round signs its head. The queue: a shoe that ends with this
    // batch hands its debt collection to it.
    const ctx = startWithDeadline(deadline, () =>
      useCases(context, keysOf(context), {
        queue: queueOf(context),
        timeStamper: rotationStamperOf(context),
        ...seamlessOf(context),
      }),
    );
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    const tables = new Set<string>();
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          tables.add(await runSettlementBatch(ctx, decodeBatch(record.body)));
        } catch (error) {
          logger.error('settlement batch failed', {
            messageId: record.messageId,
            receiveCount: record.attributes.ApproximateReceiveCount,
            error: error as Error,
          });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    // The batch that finishes a round moves its table (SETTLEMENT_DONE, payouts to their players): its
    // watchers are told now, not at the table's next call. Never fails the batch (live.ts).
    for (const tableId of tables) await publishingTable(context, tableId, undefined);
    deadline.end();
    flushMetrics();
    return { batchItemFailures: failures };
  });
