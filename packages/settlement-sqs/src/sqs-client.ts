/**
 * The SQS client and its commands, loaded with `import()` on first use, for both queues' adapters
 * (settlement, seamless outbox): a function that may hand work to a queue — a bet that could owe a
 * seamless credit, a resolve that could fan out — then neither parses nor evaluates the client at a
 * cold start's import, only when it first sends (docs/benchmarks.md, "Lambda bundles").
 */
import type { SQSClient } from '@aws-sdk/client-sqs';

export type Sqs = typeof import('@aws-sdk/client-sqs');
export type SqsOnFirstUse = () => Promise<{ sqs: Sqs; client: SQSClient }>;

/** `client`: one made already (tests mock it); else one is made on first use. A failed load is not kept. */
export function sqsOnFirstUse(client?: SQSClient): SqsOnFirstUse {
  let loaded: ReturnType<SqsOnFirstUse> | undefined;
  return () => {
    loaded ??= import('@aws-sdk/client-sqs').then(
      (sqs) => ({ sqs, client: client ?? new sqs.SQSClient({}) }),
      (error: unknown) => {
        loaded = undefined;
        throw error;
      },
    );
    return loaded;
  };
}
