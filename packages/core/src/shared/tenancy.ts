/** Tenancy: which operator a key may read, and an operator's tables. */
import { type Actor, canRead } from './actor';
import type { Ctx } from './context';
import { notFound } from './errors';
import type { TableRecord } from './model';

const PAGE = 100;

/** An operator the key may read; any other looks absent (tenancy). */
export function readableOperator(actor: Actor, operatorId: string | undefined): string {
  const op = operatorId ?? actor.operatorId;
  if (!canRead(actor, op)) throw notFound('operator', op);
  return op;
}

/** The operator's tables, a page at a time. */
export async function* operatorTables(ctx: Ctx, operatorId: string): AsyncGenerator<TableRecord> {
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listTables(operatorId, { limit: PAGE, ...(cursor && { cursor }) });
    yield* page.items;
    cursor = page.cursor;
  } while (cursor);
}
