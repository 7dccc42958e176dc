import type { Actor, ShoeRecord } from '../shared';
import { type Access, type Ctx, checkId, guard, withinScope } from '../shared';

/**
 * A shoe the actor may read (or write). Its own module: contributions.ts needs it, and shoes.ts
 * imports contributions.ts.
 */
export async function loadShoe(
  ctx: Pick<Ctx, 'store'>,
  actor: Actor,
  shoeId: string,
  access: Access,
): Promise<ShoeRecord> {
  checkId('shoeId', shoeId);
  const shoe = guard(actor, await ctx.store.get('shoe', { shoeId }), 'shoe', shoeId, access);
  // A player token scoped to one table reads that table's shoes only (its commitment, as the game page shows it).
  withinScope(actor, { tableId: shoe.tableId });
  return shoe;
}
