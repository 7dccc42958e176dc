/** A player leaving a table (seed 000: his deferred commission is collected then). */
import type { Actor, LeaveTableResult, OperatorRecord } from '../shared';
import { type Ctx, checkPlayerId, notFound, tryTransact, unavailable } from '../shared';
import { loadTable } from '../tables';
import { closeTableSession, collectDebt, operatorOf } from '../wallet';
import { shoeConfig } from './bet-parts';
import { settlePosition } from './settle';

/** A seamless player's balance, as the operator's wallet answers it (503 if it does not answer). */
async function seamlessBalance(
  ctx: Ctx,
  operator: OperatorRecord,
  playerId: string,
  currency: string,
): Promise<number> {
  const answer = await ctx.wallets(operator).balance({ playerId, currency });
  if (answer.outcome === 'OK') return answer.answer.balance;
  throw unavailable(
    'WALLET_UNAVAILABLE',
    "the operator's wallet did not answer the balance: the seat is released",
    1,
  );
}

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
  const operator = read ? undefined : await operatorOf(ctx, table.operatorId);
  if (!read && operator?.walletMode !== 'seamless') throw notFound('wallet', playerId);
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
  const balance = wallet
    ? wallet.balance
    : await seamlessBalance(ctx, operator!, playerId, table.config.currency);
  return {
    tableId: table.tableId,
    playerId,
    commissionCollected,
    balance,
    seatReleased: released ? seat.seat : null,
  };
}
