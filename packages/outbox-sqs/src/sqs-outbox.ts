/**
 * The seamless-wallet outbox on Amazon SQS (a standard queue: at-least-once delivery; every credit and
 * rollback carries its stable txId, which the operator's wallet applies once). `send` hands the
 * transactions to deliver to the queue (SendMessageBatch, @pyb/settlement-sqs `sendMessageBatches`);
 * `delayRedelivery` is the backoff: the delivery function gives each message it could not deliver a
 * visibility timeout that grows with its receive count, so SQS hands it back later, and after the
 * queue's maxReceiveCount moves it to the dead-letter queue (infra/src/seamless.ts).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { OutboxQueue } from '@pyb/core';
import { type SqsOnFirstUse, sendMessageBatches, sqsOnFirstUse } from '@pyb/settlement-sqs';
import { encodeOutboxMessage } from './message';

/** The first redelivery waits this long; each next one twice as long, up to REDELIVERY_MAX_SECONDS. */
export const REDELIVERY_BASE_SECONDS = 30;
export const REDELIVERY_MAX_SECONDS = 3600;

/** The wait before the next delivery of a message received `receiveCount` times (1, 2, …). */
export function redeliveryDelaySeconds(receiveCount: number): number {
  const n = Math.max(1, Math.floor(receiveCount) || 1);
  return Math.min(REDELIVERY_BASE_SECONDS * 2 ** Math.min(n - 1, 20), REDELIVERY_MAX_SECONDS);
}

export interface SqsOutboxQueueOptions {
  queueUrl: string;
  client?: SQSClient;
}

/** A message the delivery function could not deliver: put back after its backoff. */
export interface Undelivered {
  receiptHandle: string;
  /** ApproximateReceiveCount of the record (1 on its first delivery). */
  receiveCount: number;
}

export class SqsOutboxQueue implements OutboxQueue {
  private readonly sqs: SqsOnFirstUse;
  private readonly queueUrl: string;

  constructor(options: SqsOutboxQueueOptions) {
    this.queueUrl = options.queueUrl;
    this.sqs = sqsOnFirstUse(options.client);
  }

  async send(txIds: readonly string[]): Promise<void> {
    // Checked here, not at start: a function that never sends needs no queue.
    if (!this.queueUrl) throw new Error('no outbox queue: OUTBOX_QUEUE_URL is not set');
    const bodies = txIds.map((txId) => encodeOutboxMessage(txId));
    await sendMessageBatches(this.sqs, this.queueUrl, bodies, 'outbox');
  }

  /**
   * Sets each undelivered message's visibility to its backoff (one ChangeMessageVisibilityBatch per ten).
   * Best effort by design: a message whose change fails is still redelivered, after the queue's own
   * visibility timeout. Returns how many changes SQS refused.
   */
  async delayRedelivery(messages: readonly Undelivered[]): Promise<number> {
    let refused = 0;
    const { sqs, client } = await this.sqs();
    for (let i = 0; i < messages.length; i += 10) {
      const out = await client.send(
        new sqs.ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: messages.slice(i, i + 10).map((m, j) => ({
            Id: String(i + j),
            ReceiptHandle: m.receiptHandle,
            VisibilityTimeout: redeliveryDelaySeconds(m.receiveCount),
          })),
        }),
      );
      refused += out.Failed?.length ?? 0;
    }
    return refused;
  }
}
