/**
 * Sends message bodies to an SQS queue with SendMessageBatch, ten per request (the API's limit), all
 * requests in parallel. Entries SQS reports failed through no fault of the sender are sent again, a
 * few times, before it gives up (throws); an entry refused as the sender's fault throws at once. Both
 * queues' adapters (settlement, seamless outbox) send this way.
 */
import type { SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import type { SqsOnFirstUse } from './sqs-client';

/** SendMessageBatch takes at most 10 entries. */
export const SQS_BATCH_LIMIT = 10;
const ATTEMPTS = 3;

/** `what` names the messages in errors ("settlement", "outbox"). */
export async function sendMessageBatches(
  sqs: SqsOnFirstUse,
  queueUrl: string,
  bodies: readonly string[],
  what: string,
): Promise<void> {
  const requests: SendMessageBatchRequestEntry[][] = [];
  for (let i = 0; i < bodies.length; i += SQS_BATCH_LIMIT) {
    requests.push(
      bodies.slice(i, i + SQS_BATCH_LIMIT).map((MessageBody, j) => ({ Id: String(i + j), MessageBody })),
    );
  }
  await Promise.all(requests.map((entries) => sendEntries(sqs, queueUrl, entries, what)));
}

async function sendEntries(
  load: SqsOnFirstUse,
  queueUrl: string,
  entries: SendMessageBatchRequestEntry[],
  what: string,
): Promise<void> {
  const { sqs, client } = await load();
  let pending = entries;
  for (let attempt = 1; attempt <= ATTEMPTS && pending.length > 0; attempt++) {
    const out = await client.send(new sqs.SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
    const failed = new Set((out.Failed ?? []).map((f) => f.Id));
    const fatal = (out.Failed ?? []).find((f) => f.SenderFault);
    if (fatal)
      throw new Error(`SQS refused ${what} message ${fatal.Id}: ${fatal.Code} ${fatal.Message ?? ''}`);
    pending = pending.filter((e) => failed.has(e.Id));
  }
  if (pending.length > 0) {
    throw new Error(`SQS did not accept ${pending.length} ${what} message(s) after ${ATTEMPTS} attempts`);
  }
}
