/**
 * Faults for the model-based test: transient transaction conflicts (DynamoDB's TransactionConflict,
 * which the in-memory Store never raises by itself), and a process that dies at its n-th write.
 */
import {
  type Entities,
  type Entity,
  type EntityKeys,
  type Store,
  TransactionCanceled,
  type WriteOp,
} from '@pyb/core';
import { DelegatingStore, InjectedCrash } from '../support/faulty-store';
import { prng } from '../support/prng';

export { InjectedCrash };

/**
 * Cancels a share of transactions as a collision would (before anything is written), and lets each
 * read or write wait 0-2 extra turns of the event loop, so that concurrent calls interleave
 * differently from one run to the next (the same way for the same seed).
 */
export class FaultyStore extends DelegatingStore {
  private readonly random: () => number;
  conflicts = 0;

  constructor(
    inner: Store,
    private readonly conflictRate: number,
    seed: number,
  ) {
    super(inner);
    this.random = prng(seed);
  }

  private async jitter(): Promise<void> {
    for (let n = Math.floor(this.random() * 3); n > 0; n--) await new Promise((r) => setImmediate(r));
  }

  override async get<E extends Entity>(entity: E, key: EntityKeys[E]): Promise<Entities[E] | undefined> {
    await this.jitter();
    return this.inner.get(entity, key);
  }

  override async transact(ops: readonly WriteOp[]): Promise<void> {
    await this.jitter();
    if (this.conflictRate > 0 && this.random() < this.conflictRate) {
      this.conflicts++;
      throw new TransactionCanceled(ops.map(() => 'CONFLICT' as const));
    }
    return this.inner.transact(ops);
  }

  /** This store, in a process that dies at its `after`-th write (0-based) and writes nothing after. */
  dying(after: number, when: 'before-write' | 'after-write'): Store {
    return new Dying(this, after, when);
  }
}

class Dying extends DelegatingStore {
  private writes = 0;
  private dead = false;

  constructor(
    inner: Store,
    private readonly after: number,
    private readonly when: 'before-write' | 'after-write',
  ) {
    super(inner);
  }

  override async transact(ops: readonly WriteOp[]): Promise<void> {
    if (this.dead) throw new InjectedCrash('the process is gone');
    if (this.writes++ === this.after) {
      this.dead = true;
      if (this.when === 'after-write') await this.inner.transact(ops);
      throw new InjectedCrash(`died at write #${this.after} (${this.when})`);
    }
    return this.inner.transact(ops);
  }
}
