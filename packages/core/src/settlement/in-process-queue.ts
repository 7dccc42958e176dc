/**
 * The settlement queue in the process itself, for `./scripts/dev` and the tests: the same batch
 * handler the SQS-triggered Lambda runs (`Core.runSettlementBatch`), delivered asynchronously after
 * `send` returns, a few batches at a time, each retried on failure like an SQS redelivery and parked
 * in `deadLetters` after `maxReceives` attempts (SQS's maxReceiveCount, then the DLQ).
 */
import type { SettlementBatch, SettlementQueue } from '../ports/settlement-queue';

export type BatchHandler = (batch: SettlementBatch, receive: number) => Promise<void>;

export interface InProcessQueueOptions {
  /** Deliveries of one batch before it is dead-lettered (default 5). */
  maxReceives?: number;
  /** Batches handled at once (default 4). */
  concurrency?: number;
  /** Wait before a failed batch is delivered again (default 50 ms). */
  retryDelayMs?: number;
}

export class InProcessSettlementQueue implements SettlementQueue {
  readonly deadLetters: { batch: SettlementBatch; error: unknown }[] = [];
  /** Every batch ever sent (tests read it). */
  readonly sent: SettlementBatch[] = [];
  private handler: BatchHandler | undefined;
  private readonly waiting: { batch: SettlementBatch; receive: number }[] = [];
  private running = 0;
  private paused = false;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly maxReceives: number;
  private readonly concurrency: number;
  private readonly retryDelayMs: number;
  private timers = 0;

  constructor(options: InProcessQueueOptions = {}) {
    this.maxReceives = options.maxReceives ?? 5;
    this.concurrency = options.concurrency ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 50;
  }

  /** The consumer (the core's runSettlementBatch); set after the core is built, which needs the queue. */
  attach(handler: BatchHandler): this {
    this.handler = handler;
    this.pump();
    return this;
  }

  async send(batches: readonly SettlementBatch[]): Promise<void> {
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
  drop(): SettlementBatch[] {
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

  private async deliver(batch: SettlementBatch, receive: number, handler: BatchHandler): Promise<void> {
    try {
      await handler(batch, receive);
    } catch (error) {
      if (receive >= this.maxReceives) {
        this.deadLetters.push({ batch, error });
        return;
      }
      this.timers++;
      setTimeout(() => {
        this.timers--;
        this.waiting.push({ batch, receive: receive + 1 });
        this.pump();
      }, this.retryDelayMs);
    }
  }

  private wakeIdle(): void {
    if (!this.isIdle()) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
