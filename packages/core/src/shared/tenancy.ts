/** Tenancy: what a key may read or change, which operator it may read, and an operator's tables. */
import { type Actor, canRead, canWrite } from './actor';
import type { Ctx } from './context';
import { DomainError, notFound, type Resource } from './errors';
import type { TableRecord } from './model';

const PAGE = 100;

export type Access = 'read' | 'write';

/** Tenancy: unknown and foreign resources look the same (NOT_FOUND); regulators cannot write. */
export function guard<T extends { operatorId: string }>(
  actor: Actor,
  record: T | undefined,
  what: Resource,
  id: string,
  access: Access,
): T {
  if (!record || !canRead(actor, record.operatorId)) throw notFound(what, id);
  if (access === 'write' && !canWrite(actor, record.operatorId)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', `this key may not change ${what} ${id}`);
  }
  return record;
}

/**
 * The operator a wallet call is about: regulators name a supervised one, others act on their own.
 * An operator the key may not read is answered as the thing asked for not being there (`missing`).
 */
export function walletOperator(
  actor: Actor,
  operatorId: string | undefined,
  access: Access,
  missing: { what: Resource; id: string } = { what: 'wallet', id: operatorId ?? actor.operatorId },
): string {
  const op = operatorId ?? actor.operatorId;
  if (!canRead(actor, op)) throw notFound(missing.what, missing.id);
  if (access === 'write' && !canWrite(actor, op)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', 'this key may not move money');
  }
  return op;
}

/**
 * A player token acts for its own player only (the route and the use case both say so); an API key
 * acts for any player of its operator. The player is the token's, never the path's or the body's.
 */
export function actsFor(actor: Actor, playerId: string): void {
  if (actor.player && actor.player.playerId !== playerId) {
    throw new DomainError('FORBIDDEN', 'PLAYER_NOT_ALLOWED', 'a player token acts for its own player only', {
      playerId,
    });
  }
}

/** A player token scoped to a table or a currency refuses the others (API keys have no scope). */
export function withinScope(actor: Actor, where: { tableId?: string; currency?: string }): void {
  const scope = actor.player;
  if (!scope) return;
  if (scope.tableId !== undefined && where.tableId !== undefined && where.tableId !== scope.tableId) {
    throw new DomainError(
      'FORBIDDEN',
      'TOKEN_SCOPE_EXCEEDED',
      `this player token is for table ${scope.tableId} only`,
    );
  }
  if (scope.currency !== undefined && where.currency !== undefined && where.currency !== scope.currency) {
    throw new DomainError(
      'FORBIDDEN',
      'TOKEN_SCOPE_EXCEEDED',
      `this player token bets in ${scope.currency} only`,
    );
  }
}

export function requireWriter(actor: Actor): void {
  if (!canWrite(actor, actor.operatorId)) {
    throw new DomainError('FORBIDDEN', 'READ_ONLY', 'this key is read-only');
  }
}

/** An operator the key may read; any other looks absent (tenancy). */
export function readableOperator(actor: Actor, operatorId: string | undefined): string {
  const op = operatorId ?? actor.operatorId;
  if (!canRead(actor, op)) throw notFound('operator', op);
  return op;
}

/** The operator's tables, a page at a time. */
export async function* operatorTables(
  ctx: Pick<Ctx, 'store'>,
  operatorId: string,
): AsyncGenerator<TableRecord> {
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listTables(operatorId, { limit: PAGE, ...(cursor && { cursor }) });
    yield* page.items;
    cursor = page.cursor;
  } while (cursor);
}
