import { InProcessOutboxQueue, type OutboxQueue } from '@pyb/core';
import { deliverSeamlessTx } from '@pyb/core/use-cases';
import { SqsOutboxQueue } from '@pyb/outbox-sqs';
import { type AppContext, useCases } from './context';
import { walletsOf } from './wallets';

/**
 * The seamless outbox of the container, built on first use from the context's environment: SQS
 * (`OUTBOX_QUEUE_URL`) in Lambda — delivered by the deliver-seamless function — else an in-process
 * queue running the same delivery (dev, tests). Only the functions that hand credits and rollbacks
 * over import this module, so only their bundles hold the SQS client.
 */
export function outboxOf(context: AppContext): OutboxQueue {
  if (context.outbox) return context.outbox;
  const url = context.env.OUTBOX_QUEUE_URL;
  if (url || context.env.AWS_LAMBDA_FUNCTION_NAME) {
    context.outbox = new SqsOutboxQueue({ queueUrl: url ?? '' });
  } else {
    const local = new InProcessOutboxQueue();
    context.outbox = local;
    local.attach(async (txId) => {
      await deliverSeamlessTx(
        useCases(context, undefined, { wallets: walletsOf(context), outbox: local }),
        txId,
      );
    });
  }
  return context.outbox;
}
