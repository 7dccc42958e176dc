/**
 * The seamless stake source (stake-source.ts; docs/seamless-wallet.md): the player's money is in the
 * operator's wallet. A bet is a signed debit sent before the position's transaction
 * (seamless-bets.ts); a withdrawal, a payout, a reserve given back and a refund are credits written
 * with the position's transaction as outbox records, then delivered (redelivered until OK, same txId).
 * A seamless position numbers its money movements: calls 1..n, then its payout or refund.
 */
import { creditPart, debitTxIdOf, sendToOutbox, withdrawTxIdOf } from '../seamless';
import { type Ctx, type OperatorRecord, unavailable } from '../shared';
import { shoeConfig } from './bet-parts';
import { placeSeamlessBet } from './seamless-bets';
import { withdrawSeamless } from './seamless-withdraw';
import { seamlessCredits } from './settle-credits';
import type { StakeSource } from './stake-source';

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

/** The operator a seamless source was chosen for (stake-sources.ts chooses it from that record). */
function chosenFor(operator: OperatorRecord | undefined): OperatorRecord {
  if (!operator) throw new Error('the seamless stake source is chosen only for a seamless operator');
  return operator;
}

export const seamlessStake: StakeSource = {
  mode: 'seamless',

  change(ctx, { facts, config, change, idempotencyKey, operator, fresh }) {
    const txIds = {
      debit: debitTxIdOf(facts.operatorId, facts.roundId, change.playerId, idempotencyKey),
      withdraw: withdrawTxIdOf(facts.operatorId, facts.roundId, change.playerId, idempotencyKey),
    };
    return change.kind === 'BET'
      ? placeSeamlessBet(ctx, { facts, config, change, operator: chosenFor(operator), txIds, fresh })
      : withdrawSeamless(ctx, { facts, config, change, txIds, fresh });
  },

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
      seamlessBalance(ctx, chosenFor(operator), playerId, currency),
};
