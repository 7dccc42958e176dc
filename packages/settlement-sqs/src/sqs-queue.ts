/**
 * The settlement queue on Amazon SQS (a standard queue: at-least-once delivery, which the batches are
 * built for). `send` uses SendMessageBatch (./send-batches); if SQS keeps failing an entry, `send`
 * gives up (the caller's round then waits for resolve to re-send, see the core's fan-out.ts).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SettlementBatch, SettlementQueue } from '@pyb/core';
import { encodeBatch } from './message';
import { sendMessageBatches } from './send-batches';
import { type SqsOnFirstUse, sqsOnFirstUse } from './sqs-client';

export interface SqsSettlementQueueOptions {
  queueUrl: string;
  client?: SQSClient;
}

export class SqsSettlementQueue implements SettlementQueue {
  private readonly sqs: SqsOnFirstUse;
  private readonly queueUrl: string;

  constructor(options: SqsSettlementQueueOptions) {
    this.queueUrl = options.queueUrl;
    this.sqs = sqsOnFirstUse(options.client);
  }

  async send(batches: readonly SettlementBatch[]): Promise<void> {
    // Checked here, not at start: a function that never sends needs no queue.
    if (!this.queueUrl) throw new Error('no settlement queue: SETTLEMENT_QUEUE_URL is not set');
    await sendMessageBatches(this.sqs, this.queueUrl, batches.map(encodeBatch), 'settlement');
  }
}
