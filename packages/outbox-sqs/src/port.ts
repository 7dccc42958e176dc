/** Core's OutboxQueue port (packages/core/src/ports/outbox-queue.ts on branch i15-core). */
export interface OutboxQueue {
  send(txIds: readonly string[]): Promise<void>;
}
