/**
 * Game availability (docs/regulators.md, "Game availability"; AGCO 4.02(8), NJ 13:69O-1.8(f), PA
 * 811a.7(f)): the operator switches a table, or one of its pair or side bets, off and on — who (the
 * key and the named person the operator records), when, why — each change a table event written in
 * the transaction that changes the table, so the table's events, its live feed, the regulator feed and
 * the Game Availability Log all read the one record. Off is graceful: what is in play finishes
 * (rounds/availability.ts calls "no va más" on a round taking bets); nothing new opens.
 */
import { AVAILABILITY_EVENT_TYPES } from '@pyb/contracts';
import { betLimit } from '@pyb/engine';
import type {
  Actor,
  AvailabilityLogInput,
  AvailabilityLogView,
  OptionalBetType,
  SetAvailabilityInput,
  TableEventRecord,
  TableRecord,
} from '../shared';
import {
  attempts,
  backoff,
  checkText,
  DomainError,
  invalid,
  operatorTables,
  readableOperator,
  requireWriter,
  TransactionCanceled,
  timeRange,
  tooMuchContention,
} from '../shared';
import type { TablesCtx } from './ctx';
import { loadTable } from './tables';

/** How far back one read of the log reaches (a year: the regulators' retention is read year by year). */
const LOG_MAX_RANGE_MS = 366 * 86_400_000;

/** The refusal of every call that would start something on a switched-off table (409). */
export function assertAvailable(table: TableRecord): void {
  const off = table.disabled;
  if (!off) return;
  throw new DomainError(
    'CONFLICT',
    'TABLE_DISABLED',
    `table ${table.tableId} is switched off since ${off.at} (${off.reason}; ${off.person}): switch it back on with POST /v1/tables/${table.tableId}/availability and available: true`,
    { disabled: off },
  );
}

/** The change the input asks for, checked against the table (AVAILABILITY_UNCHANGED when it is so already). */
function changeOf(
  table: TableRecord,
  input: SetAvailabilityInput,
): Pick<TableEventRecord, 'type' | 'betType'> & { set: Partial<Record<'disabled' | 'betsOff', unknown>> } {
  const { available, betType } = input;
  if (betType === undefined) {
    if (available === !table.disabled)
      throw new DomainError(
        'CONFLICT',
        'AVAILABILITY_UNCHANGED',
        `table ${table.tableId} is already ${available ? 'on' : 'off'}`,
      );
    return { type: available ? 'TABLE_ENABLED' : 'TABLE_DISABLED', set: {} };
  }
  // A bet the table never offered (no limit in its configuration) is not switched: refused as such.
  if (betLimit(table.config, betType) === undefined)
    throw new DomainError(
      'UNPROCESSABLE',
      'BET_SIDE_DISABLED',
      `table ${table.tableId} does not offer ${betType}`,
      {
        betType,
      },
    );
  const off = table.betsOff ?? [];
  if (available === !off.includes(betType))
    throw new DomainError(
      'CONFLICT',
      'AVAILABILITY_UNCHANGED',
      `${betType} is already ${available ? 'on' : 'off'} at table ${table.tableId}`,
    );
  const betsOff = available ? off.filter((b) => b !== betType) : [...off, betType];
  return { type: available ? 'BET_ENABLED' : 'BET_DISABLED', betType, set: { betsOff } };
}

/**
 * Records the change with its event, in one transaction conditional on the table's event count (a
 * concurrent change or lock re-reads and decides again). Returns the table as it now is.
 */
export async function recordAvailability(
  ctx: TablesCtx,
  actor: Actor,
  input: SetAvailabilityInput,
): Promise<TableRecord> {
  requireWriter(actor);
  if (typeof input.available !== 'boolean') throw invalid('INVALID_INPUT', 'available is true or false');
  const reason = checkText('reason', input.reason, 500).trim();
  const person = checkText('person', input.person, 120).trim();
  if (!reason) throw invalid('INVALID_INPUT', 'reason must say why the availability changes');
  if (!person) throw invalid('INVALID_INPUT', 'person must name who acts (the operator records him)');
  for (const attempt of attempts(ctx)) {
    const table = await loadTable(ctx, actor, input.tableId, 'write');
    const { set, ...change } = changeOf(table, input);
    const seq = table.events ?? 0;
    const at = ctx.now();
    const event: TableEventRecord = {
      tableId: table.tableId,
      operatorId: table.operatorId,
      seq,
      ...change,
      at,
      reason,
      person,
      by: { role: actor.role, operatorId: actor.operatorId, ...(actor.keyId && { keyId: actor.keyId }) },
    };
    const disabled = change.type === 'TABLE_DISABLED' ? { at, reason, person, seq } : undefined;
    if (change.type === 'TABLE_DISABLED') set.disabled = disabled;
    if (change.type === 'TABLE_ENABLED') set.disabled = null;
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set,
          add: { events: 1 },
          expect: { events: table.events ?? null },
        },
        { kind: 'put', entity: 'tableEvent', key: { tableId: table.tableId, seq }, item: event },
      ]);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt); // another event meanwhile: decide again on the re-read
      continue;
    }
    const updated: TableRecord = { ...table, events: seq + 1 };
    if (disabled) updated.disabled = disabled;
    if (change.type === 'TABLE_ENABLED') delete updated.disabled;
    if (set.betsOff) updated.betsOff = set.betsOff as OptionalBetType[];
    return updated;
  }
  throw tooMuchContention('changing the availability');
}

const AVAILABILITY: readonly string[] = AVAILABILITY_EVENT_TYPES;

/**
 * The Game Availability Log: every availability event of the operator's tables in `[from, to)`,
 * oldest first. Read from each table's events (a handful per table), not from a second copy.
 */
export async function availabilityLog(
  ctx: Pick<TablesCtx, 'store'>,
  actor: Actor,
  input: AvailabilityLogInput,
): Promise<AvailabilityLogView> {
  const operatorId = readableOperator(actor, input.operatorId);
  const range = timeRange(input.from, input.to, LOG_MAX_RANGE_MS);
  if (!range)
    throw invalid('INVALID_INPUT', 'from and to must be ISO times with from < to, at most 366 days apart');
  const entries: AvailabilityLogView['entries'] = [];
  for await (const table of operatorTables(ctx, operatorId)) {
    if (table.events === undefined) continue; // no event ever: no read
    for (const { operatorId: _op, ...event } of await ctx.store.listTableEvents(table.tableId)) {
      if (AVAILABILITY.includes(event.type) && event.at >= range.from && event.at < range.to)
        entries.push({ ...event, tableName: table.name });
    }
  }
  entries.sort((a, b) => a.at.localeCompare(b.at) || a.tableId.localeCompare(b.tableId) || a.seq - b.seq);
  return { operatorId, ...range, entries };
}
