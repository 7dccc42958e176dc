/**
 * Switching a table or a bet off or on (tables/availability.ts records it), and what that does to play:
 * off, a round still taking bets gets its "no va más" now — no new bet (GLI-19: stop new bets, let the
 * game in play finish) — and is dealt and settled as usual; on, a cadence still RUNNING opens its next
 * round. A retried call that finds the change already recorded still does this part, then says so.
 */
import type { Actor, Ctx, SetAvailabilityInput, TableRecord, TableView } from '../shared';
import { DomainError, tableView } from '../shared';
import { recordAvailability } from '../tables';
import { closeRoundBetting } from './resolve';

async function followUp(ctx: Ctx, actor: Actor, table: TableRecord): Promise<void> {
  if (table.disabled && table.openRoundId) {
    const round = await ctx.store.get('round', { roundId: table.openRoundId });
    if (round?.status !== 'OPEN') return;
    try {
      await closeRoundBetting(ctx, actor, { roundId: round.roundId });
    } catch (error) {
      // Voided meanwhile, or the table is locked (no round is closed or dealt until it is cleared).
      if (!(error instanceof DomainError && ['ROUND_VOIDED', 'TABLE_LOCKED'].includes(error.code)))
        throw error;
    }
  }
  if (!table.disabled && !table.lock && !table.openRoundId && table.cadence?.state === 'RUNNING')
    await ctx.cadence.start({
      tableId: table.tableId,
      operatorId: table.operatorId,
      tableRound: (table.rounds ?? 0) + 1,
    });
}

export async function setTableAvailability(
  ctx: Ctx,
  actor: Actor,
  input: SetAvailabilityInput,
): Promise<TableView> {
  let table: TableRecord;
  try {
    table = await recordAvailability(ctx, actor, input);
  } catch (error) {
    if (
      error instanceof DomainError &&
      error.code === 'AVAILABILITY_UNCHANGED' &&
      input.betType === undefined
    ) {
      const now = await ctx.store.get('table', { tableId: input.tableId });
      if (now) await followUp(ctx, actor, now);
    }
    throw error;
  }
  await followUp(ctx, actor, table);
  return tableView(table);
}
