/**
 * The settlement queue on Amazon SQS (a standard queue: at-least-once delivery, which the batches are
 * built for). `send` uses SendMessageBatch, ten messages per request (the API's limit); entries SQS
 * reports as failed are sent again, a few times, before `send` gives up (the caller's round then
 * waits for resolve to re-send, see the core's fan-out.ts).
 */
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, SQSClient } from '@aws-sdk/client-sqs';
import type { SettlementBatch, SettlementQueue } from '@pyb/core';
import { encodeBatch } from './message';

/** SendMessageBatch takes at most 10 entries. */
export const SQS_BATCH_LIMIT = 10;
const ATTEMPTS = 3;

export interface SqsSettlementQueueOptions {
  queueUrl: string;
  client?: SQSClient;
}

export class SqsSettlementQueue implements SettlementQueue {
  private readonly client: SQSClient;
  private readonly queueUrl: string;

  constructor(options: SqsSettlementQueueOptions) {
    this.queueUrl = options.queueUrl;
    this.client = options.client ?? new SQSClient({});
  }

  async send(batches: readonly SettlementBatch[]): Promise<void> {
    // Checked here, not at start: a function that never sends needs no queue.
    if (!this.queueUrl) throw new Error('no settlement queue: SETTLEMENT_QUEUE_URL is not set');
    const requests: SendMessageBatchRequestEntry[][] = [];
    for (let i = 0; i < batches.length; i += SQS_BATCH_LIMIT) {
      requests.push(
        batches
          .slice(i, i + SQS_BATCH_LIMIT)
          .map((batch, j) => ({ Id: String(i + j), MessageBody: encodeBatch(batch) })),
      );
    }
    await Promise.all(requests.map((entries) => this.sendEntries(entries)));
  }

  private async sendEntries(entries: SendMessageBatchRequestEntry[]): Promise<void> {
    let pending = entries;
    for (let attempt = 1; attempt <= ATTEMPTS && pending.length > 0; attempt++) {
      const out = await this.client.send(
        new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: pending }),
      );
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      const fatal = (out.Failed ?? []).find((f) => f.SenderFault);
      if (fatal)
        throw new Error(`SQS refused settlement message ${fatal.Id}: ${fatal.Code} ${fatal.Message ?? ''}`);
      pending = pending.filter((e) => failed.has(e.Id));
    }
    if (pending.length > 0) {
      throw new Error(
        `SQS did not accept ${pending.length} settlement message(s) after ${ATTEMPTS} attempts`,
      );
    }
  }
}
