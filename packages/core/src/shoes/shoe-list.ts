/**
 * Every shoe of a table, by number (GET /v1/tables/{tableId}/shoes): with each shoe's number, its
 * phase, when it ended and closed, why it closed early if it did, and its voids once revealed, a
 * regulator sees that no shoe is missing (numbers are gapless, each statement names the one before)
 * and that every ended shoe was closed and revealed.
 */
import type { Actor, ListShoesInput, ShoePageView } from '../shared';
import { type Ctx, invalid, shoeSummaryView } from '../shared';
import { loadTable } from '../tables';

export async function listShoes(ctx: Ctx, actor: Actor, input: ListShoesInput): Promise<ShoePageView> {
  const table = await loadTable(ctx, actor, input.tableId, 'read');
  const limit = input.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalid('INVALID_INPUT', 'limit must be 1-100');
  const page = await ctx.store.listShoes(table.tableId, {
    limit,
    ...(input.cursor !== undefined && { cursor: input.cursor }),
  });
  return { tableId: table.tableId, shoes: page.items.map(shoeSummaryView), nextCursor: page.cursor ?? null };
}
