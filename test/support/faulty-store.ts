import {
  type Entities,
  type Entity,
  type EntityKeys,
  type ReadOptions,
  type Store,
  TransactionCanceled,
  type WriteOp,
} from '@pyb/core';

/** A Store that passes every call to `inner`; the fault injectors below override what they change. */
export class DelegatingStore implements Store {
  constructor(protected readonly inner: Store) {}
  get<E extends Entity>(
    entity: E,
    key: EntityKeys[E],
    options?: ReadOptions,
  ): Promise<Entities[E] | undefined> {
    return this.inner.get(entity, key, options);
  }
  transact(ops: readonly WriteOp[]): Promise<void> {
    return this.inner.transact(ops);
  }
  listPositions: Store['listPositions'] = (...a) => this.inner.listPositions(...a);
  listRounds: Store['listRounds'] = (...a) => this.inner.listRounds(...a);
  listShoes: Store['listShoes'] = (...a) => this.inner.listShoes(...a);
  listPlayerPositions: Store['listPlayerPositions'] = (...a) => this.inner.listPlayerPositions(...a);
  listLedger: Store['listLedger'] = (...a) => this.inner.listLedger(...a);
  listDebts: Store['listDebts'] = (...a) => this.inner.listDebts(...a);
  listAudit: Store['listAudit'] = (...a) => this.inner.listAudit(...a);
  listTables: Store['listTables'] = (...a) => this.inner.listTables(...a);
  listTableEvents: Store['listTableEvents'] = (...a) => this.inner.listTableEvents(...a);
  listOperatorEvents: Store['listOperatorEvents'] = (...a) => this.inner.listOperatorEvents(...a);
  auditHead: Store['auditHead'] = (...a) => this.inner.auditHead(...a);
  listSeats: Store['listSeats'] = (...a) => this.inner.listSeats(...a);
  listBatches: Store['listBatches'] = (...a) => this.inner.listBatches(...a);
  listLedgerRange: Store['listLedgerRange'] = (...a) => this.inner.listLedgerRange(...a);
  listSeamlessTxs: Store['listSeamlessTxs'] = (...a) => this.inner.listSeamlessTxs(...a);
  listMovements: Store['listMovements'] = (...a) => this.inner.listMovements(...a);
}

/** A settlement transaction: the one that marks a position settled. */
export const isSettlement = (ops: readonly WriteOp[]): boolean =>
  ops.some(
    (op) => op.entity === 'position' && op.kind === 'update' && op.set !== undefined && 'settledAt' in op.set,
  );

export class InjectedCrash extends Error {
  override readonly name = 'InjectedCrash';
}

/**
 * A Store that "crashes" after `after` settlement transactions: the next one fails (before it is
 * written, or after it was written but before the caller hears back), and so does every write after
 * it, like a process that died. Reads keep working.
 */
export class CrashingStore extends DelegatingStore {
  settlements = 0;
  crashed = false;

  constructor(
    inner: Store,
    private readonly after: number,
    private readonly when: 'before-write' | 'after-write',
  ) {
    super(inner);
  }

  override async transact(ops: readonly WriteOp[]): Promise<void> {
    if (this.crashed) throw new InjectedCrash('the process is gone');
    if (isSettlement(ops) && ++this.settlements > this.after) {
      this.crashed = true;
      if (this.when === 'after-write') await this.inner.transact(ops);
      throw new InjectedCrash(`crash during settlement #${this.settlements}`);
    }
    return this.inner.transact(ops);
  }
}

/**
 * A Store that runs `hook` once, just before its first read of a wallet: lets a test make another
 * caller commit between a use case's read of a position and its read of the wallet.
 */
export class InterleavingStore extends DelegatingStore {
  private fired = false;

  constructor(
    inner: Store,
    private readonly hook: () => Promise<unknown>,
  ) {
    super(inner);
  }

  override async get<E extends Entity>(entity: E, key: EntityKeys[E]): Promise<Entities[E] | undefined> {
    if (entity === 'wallet' && !this.fired) {
      this.fired = true;
      await this.hook();
    }
    return this.inner.get(entity, key);
  }
}

/**
 * A Store whose next `n` transactions collide (DynamoDB's TransactionConflict: every operation
 * CONFLICT, nothing written), as concurrent writers on AWS make them; then it behaves.
 */
export class CollidingStore extends DelegatingStore {
  collided = 0;

  constructor(
    inner: Store,
    private n: number,
  ) {
    super(inner);
  }

  private only: (ops: readonly WriteOp[]) => boolean = () => true;

  /** Make the next `n` transactions collide (of those `only` picks: by default, every one). */
  collideNext(n: number, only: (ops: readonly WriteOp[]) => boolean = () => true): void {
    this.n = n;
    this.only = only;
  }

  override async transact(ops: readonly WriteOp[]): Promise<void> {
    if (this.n > 0 && this.only(ops)) {
      this.n--;
      this.collided++;
      throw new TransactionCanceled(ops.map(() => 'CONFLICT' as const));
    }
    return this.inner.transact(ops);
  }
}

/**
 * A Store whose every call takes `ms` longer (a store under load: DynamoDB Local on a busy machine),
 * waited before the call (`before`) or, for transactions, after it was written and before the caller
 * hears back (`after-write`). `idle()` resolves once no call is in flight: a test waits for the work a
 * request left running behind its answer without waiting for any amount of time.
 */
export function slowStore(inner: Store, ms: number, when: 'before' | 'after-write' = 'before'): SlowStore {
  let pending = 0;
  const waiters: (() => void)[] = [];
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const idle = () =>
    pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
  const slowed = async (name: string | symbol, call: () => Promise<unknown>): Promise<unknown> => {
    pending++;
    try {
      if (when === 'before') await pause();
      const result = await call();
      if (when === 'after-write' && name === 'transact') await pause();
      return result;
    } finally {
      if (--pending === 0) for (const wake of waiters.splice(0)) wake();
    }
  };
  return new Proxy(inner, {
    get: (target, name) => {
      if (name === 'idle') return idle;
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        slowed(name, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  }) as SlowStore;
}

export type SlowStore = Store & { idle(): Promise<void> };
