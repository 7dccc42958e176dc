import { InProcessSettlementQueue, type SettlementQueue } from '@pyb/core';
import { runSettlementBatch } from '@pyb/core/use-cases';
import { SqsSettlementQueue } from '@pyb/settlement-sqs';
import { type AppContext, useCases } from './context';
import { keysOf } from './keys';
import { publishingTable } from './live';

/**
 * The settlement queue of the container, built on first use from the context's environment: SQS
 * (`SETTLEMENT_QUEUE_URL`) in Lambda — a batch left in a frozen container would never run — else an
 * in-process queue running the same batch handler the settle-batch Lambda runs (dev, tests). Only the
 * functions that hand settlement over (resolve, void, the settle function itself) import this module,
 * so only their bundles hold the SQS client.
 */
export function queueOf(context: AppContext): SettlementQueue {
  if (context.settlementQueue) return context.settlementQueue;
  const url = context.env.SETTLEMENT_QUEUE_URL;
  // A Lambda bundle holds no in-process queue (infra/src/esbuild-options.ts, LAMBDA_BUNDLE_DEFINE).
  if (process.env.PYB_LAMBDA_BUNDLE === '1' || url || context.env.AWS_LAMBDA_FUNCTION_NAME) {
    context.settlementQueue = new SqsSettlementQueue({ queueUrl: url ?? '' });
  } else {
    const local = new InProcessSettlementQueue();
    context.settlementQueue = local;
    // As the settle-batch Lambda does: the table's watchers told once the batch landed.
    local.attach(async (batch) => {
      const tableId = await runSettlementBatch(useCases(context, keysOf(context), { queue: local }), batch);
      await publishingTable(context, tableId, undefined);
    });
  }
  return context.settlementQueue;
}
