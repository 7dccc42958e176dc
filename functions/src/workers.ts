/**
 * Functions that serve no HTTP route and consume a queue (their handlers are under functions/jobs/,
 * like the archiver's). Like routes.ts, each entry declares the least-privilege grants its deployed
 * function gets (infra reads them; nothing else should).
 */
import type { DataTable, KmsOperation, QueueName, TableAccess } from './routes';

export interface Worker {
  /** Names the function; its code is functions/jobs/<handler>/handler.ts (`workerEntry`). */
  handler: string;
  description: string;
  /** The queue whose messages invoke it. */
  consumes: QueueName;
  data: Partial<Record<DataTable, TableAccess>>;
  kms: readonly KmsOperation[];
  /** Queues it sends to (a shoe that ends hands its debt collection to the settlement queue). */
  queues?: readonly QueueName[];
}

export const WORKERS: readonly Worker[] = [
  {
    handler: 'settle-batch',
    description: 'Settlement batches: settles (or refunds) the positions of one batch, finishes the round',
    consumes: 'settlement',
    // Positions and rounds (game), payouts and debts (wallets), ROUND_SETTLED / ROUND_VOIDED appended
    // (audit: also where the signing keys' certificates are). No principals (no caller), no idempotency
    // (each position's settlement is its own record). Sign: the batch that finishes a round signs its
    // head (docs/provably-fair.md), with the statement key.
    data: { game: 'write', wallets: 'write', audit: 'append' },
    kms: ['Sign', 'GetPublicKey'],
    queues: ['settlement'],
  },
];

/** The bundle entry of a worker: its folder under functions/ (as routes.ts names a route's). */
export const workerEntry = (worker: Pick<Worker, 'handler'>): string => `jobs/${worker.handler}`;
