import type { OutboxQueue } from '@pyb/core';
import { SqsOutboxQueue } from '@pyb/outbox-sqs';
import type { AppContext } from './context';

/**
 * The seamless outbox of the container, built on first use from the context's environment: SQS
 * (`OUTBOX_QUEUE_URL`) in Lambda, delivered by the deliver-seamless function. Only the functions that
 * hand credits and rollbacks over import this module, so only their bundles hold the SQS client.
 */
export function outboxOf(context: AppContext): OutboxQueue {
  if (context.outbox) return context.outbox;
  context.outbox = new SqsOutboxQueue({ queueUrl: context.env.OUTBOX_QUEUE_URL ?? '' });
  return context.outbox;
}
