/**
 * A queue in the process itself, for `./scripts/dev` and the tests: the same handler the
 * SQS-triggered Lambda runs, delivered asynchronously after `send` returns, a few messages at a time,
 * each retried on failure like an SQS redelivery (after a delay that doubles with each receive, up to
 * `maxRetryDelayMs`: the visibility timeout's backoff) and parked in `deadLetters` after `maxReceives`
 * attempts (SQS's maxReceiveCount, then the DLQ). Two queues use it: the settlement queue (batches,
 * `Core.runSettlementBatch`) and the seamless outbox (txIds, `Core.deliverSeamlessTx`).
 */
import type { OutboxQueue } from './outbox-queue';
import type { SettlementBatch, SettlementQueue } from './settlement-queue';

export type MessageHandler<M> = (message: M, receive: number) => Promise<unknown>; // what it answers is not the queue's concern

export interface InProcessQueueOptions {
  /** Deliveries of one batch before it is dead-lettered (default 5). */
  maxReceives?: number;
  /** Batches handled at once (default 4). */
  concurrency?: number;
  /** Wait before a failed message is delivered again the first time (default 50 ms). */
  retryDelayMs?: number;
  /** The longest wait between deliveries as it doubles (default: retryDelayMs, no doubling). */
  maxRetryDelayMs?: number;
}

class InProcessQueue<M> {
  /** Messages delivered `maxReceives` times without success (`batch`: the message). */
  readonly deadLetters: { batch: M; error: unknown }[] = [];
  /** Every message ever sent (tests read it). */
  readonly sent: M[] = [];
  private handler: MessageHandler<M> | undefined;
  private readonly waiting: { batch: M; receive: number }[] = [];
  private running = 0;
  private paused = false;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly maxReceives: number;
  private readonly concurrency: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private timers = 0;

  constructor(options: InProcessQueueOptions = {}) {
    this.maxReceives = options.maxReceives ?? 5;
    this.concurrency = options.concurrency ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 50;
    this.maxRetryDelayMs = Math.max(this.retryDelayMs, options.maxRetryDelayMs ?? this.retryDelayMs);
  }

  /** The consumer (the core's handler); set after the core is built, which needs the queue. */
  attach(handler: MessageHandler<M>): this {
    this.handler = handler;
    this.pump();
    return this;
  }

  async send(batches: readonly M[]): Promise<void> {
    for (const batch of batches) {
      this.sent.push(batch);
      this.waiting.push({ batch, receive: 1 });
    }
    // Delivered after the sender's request goes on, as a queue would.
    setImmediate(() => this.pump());
  }

  /** Holds deliveries (batches wait) until resume(). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Removes and returns the batches not delivered yet: a test's lost messages. */
  drop(): M[] {
    return this.waiting.splice(0).map((w) => w.batch);
  }

  /** Resolves once nothing waits (unless paused), runs or is about to be retried. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.running === 0 && this.timers === 0 && (this.paused || this.waiting.length === 0);
  }

  private pump(): void {
    while (this.handler && !this.paused && this.running < this.concurrency && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running++;
      void this.deliver(next.batch, next.receive, this.handler).finally(() => {
        this.running--;
        this.pump();
        this.wakeIdle();
      });
    }
    this.wakeIdle();
  }

  private async deliver(batch: M, receive: number, handler: MessageHandler<M>): Promise<void> {
    try {
      await handler(batch, receive);
    } catch (error) {
      if (receive >= this.maxReceives) {
        this.deadLetters.push({ batch, error });
        return;
      }
      this.timers++;
      setTimeout(
        () => {
          this.timers--;
          this.waiting.push({ batch, receive: receive + 1 });
          this.pump();
        },
        Math.min(this.retryDelayMs * 2 ** (receive - 1), this.maxRetryDelayMs),
      );
    }
  }

  private wakeIdle(): void {
    if (!this.isIdle()) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}

/** The settlement queue in the process (batches of positions, `Core.runSettlementBatch`). */
export class InProcessSettlementQueue extends InProcessQueue<SettlementBatch> implements SettlementQueue {}

/** The seamless outbox in the process (txIds, `Core.deliverSeamlessTx`), with backoff by default. */
export class InProcessOutboxQueue extends InProcessQueue<string> implements OutboxQueue {
  constructor(options: InProcessQueueOptions = {}) {
    super({ maxReceives: 8, retryDelayMs: 50, maxRetryDelayMs: 2_000, ...options });
  }
}
