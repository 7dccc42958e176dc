/**
 * The hosted stake source's money (stake-source.ts; its calls: hosted-stake-calls.ts): the player's money is in the platform's wallet item, and
 * every movement of it — a bet's debit, a withdrawal, a payout, a refund — is a wallet update and a
 * ledger entry keyed by its idempotency key, inside the position's own conditional transaction.
 */
import { notFound, refundKey, requestHash, settleKey } from '../shared';
import { planPositionMovement } from '../wallet';
import type { StakeMoney } from './stake-source';

export const hostedStakeMoney: StakeMoney = {
  mode: 'hosted',

  async settlementParts(ctx, { round, position, settlement, at }) {
    // Nothing to pay, owe or give back: the position is only marked settled.
    if (!(settlement.payout > 0 || settlement.commissionOwed > 0 || position.reserve > 0)) {
      return { ops: [], outbox: [] };
    }
    const key = { roundId: round.roundId, playerId: position.playerId };
    const wallet = (await ctx.store.get('wallet', {
      operatorId: round.operatorId,
      playerId: position.playerId,
    }))!;
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
    return { seq: plan.entry.seq, ops: plan.ops, outbox: [] };
  },

  async refundParts(ctx, { round, position, at }) {
    // A position whose bets were all withdrawn holds nothing: it is marked refunded, no money moves.
    if (!(position.stake > 0 || position.reserve > 0)) return { ops: [], outbox: [] };
    const key = { roundId: round.roundId, playerId: position.playerId };
    const plan = await planPositionMovement(
      ctx,
      key,
      (await ctx.store.get('wallet', { operatorId: round.operatorId, playerId: position.playerId }))!,
      {
        kind: 'REFUND',
        key: refundKey(round.roundId, position.playerId),
        requestHash: requestHash('refund', { roundId: round.roundId, stake: position.stake }),
        amount: position.stake,
        reserved: -position.reserve,
        roundId: round.roundId,
        shoeId: round.shoeId,
        tableId: round.tableId,
        reference: round.voidReason,
        ...(position.sessionId !== undefined && { sessionId: position.sessionId }),
        at,
      },
    );
    if (!plan) return undefined; // refunded by a concurrent call
    return { seq: plan.entry.seq, ops: plan.ops, outbox: [] };
  },

  afterCommit: async () => {},

  debtMark: {},

  leavingBalance: (_ctx, { playerId }) => {
    throw notFound('wallet', playerId);
  },
};
