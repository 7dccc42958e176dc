/**
 * The outbox queue port: pending seamless credits and rollbacks (SeamlessTxRecord in CREDIT_PENDING or
 * ROLLBACK_PENDING), named by txId, to be delivered to the operator's wallet outside the request that
 * wrote them. The record is written first, in the transaction that settles / refunds the position or
 * gives up a debit (the outbox); the queue only carries its txId. On AWS an SQS queue drained by a
 * Lambda (backoff by visibility timeout, a DLQ and an alarm after maxReceiveCount); locally and in the
 * tests the in-process queue. Each message is handled by `Core.deliverSeamlessTx`: idempotent (a
 * delivered record is left alone), and it throws while the wallet's answer is unknown, so the queue
 * delivers it again.
 */
export interface OutboxQueue {
  /** Hands the txIds over; resolves once every one of them is accepted by the queue. */
  send(txIds: readonly string[]): Promise<void>;
}
