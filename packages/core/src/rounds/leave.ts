/** A player leaving a table (seed 000: his deferred commission is collected then). */
import type { Actor, LeaveTableResult } from '../shared';
import { type Ctx, checkPlayerId, tryTransact } from '../shared';
import { loadTable } from '../tables';
import { closeTableSession, collectDebt, operatorOf } from '../wallet';
import { shoeConfig } from './bet-parts';
import { settlePosition } from './settle';
import { stakeMoneyOf } from './stake-sources';

/**
 * A player leaving the table: his position in a round being settled is settled first (so what it owes
 * is counted), the commission he owes for the shoe in play is collected, and his seat is freed.
 */
export async function leaveTable(
  ctx: Ctx,
  actor: Actor,
  input: { tableId: string; playerId: string },
): Promise<LeaveTableResult> {
  const table = await loadTable(ctx, actor, input.tableId, 'write');
  const playerId = checkPlayerId(input.playerId);
  if (table.openRoundId) {
    const round = await ctx.store.get('round', { roundId: table.openRoundId });
    if (round && (round.status === 'DEALT' || round.status === 'SETTLING')) {
      await settlePosition(ctx, await shoeConfig(ctx, round.shoeId), round, { playerId });
    }
  }
  let commissionCollected = 0;
  if (table.currentShoeId) {
    const debt = await ctx.store.get('debt', {
      shoeId: table.currentShoeId,
      operatorId: table.operatorId,
      playerId,
    });
    if (debt && debt.owed > 0) commissionCollected = await collectDebt(ctx, debt, { tableId: table.tableId });
  }
  const read = await ctx.store.get('wallet', { operatorId: table.operatorId, playerId });
  // No hosted wallet item: the operator's stake source answers his balance (hosted: he is unknown).
  let outside: (() => Promise<number>) | undefined;
  if (!read) {
    const operator = await operatorOf(ctx, table.operatorId);
    outside = stakeMoneyOf(operator).leavingBalance(ctx, {
      operator,
      playerId,
      currency: table.config.currency,
    });
  }
  // His table session ends with the leave (#16; otherwise it ends after the inactivity time-out). A
  // seamless player has no wallet item here (nor a session: the operator keeps his limits).
  const wallet = read ? await closeTableSession(ctx, read, table.tableId) : undefined;
  const seat = (await ctx.store.listSeats(table.tableId)).find((s) => s.playerId === playerId);
  const released =
    seat !== undefined &&
    (await tryTransact(ctx.store, [
      {
        kind: 'update',
        entity: 'seat',
        key: { tableId: table.tableId, seat: seat.seat },
        set: { playerId: null, lastRound: null, since: null, updatedAt: ctx.now() },
        expect: { playerId },
      },
    ]));
  const balance = wallet ? wallet.balance : await outside!();
  return {
    tableId: table.tableId,
    playerId,
    commissionCollected,
    balance,
    seatReleased: released ? seat.seat : null,
  };
}
