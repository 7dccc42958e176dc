/**
 * The link of a new shoe's statement to the shoe opened before it at its table, closed or not
 * (docs/provably-fair.md §10, D2): with the operator's receipt of each shoe opened (the signed
 * statement the open-shoe call answers with), a shoe deleted before its close and another opened
 * under its number leaves a gap a verifier names (`receipt.N.opened`).
 */
import { type PreviousOpenedShoe, statementDigest } from '@pyb/fairness';
import type { Ctx, TableRecord } from '../shared';

/**
 * null for a table's first shoe; undefined only for a table whose last shoe was opened before the
 * link existed and not closed since (nothing recorded to link to: the statement then leaves it out).
 */
export async function previousOpenedOf(
  ctx: Ctx,
  table: TableRecord,
): Promise<PreviousOpenedShoe | null | undefined> {
  if (table.shoes === 0) return null;
  if (table.lastOpened?.number === table.shoes) return table.lastOpened;
  const last = table.lastShoe?.number === table.shoes ? table.lastShoe : undefined;
  const shoe = last && (await ctx.store.get('shoe', { shoeId: last.shoeId }));
  return shoe
    ? { shoeId: shoe.shoeId, number: shoe.number, statement: statementDigest(shoe.statement) }
    : undefined;
}
