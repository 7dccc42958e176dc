/**
 * Lock-out (AGCO 21.1.9: a game whose RNG fails is unavailable until fixed; 4.26(5); docs/regulators.md,
 * "Lock-out"). When the key service or the randomness fails at open-shoe or resolve (key-failures.ts
 * says which failures), the table is locked in one transaction with its TABLE_LOCKED event: no shoe
 * opens, no round opens or is dealt (423 TABLE_LOCKED) until an admin clears it with a reason
 * (TABLE_UNLOCKED). Bets stay refundable: a round not dealt is voided as usual. A round dealt before the
 * lock is settled: its cards were claimed and recorded, withholding the payout protects nobody.
 *
 * A close that finds the shoe's audit chain broken locks the table too (source AUDIT, `lockForAudit`):
 * the shoe stays CLOSING and the table's; that lock is not cleared by unlock while the shoe is not
 * closed — the chain is repaired and the shoe closed, or an admin abandons the shoe (abandon-shoe.ts).
 */
import type {
  Actor,
  TableEventRecord,
  TableEventsView,
  TableLock,
  TableRecord,
  TableView,
  UnlockTableInput,
} from '../shared';
import {
  attempts,
  backoff,
  checkText,
  conflict,
  DomainError,
  invalid,
  LockingFailure,
  TransactionCanceled,
  tableView,
  tooMuchContention,
} from '../shared';
import type { TablesCtx } from './ctx';
import { loadTable } from './tables';

const UNLOCK_REASON_MAX = 500;

/** The refusal every locked call answers with (423): what failed, when, and that an admin must clear it. */
const tableLocked = (tableId: string, lock: TableLock): DomainError =>
  new DomainError(
    'LOCKED',
    'TABLE_LOCKED',
    lock.source === 'CADENCE'
      ? `table ${tableId} is locked since ${lock.at}: a step of its cadence failed (${lock.cause}); an admin clears it with POST /v1/tables/${tableId}/unlock, then resumes the cadence`
      : lock.source === 'AUDIT'
        ? `table ${tableId} is locked since ${lock.at}: closing shoe ${lock.shoeId} found its audit chain broken; put the missing items back and close it again, or an admin abandons it with POST /v1/shoes/${lock.shoeId}/abandon`
        : `table ${tableId} is locked since ${lock.at}: ${lock.source === 'KEY_SERVICE' ? 'the key service' : lock.source === 'TIME_STAMP' ? 'the time-stamp authorities' : 'the randomness'} failed (${lock.cause}); an admin clears it with POST /v1/tables/${tableId}/unlock once fixed`,
    {
      lock: {
        source: lock.source,
        cause: lock.cause,
        phase: lock.phase,
        at: lock.at,
        seq: lock.seq,
        ...(lock.shoeId !== undefined && { shoeId: lock.shoeId }),
      },
    },
  );

/** What an open-shoe refusal says of a table whose shoe is still in play (what to do about it). */
export function shoeInPlay(table: TableRecord): DomainError {
  const lock = table.lock;
  if (lock?.source === 'AUDIT' && lock.shoeId === table.currentShoeId)
    return conflict(
      'SHOE_ALREADY_OPEN',
      `table ${table.tableId} still has shoe ${table.currentShoeId}: closing it found its audit chain broken and locked the table (TABLE_LOCKED ${lock.seq}); put the missing items back and close it again, or an admin abandons it with POST /v1/shoes/${table.currentShoeId}/abandon and a reason, then opens a new shoe`,
    );
  return conflict(
    'SHOE_ALREADY_OPEN',
    `table ${table.tableId} already has shoe ${table.currentShoeId}: close it first (POST /v1/shoes/${table.currentShoeId}/close)`,
  );
}

export function assertUnlocked(table: TableRecord): void {
  if (table.lock) throw tableLocked(table.tableId, table.lock);
}

/**
 * Runs the key-service and randomness steps of open-shoe or resolve: a failure that must lock
 * (LockingFailure) locks the table and answers TABLE_LOCKED; anything else passes through.
 */
export async function underLockOut<T>(
  ctx: TablesCtx,
  tableId: string,
  where: Pick<TableLock, 'phase' | 'shoeId' | 'roundId'>,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof LockingFailure)) throw error;
    ctx.metrics.count('TablesLocked', 1);
    const lock = await lockTable(ctx, tableId, {
      source: error.source,
      cause: error.code,
      detail: error.message.slice(0, 500),
      ...where,
    });
    throw tableLocked(tableId, lock);
  }
}

/**
 * Close found the shoe's chain broken: the table is locked (source AUDIT, the problems listed) with its
 * TABLE_LOCKED event, and the lock counted (`TablesLocked`: it pages someone). An already locked table
 * keeps its lock.
 */
