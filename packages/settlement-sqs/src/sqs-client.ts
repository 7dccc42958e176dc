/**
 * The SQS client and its commands, loaded on first use (`onFirstUse`), for both queues' adapters
 * (settlement, seamless outbox): a function that may hand work to a queue — a bet that could owe a
 * seamless credit, a resolve that could fan out — then neither parses nor evaluates the client at a
 * cold start's import, only when it first sends (docs/architecture.md, "What a function loads").
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { onFirstUse } from '@pyb/core';

export type Sqs = typeof import('@aws-sdk/client-sqs');
export type SqsOnFirstUse = () => Promise<{ sqs: Sqs; client: SQSClient }>;

/** `client`: one made already (tests mock it); else one is made on first use. */
export const sqsOnFirstUse = (client?: SQSClient): SqsOnFirstUse =>
  onFirstUse(async () => {
    const sqs = await import('@aws-sdk/client-sqs');
    return { sqs, client: client ?? new sqs.SQSClient({}) };
  });
