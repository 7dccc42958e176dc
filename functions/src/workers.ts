/**
 * Functions that serve no HTTP route: they consume a queue, or run on a schedule (their handlers are
 * under functions/jobs/, like the archiver's). Like routes.ts, each entry declares the least-privilege
 * grants its deployed function gets (infra reads them; nothing else should).
 */
import type { DataTable, KmsOperation, QueueName, TableAccess } from './routes';

export interface Worker {
  /** Names the function; its code is functions/jobs/<handler>/handler.ts (`workerEntry`). */
  handler: string;
  description: string;
  /** The queue whose messages invoke it; absent: EventBridge Scheduler invokes it (infra's schedules). */
  consumes?: QueueName;
  data: Partial<Record<DataTable, TableAccess>>;
  kms: readonly KmsOperation[];
  /** Queues it sends to (a shoe that ends hands its debt collection to the settlement queue). */
  queues?: readonly QueueName[];
  /** Calls seamless operators' wallets: reads their signing secrets (routes.ts, `operatorWallets`). */
  operatorWallets?: true;
  /** How long one invocation may run, when not the default (infra/src/route-function.ts). */
  timeoutSeconds?: number;
  /** Starts cadence rounds (routes.ts, `cadence`). */
  cadence?: true;
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
    // Settlement batches it hands on (a shoe's debt collection); seamless credits to the outbox.
    queues: ['settlement', 'outbox'],
  },
  {
    handler: 'deliver-seamless',
    description: 'Seamless-wallet outbox: delivers credits and rollbacks to operators until acknowledged',
    consumes: 'outbox',
    // The seamless transaction records it reads and moves to their final state (game); it calls the
    // operator's wallet (its secret). Redelivery with backoff is the queue's (ChangeMessageVisibility,
    // granted with the consumption).
    data: { game: 'write' },
    kms: [],
    operatorWallets: true,
  },
  {
    handler: 'reconcile-seamless',
    description:
      "Daily seamless reconciliation of one operator: yesterday's report, stuck deliveries re-sent",
    // Reads the day's seamless transaction records and writes the report (game); re-enqueues credits
    // and rollbacks still pending on the outbox. A day of records is walked in one invocation.
    data: { game: 'write' },
    kms: [],
    queues: ['outbox'],
    timeoutSeconds: 300,
  },
  {
    handler: 'cadence-step',
    description:
      "Table cadence: one step of a round (open, no va más, deal, settle, next, lock), called by the cadence state machine's Tasks",
    // What open-round, close-betting, resolve-round and close-shoe touch: the table, shoes, rounds and
    // positions (game), payouts (wallets), the chain (audit). Seeds unsealed (deal, close shoe), heads
    // signed; never sealed: the next shoe is cadence-open-shoe's (K1). No principals, no idempotency:
    // the state machine is the caller, each step idempotent on the round's state.
    data: { game: 'write', wallets: 'write', audit: 'append' },
    kms: ['Decrypt', 'Sign', 'GetPublicKey'],
    queues: ['settlement', 'outbox'],
    operatorWallets: true,
    cadence: true,
  },
  {
    handler: 'round-deadline',
    description:
      'Interrupted games: a round past its state deadline is voided with refunds or its settlement finished (EventBridge Scheduler target)',
    // What void-round (no burn) and resolve-round's settlement touch: the round, its positions and
    // the table (game), refunds and payouts (wallets), ROUND_VOIDED / ROUND_SETTLED (audit). Sign: the
    // round head it finishes. No Decrypt: it deals nothing and burns nothing (a round not dealt is
    // voided, not dealt). No principals, no idempotency: the scheduler is the caller, the check
    // idempotent on the round's state.
    data: { game: 'write', wallets: 'write', audit: 'append' },
    kms: ['Sign', 'GetPublicKey'],
    queues: ['settlement', 'outbox'],
    operatorWallets: true,
  },
  {
    handler: 'cadence-open-shoe',
    description:
      "Table cadence: opens a cadence table's next shoe, called by the cadence state machine's OpenShoe Task",
    // What open-shoe touches and may do, no more: the table and the shoe (game), the chain (audit); the
    // seed drawn and sealed, the statement signed. It unseals nothing (K1: no function both seals and
    // unseals). No principals, no idempotency: the state machine is the caller, the step idempotent
    // on the table (a shoe in play: none opened).
    data: { game: 'write', audit: 'append' },
    kms: ['GenerateRandom', 'Encrypt', 'Sign', 'GetPublicKey'],
  },
];

/** The bundle entry of a worker: its folder under functions/ (as routes.ts names a route's). */
export const workerEntry = (worker: Pick<Worker, 'handler'>): string => `jobs/${worker.handler}`;
