/**
 * Business metrics the use cases count (the AWS edge publishes them with Powertools Metrics as
 * CloudWatch EMF; locally and in tests they go nowhere unless a test listens).
 */
export type MetricName =
  /** Bet calls accepted (bets, raises, reductions and withdrawals: one per ledger entry). */
  | 'BetCalls'
  /** Positions settled or refunded (inline or by a settlement batch). */
  | 'SettledPositions'
  /** Settlement batches handed to the queue. */
  | 'SettlementBatchesSent'
  /** Tables locked by a key-service or randomness failure (docs/regulators.md, "Lock-out"). */
  | 'TablesLocked'
  /** A round voided, or a shoe closed early, after the beacon round that fixed it was published (D1). */
  | 'DiscardsAfterBeacon'
  /** Seamless credits / rollbacks the operator's wallet acknowledged. */
  | 'SeamlessCredits'
  | 'SeamlessRollbacks'
  /** Seamless deliveries whose outcome was unknown (retried) or refused (a person must look). */
  | 'SeamlessUnknownDeliveries'
  | 'SeamlessRefusedDeliveries'
  /** Seamless txIds the outbox queue did not take (left pending for the reconciliation sweep). */
  | 'SeamlessOutboxSendFailed'
  /** Seamless debits given up (unknown outcome or betting closed): rolled back through the outbox. */
  | 'SeamlessDebitsRolledBack'
  /** Live events the broker did not take (they stay in the feed; the next call on the table publishes them). */
  | 'LivePublishFailed';

export interface Metrics {
  count(name: MetricName, value: number): void;
}

export const noMetrics: Metrics = { count: () => undefined };
