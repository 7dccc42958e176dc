import { SeamlessTxId } from '@pyb/contracts';

/**
 * One SQS message per seamless transaction to deliver: its txId (the record holds the rest). Version-tagged so a consumer can refuse what it does not know.
 */
export const MESSAGE_VERSION = 1;

export const encodeOutboxMessage = (txId: string): string => JSON.stringify({ v: MESSAGE_VERSION, txId });

/**
 * Parses a message body back to its txId; throws on anything else (the message is then dead-lettered,
 * not guessed at). Mostly credits and rollbacks; a debit's txId too when a stale DEBIT_PENDING is
 * handed over to be given up (the delivery rolls it back: a debit is never sent again as a debit).
 */
export function decodeOutboxMessage(body: string): string {
  const m = JSON.parse(body) as Record<string, unknown>;
  if (m.v !== MESSAGE_VERSION)
    throw new Error(`outbox message version ${String(m.v)} is not ${MESSAGE_VERSION}`);
  const txId = SeamlessTxId().safeParse(m.txId);
  if (txId.success) return txId.data;
  throw new Error('not an outbox message (the txId of a seamless transaction)');
}
