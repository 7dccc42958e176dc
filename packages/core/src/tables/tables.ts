import { DECKS_MESSAGE, isCurrency } from '@pyb/contracts';
import { type TableConfig, tablePreset } from '@pyb/engine';
import { ZodError } from 'zod';
import type { Actor, CreateTableInput, TableRecord, TableView } from '../shared';
import {
  type Access,
  type Ctx,
  checkId,
  checkText,
  guard,
  invalid,
  requireWriter,
  tableView,
  withinScope,
} from '../shared';
import type { TablesCtx } from './ctx';
import { MAX_BET_GATES } from './gates';

const VARIANTS = ['mini', 'midi', 'full', 'custom'];
/** "Pueden usarse 6 u 8 barajas de 52 cartas" (003:16, 004:8). */
const RULEBOOK_DECKS = [6, 8];

/**
 * The preset with the overrides; a custom table's configuration takes the table's name (the engine's
 * presets keep their seats and decks: any other shape is a custom table).
 */
function parseConfig(input: CreateTableInput): TableConfig {
  if (!VARIANTS.includes(input.variant))
    throw invalid('TABLE_CONFIG_INVALID', 'variant must be mini, midi, full or custom');
  const overrides =
    input.variant === 'custom' ? { ...input.config, name: String(input.name ?? '').trim() } : input.config;
  try {
    return tablePreset(input.variant, overrides);
  } catch (error) {
    if (error instanceof ZodError) {
      throw invalid('TABLE_CONFIG_INVALID', 'the table configuration is not valid', {
        issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    throw error;
  }
}

export async function createTable(
  ctx: TablesCtx & Pick<Ctx, 'testShoes'>,
  actor: Actor,
  input: CreateTableInput,
): Promise<TableView> {
  requireWriter(actor);
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name.length < 1 || name.length > 80) throw invalid('INVALID_INPUT', 'name must be 1-80 characters');
  checkText('name', name, 80);
  const config = parseConfig(input);
  // The engine takes 1-8 decks (its odds and simulations are about any shoe); a table has the
  // rulebooks' 6 or 8 unless the core was built for tests (CoreDeps.testShoes).
  if (!ctx.testShoes && !RULEBOOK_DECKS.includes(config.decks)) {
    throw invalid('TABLE_CONFIG_INVALID', 'the table configuration is not valid', {
      issues: [{ path: 'decks', message: DECKS_MESSAGE }],
    });
  }
  if (!isCurrency(config.currency)) {
    throw invalid('TABLE_CONFIG_INVALID', 'the table configuration is not valid', {
      issues: [{ path: 'currency', message: 'an ISO 4217 currency code, e.g. EUR' }],
    });
  }
  const gates = input.betGates;
  if (gates !== undefined && (!Number.isSafeInteger(gates) || gates < 1 || gates > MAX_BET_GATES)) {
    throw invalid('INVALID_INPUT', `betGates must be 1 to ${MAX_BET_GATES}`);
  }
  const table: TableRecord = {
    tableId: ctx.ids.next('tbl'),
    operatorId: actor.operatorId,
    name,
    config,
    createdAt: ctx.now(),
    shoes: 0,
    rounds: 0,
    ...(gates !== undefined && { betGates: gates }),
  };
  await ctx.store.transact([{ kind: 'put', entity: 'table', key: { tableId: table.tableId }, item: table }]);
  return tableView(table);
}

/**
 * Every use case that names a table reads it here: the id checked, the tenancy guarded (unknown and
 * foreign tables are both TABLE_NOT_FOUND). Only the store is needed, so the lean readers (seats,
 * scoreboard) call it without a whole Ctx.
 */
export async function loadTable(
  deps: Pick<Ctx, 'store'>,
  actor: Actor,
  tableId: string,
  access: Access,
): Promise<TableRecord> {
  checkId('tableId', tableId);
  withinScope(actor, { tableId });
  return guard(actor, await deps.store.get('table', { tableId }), 'table', tableId, access);
}

export async function getTable(ctx: TablesCtx, actor: Actor, input: { tableId: string }): Promise<TableView> {
  return tableView(await loadTable(ctx, actor, input.tableId, 'read'));
}
