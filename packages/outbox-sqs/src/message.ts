import { SeamlessTxId } from '@pyb/contracts';

/**
 * One SQS message per credit or rollback to deliver: the txId of its seamless transaction record
 * (the record holds the rest). Version-tagged so a consumer can refuse what it does not know.
 */
export const MESSAGE_VERSION = 1;

export const encodeOutboxMessage = (txId: string): string => JSON.stringify({ v: MESSAGE_VERSION, txId });

/**
 * Parses a message body back to its txId; throws on anything else (the message is then dead-lettered,
 * not guessed at). Only credits and rollbacks travel through the outbox: a debit is never re-sent.
 */
export function decodeOutboxMessage(body: string): string {
  const m = JSON.parse(body) as Record<string, unknown>;
  if (m.v !== MESSAGE_VERSION)
    throw new Error(`outbox message version ${String(m.v)} is not ${MESSAGE_VERSION}`);
  const txId = SeamlessTxId.safeParse(m.txId);
  if (txId.success && !txId.data.startsWith('dbt_')) return txId.data;
  throw new Error('not an outbox message (the txId of a credit or a rollback)');
}
