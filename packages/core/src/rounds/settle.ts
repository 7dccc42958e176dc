/**
 * Settling a dealt round's positions: each paid once in its own transaction (settlePosition), then
 * the round finished (finishRound, ROUND_SETTLED) by whoever lands the last one; SETTLE is the same
 * work as the settlement queue's batches run it (fan-out.ts).
 */
import { betList, type PositionSettlement, settle, type TableConfig } from '@pyb/engine';
import { settlementsDigest as settlementsDigestOf } from '@pyb/fairness';
import { creditPart } from '../seamless';
import type { PositionRecord, RoundRecord } from '../shared';
import { type Ctx, requestHash, settleKey, type WriteOp } from '../shared';
import { recordedPositions, totalsOf } from '../trail';
import { collectShoeDebts, planPositionMovement } from '../wallet';
import { shoeConfig } from './bet-parts';
import type { PositionWork } from './fan-out';
import { endRound, payPosition } from './round-end';

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
  const walletKey = { operatorId: round.operatorId, playerId: listed.playerId };
  await payPosition(ctx, round, listed, 'settling a position', async (position, at) => {
    const settlement = settle(config, betList(position.bets), coup);
    const ops: WriteOp[] = [];
    let settleSeq: number | undefined;
    // Seamless: the payout (and a commission reserve given back) are credits in the outbox, written
    // with the settlement (no wallet item).
    const credits = position.wallet === 'seamless' ? seamlessCredits(position, settlement, config, at) : [];
    if (position.wallet === 'seamless') {
      // A seamless position numbers its money movements: calls 1..n, then its payout.
      if (settlement.payout > 0) settleSeq = position.calls + 1;
      ops.push(...credits.map((c) => c.op));
      if (settlement.commissionOwed > 0) ops.push(debtPart(round, position, settlement.commissionOwed, at));
    } else if (settlement.payout > 0 || settlement.commissionOwed > 0 || position.reserve > 0) {
      const wallet = (await ctx.store.get('wallet', walletKey))!;
      const plan = await planPositionMovement(ctx, key, wallet, {
        kind: 'PAYOUT',
        key: settleKey(round.roundId, position.playerId),
        requestHash: requestHash('settle', { roundId: round.roundId, settlement }),
        amount: settlement.payout,
        owed: settlement.commissionOwed,
        reserved: -position.reserve,
        roundId: round.roundId,
        shoeId: round.shoeId,
        tableId: round.tableId,
        ...(position.sessionId !== undefined && { sessionId: position.sessionId }),
        at,
      });
      if (!plan) return undefined; // settled by a concurrent resolver
      settleSeq = plan.entry.seq;
      ops.push(...plan.ops);
      if (settlement.commissionOwed > 0) ops.push(debtPart(round, position, settlement.commissionOwed, at));
    }
    return {
      position: {
        kind: 'update',
        entity: 'position',
        key,
        set: {
          settledAt: at,
          settlement,
          ...(settleSeq !== undefined && { settleSeq }),
          // Index keys: a settled position enters the player's rounds (see the DynamoDB adapter).
          operatorId: position.operatorId,
          openedAt: position.openedAt,
        },
        expect: { settledAt: null, refundedAt: null },
      },
      ops,
      outbox: credits.map((c) => c.txId),
    };
  });
}

/** Commission added to the player's debt for the shoe, kept at the seat of the position that owes it. */
function debtPart(round: RoundRecord, position: PositionRecord, owed: number, at: string): WriteOp {
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
      ...(position.wallet === 'seamless' && { wallet: 'seamless' }),
    },
    add: { owed, collected: 0, collections: 0 },
  };
}

/**
 * A seamless position's credits at settlement: its PAYOUT (stake back plus winnings, in full: a
 * DEFERRED table takes no commission at payment), and the COMMISSION_RELEASE of its commission
 * reserve less what it now owes (a Banca bet that lost or pushed gets it all back; one that won owes
 * exactly its reserve, kept as the commission: docs/rules.md, "Deferred commission in seamless mode").
 */
export function seamlessCredits(
  position: PositionRecord,
  settlement: PositionSettlement,
  config: TableConfig,
  at: string,
): { op: WriteOp; txId: string }[] {
  const released = reserveReleased(position.reserve, settlement);
  return [
    ...(settlement.payout > 0
      ? [creditPart(position, 'PAYOUT', settlement.payout, config.currency, at)]
      : []),
    ...(released > 0 ? [creditPart(position, 'COMMISSION_RELEASE', released, config.currency, at)] : []),
  ];
}

/**
 * What a settled position's commission reserve gives back: the reserve less the commission the
 * settlement adds to the debt. The reserve is the worst case, so it always covers what is owed.
 */
export function reserveReleased(reserve: number, settlement: PositionSettlement): number {
  const released = reserve - settlement.commissionOwed;
  if (released < 0)
    throw new Error(`commission owed ${settlement.commissionOwed} exceeds the reserve ${reserve}`);
  return released;
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
  const settlementsDigest = settlementsDigestOf(recordedPositions(positions));
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
