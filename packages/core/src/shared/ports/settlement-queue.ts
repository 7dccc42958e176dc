/**
 * The settlement queue port: positions of a round handed over in batches, to be settled (or
 * refunded) outside the request that dealt the coup. On AWS an SQS queue drained by a Lambda (with a
 * dead-letter queue); locally and in tests an in-process queue running the same batch handler
 * (`Core.runSettlementBatch`). Delivery is at least once: every batch is idempotent (each position's
 * settlement is its own conditional transaction), so a redelivered or re-sent batch pays nothing twice.
 */
import type { BatchKind } from '../model';

export type SettlementBatch =
  /** Settle (kind `settle`) or refund (kind `refund`) these positions of the round; batch n of its plan. */
  | { kind: BatchKind; roundId: string; batch: number; playerIds: readonly string[] }
  /** Collect the deferred commission these players owe for the shoe (it ended). */
  | { kind: 'collect'; shoeId: string; playerIds: readonly string[] };

export interface SettlementQueue {
  /** Hands the batches over; resolves once every one of them is accepted by the queue. */
  send(batches: readonly SettlementBatch[]): Promise<void>;
}
