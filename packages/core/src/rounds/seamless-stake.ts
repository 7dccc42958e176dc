/**
 * The seamless stake source's money (stake-source.ts; docs/seamless-wallet.md; its calls:
 * seamless-stake-calls.ts): the player's money is in the
 * operator's wallet. A bet is a signed debit sent before the position's transaction
 * (seamless-bets.ts); a withdrawal, a payout, a reserve given back and a refund are credits written
 * with the position's transaction as outbox records, then delivered (redelivered until OK, same txId).
 * A seamless position numbers its money movements: calls 1..n, then its payout or refund.
 */
import { creditPart, sendToOutbox } from '../seamless';
import { type Ctx, type OperatorRecord, unavailable } from '../shared';
import { shoeConfig } from './bet-parts';
import { seamlessCredits } from './settle-credits';
import { type StakeMoney, seamlessOperator } from './stake-source';

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

export const seamlessStakeMoney: StakeMoney = {
  mode: 'seamless',

  async settlementParts(_ctx, { position, config, settlement, at }) {
    // The payout (and a commission reserve given back) are credits in the outbox, written with the
    // settlement (no wallet item).
    const credits = seamlessCredits(position, settlement, config, at);
    return {
      ...(settlement.payout > 0 && { seq: position.calls + 1 }),
      ops: credits.map((c) => c.op),
      outbox: credits.map((c) => c.txId),
    };
  },

  async refundParts(ctx, { round, position, at }) {
    // A position whose bets were all withdrawn holds nothing: it is marked refunded, no money moves.
    if (!(position.stake > 0 || position.reserve > 0)) return { ops: [], outbox: [] };
    // The refund is a credit in the outbox, written with the refund; it gives the commission reserve
    // back with the stake.
    const credit = creditPart(
      position,
      'REFUND',
      position.stake + position.reserve,
      (await shoeConfig(ctx, round.shoeId)).currency,
      at,
      position.reserve,
    );
    return { seq: position.calls + 1, ops: [credit.op], outbox: [credit.txId] };
  },

  async afterCommit(ctx, outbox) {
    if (outbox.length > 0) await sendToOutbox(ctx, outbox);
  },

  debtMark: { wallet: 'seamless' },

  leavingBalance:
    (ctx, { operator, playerId, currency }) =>
    () =>
      seamlessBalance(ctx, seamlessOperator(operator), playerId, currency),
};