export async function lockForAudit(
  ctx: TablesCtx,
  tableId: string,
  shoeId: string,
  problems: readonly string[],
): Promise<TableLock> {
  ctx.metrics.count('TablesLocked', 1);
  return lockTable(ctx, tableId, {
    source: 'AUDIT',
    cause: 'AUDIT_CHAIN_BROKEN',
    detail: problems.join('; ').slice(0, 500),
    phase: 'CLOSE_SHOE',
    shoeId,
    problems: problems.slice(0, 20).map((p) => p.slice(0, 500)),
  });
}

/**
 * A step of the table's cadence failed past its retries (the state machine's Catch): the table is
 * locked with what failed, so it never silently stops; an already locked table keeps its lock.
 */
export async function lockForCadence(
  ctx: TablesCtx,
  tableId: string,
  failure: { cause: string; detail: string; roundId?: string; shoeId?: string },
): Promise<TableLock> {
  ctx.metrics.count('TablesLocked', 1);
  return lockTable(ctx, tableId, {
    source: 'CADENCE',
    cause: failure.cause.slice(0, 100),
    detail: failure.detail.slice(0, 500),
    phase: 'CADENCE',
    ...(failure.roundId !== undefined && { roundId: failure.roundId }),
    ...(failure.shoeId !== undefined && { shoeId: failure.shoeId }),
  });
}

/** Sets the lock and appends TABLE_LOCKED in one transaction; an already locked table keeps its lock. */
async function lockTable(
  ctx: TablesCtx,
  tableId: string,
  failure: Omit<TableLock, 'at' | 'seq'>,
): Promise<TableLock> {
  for (const attempt of attempts(ctx)) {
    const table = (await ctx.store.get('table', { tableId }))!;
    if (table.lock) return table.lock;
    const seq = table.events ?? 0;
    const lock: TableLock = { ...failure, at: ctx.now(), seq };
    const event: TableEventRecord = {
      tableId,
      operatorId: table.operatorId,
      seq,
      type: 'TABLE_LOCKED',
      at: lock.at,
      lock,
    };
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId },
          set: { lock },
          add: { events: 1 },
          expect: { lock: null, events: table.events ?? null },
        },
        { kind: 'put', entity: 'tableEvent', key: { tableId, seq }, item: event },
      ]);
      return lock;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt); // locked or unlocked meanwhile: the re-read says which
    }
  }
  throw tooMuchContention('locking the table');
}

/** An admin clears the lock with a reason, once the failure is fixed: TABLE_UNLOCKED records it. */
export async function unlockTable(ctx: TablesCtx, actor: Actor, input: UnlockTableInput): Promise<TableView> {
  const reason = checkText('reason', input.reason, UNLOCK_REASON_MAX).trim();
  if (reason.length === 0) throw invalid('INVALID_INPUT', 'reason must say why the table may play again');
  for (const attempt of attempts(ctx)) {
    const table = await loadTable(ctx, actor, input.tableId, 'write');
    if (!table.lock) throw conflict('TABLE_NOT_LOCKED', `table ${table.tableId} is not locked`);
    if (table.lock.source === 'AUDIT' && table.currentShoeId === table.lock.shoeId)
      throw conflict(
        'AUDIT_LOCK_NEEDS_SHOE',
        `table ${table.tableId} is locked because shoe ${table.lock.shoeId}'s audit chain broke at close: close it once repaired (POST /v1/shoes/${table.lock.shoeId}/close), or abandon it with a reason (POST /v1/shoes/${table.lock.shoeId}/abandon)`,
      );
    const seq = table.events ?? 0;
    const event: TableEventRecord = {
      tableId: table.tableId,
      operatorId: table.operatorId,
      seq,
      type: 'TABLE_UNLOCKED',
      at: ctx.now(),
      reason,
      clears: table.lock.seq,
      by: { role: actor.role, operatorId: actor.operatorId },
    };
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set: { lock: null },
          add: { events: 1 },
          expect: { 'lock.seq': table.lock.seq, events: seq },
        },
        { kind: 'put', entity: 'tableEvent', key: { tableId: table.tableId, seq }, item: event },
      ]);
      const { lock: _cleared, ...rest } = table;
      return tableView({ ...rest, events: seq + 1 });
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt);
    }
  }
  throw tooMuchContention('unlocking the table');
}

/** A table's lock-outs and their clearing, in order (regulators read them too). */
export async function listTableEvents(
  ctx: TablesCtx,
  actor: Actor,
  input: { tableId: string },
): Promise<TableEventsView> {
  const table = await loadTable(ctx, actor, input.tableId, 'read');
  const events = await ctx.store.listTableEvents(table.tableId);
  return {
    tableId: table.tableId,
    events: events.map(({ operatorId: _op, ...event }) => event),
  };
}
