/**
 * Settling a dealt round's positions: each paid once in its own transaction (settlePosition), then
 * the round finished (finishRound, ROUND_SETTLED) by whoever lands the last one; SETTLE is the same
 * work as the settlement queue's batches run it (fan-out.ts).
 */
import { betList, settle, type TableConfig } from '@pyb/engine';
import { settlementsDigest as settlementsDigestOf } from '@pyb/fairness';
import type { Ctx, PositionRecord, RoundRecord, WriteOp } from '../shared';
import { digestSaltOf, recordedPositions, totalsOf } from '../trail';
import { collectShoeDebts } from '../wallet';
import { shoeConfig } from './bet-parts';
import type { PositionWork } from './fan-out';
import { endRound, payPosition } from './round-end';
import type { StakeMoney } from './stake-source';
import { stakeMoneyOfPosition } from './stake-sources';

/**
 * Pays one position: the position marked settled (only if it was not), the wallet credited, the
 * ledger entry under `settle#<round>#<player>` (only if absent), and in DEFERRED mode the commission
 * added to the player's debt for the shoe, kept at his seat. One transaction, so it happens exactly
 * once. `listed` is the position as listed (undefined: read it).
 */
export async function settlePosition(
  ctx: Ctx,
  config: TableConfig,
  round: RoundRecord,
  listed: PositionRecord | { playerId: string },
): Promise<void> {
  const coup = round.coup!.result;
  const key = { roundId: round.roundId, playerId: listed.playerId };
  await payPosition(ctx, round, listed, 'settling a position', async (position, at) => {
    const settlement = settle(config, betList(position.bets), coup);
    const source = stakeMoneyOfPosition(position);
    const money = await source.settlementParts(ctx, { round, position, config, settlement, at });
    if (!money) return undefined; // settled by a concurrent resolver
    const ops: WriteOp[] = [...money.ops];
    if (settlement.commissionOwed > 0)
      ops.push(debtPart(round, position, source, settlement.commissionOwed, at));
    return {
      position: {
        kind: 'update',
        entity: 'position',
        key,
        set: {
          settledAt: at,
          settlement,
          ...(money.seq !== undefined && { settleSeq: money.seq }),
          // Index keys: a settled position enters the player's rounds (see the DynamoDB adapter).
          operatorId: position.operatorId,
          openedAt: position.openedAt,
        },
        expect: { settledAt: null, refundedAt: null },
      },
      ops,
      outbox: money.outbox,
      source,
    };
  });
}

/** Commission added to the player's debt for the shoe, kept at the seat of the position that owes it. */
function debtPart(
  round: RoundRecord,
  position: PositionRecord,
  source: StakeMoney,
  owed: number,
  at: string,
): WriteOp {
  const key = { shoeId: round.shoeId, operatorId: round.operatorId, playerId: position.playerId };
  return {
    kind: 'update',
    entity: 'debt',
    key,
    upsert: true,
    set: {
      ...key,
      seat: position.seat ?? null,
      updatedAt: at,
      ...source.debtMark,
    },
    add: { owed, collected: 0, collections: 0 },
  };
}

/**
 * Once every position is paid: ROUND_SETTLED (digest of the settlements) and the table is free again,
 * then the round's head signed (its receipt). Whoever lands the last settlement calls it (resolve, or
 * the batch that finished a fanned-out round); false when a position is still open or a concurrent
 * writer moved first (the caller re-reads). The one place a round becomes SETTLED; a crash between the
 * transaction and the signature is healed by the next look at the round (resolve, a redelivered batch:
 * signRoundHead on a finished round without a head).
 */
export async function finishRound(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const positions = await ctx.store.listPositions(round.roundId);
  if (positions.some((p) => !p.settledAt)) return false;
  const settlementsDigest = settlementsDigestOf(
    recordedPositions(positions),
    await digestSaltOf(ctx, round.shoeId),
  );
  const totals = totalsOf(positions);
  const at = ctx.now();
  const finished = await endRound(
    ctx,
    round,
    at,
    { type: 'ROUND_SETTLED', payload: { settlementsDigest, positions: positions.length } },
    (seq) => ({ status: 'SETTLED', settledAt: at, settlementsDigest, totals, 'audit.settled': seq }),
    { status: { in: ['DEALT', 'SETTLING'] } },
  );
  if (!finished) return false;
  if (round.coup?.last) await collectShoeDebts(ctx, round.shoeId);
  return true;
}

/** Settlement as the settlement queue's batches run it (fan-out.ts). */
export const SETTLE: PositionWork = {
  kind: 'settle',
  one: async (ctx, round, playerId) =>
    settlePosition(ctx, await shoeConfig(ctx, round.shoeId), round, { playerId }),
  finish: finishRound,
  finished: (round) => round.status === 'SETTLED',
};
