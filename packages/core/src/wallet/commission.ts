import { collectionRecord, saltedDigest } from '@pyb/fairness';
import type { DebtRecord } from '../shared';
import {
  attempts,
  backoff,
  commissionKey,
  mapBounded,
  requestHash,
  TransactionCanceled,
  tooMuchContention,
  type WriteOp,
} from '../shared';
/**
 * Deferred commission (seed 000): kept per player and shoe at his seat's box, collected when the shoe
 * ends (its last round settled: collectShoeDebts) or when the player leaves the table, whichever comes
 * first; the shoe's close collects whatever is left. The wallet always covers it (a bet or a debit
 * never takes what is owed), so a collection cannot fail for lack of funds. A seamless player's debt
 * was taken by his bets' commission reserves: its collection only records it (collectSeamlessDebt).
 */
import { digestSaltOf, nextAudit, putAudit } from '../trail';
import type { WalletCtx } from './ctx';
import { type MovementPlan, planMovement } from './wallet-ledger';

/** Collects what `debt` (as listed) still owes; returns the amount collected (0 if nothing was owed). */
export async function collectDebt(
  ctx: WalletCtx,
  listed: DebtRecord,
  leaving: { tableId: string } | undefined,
): Promise<number> {
  const key = { shoeId: listed.shoeId, operatorId: listed.operatorId, playerId: listed.playerId };
  for (const attempt of attempts(ctx)) {
    const debt = await ctx.store.get('debt', key);
    if (!debt || debt.owed === 0) return 0;
    if (debt.wallet === 'seamless') {
      if (await collectSeamlessDebt(ctx, debt, leaving)) return debt.owed;
      await backoff(attempt);
      continue;
    }
    const wallet = await ctx.store.get('wallet', { operatorId: debt.operatorId, playerId: debt.playerId });
    if (!wallet) throw new Error(`wallet of ${debt.playerId} missing while it owes commission`);
    const at = ctx.now();
    const n = debt.collections + 1;
    let plan: MovementPlan;
    try {
      plan = planMovement(wallet, {
        kind: 'COMMISSION',
        key: commissionKey(debt.shoeId, debt.playerId, n),
        requestHash: requestHash('commission', { shoeId: debt.shoeId, owed: debt.owed, n }),
        amount: -debt.owed,
        owed: -debt.owed,
        shoeId: debt.shoeId,
        at,
      });
    } catch (error) {
      // A concurrent collection may have landed between the two reads: start again from what is there.
      const now = await ctx.store.get('debt', key);
      if (now?.collections === debt.collections && now.owed === debt.owed) throw error;
      continue;
    }
    const ops: WriteOp[] = [collectedPart(debt, at), ...plan.ops];
    if (leaving) ops.push(await playerLeft(ctx, debt, leaving, plan.entry.seq, at));
    try {
      await ctx.store.transact(ops);
      return debt.owed;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt);
    }
  }
  throw tooMuchContention('collecting commission');
}

/** The debt marked collected (conditional on the state it was read in). */
const collectedPart = (debt: DebtRecord, at: string): WriteOp => ({
  kind: 'update',
  entity: 'debt',
  key: { shoeId: debt.shoeId, operatorId: debt.operatorId, playerId: debt.playerId },
  set: { owed: 0, updatedAt: at },
  add: { collected: debt.owed, collections: 1 },
  expect: { owed: debt.owed, collections: debt.collections },
});

/** PLAYER_LEFT: public in the shoe's proof, so who and how much only through a digest. */
async function playerLeft(
  ctx: WalletCtx,
  debt: DebtRecord,
  leaving: { tableId: string },
  ledgerSeq: number | null,
  at: string,
): Promise<WriteOp> {
  const collection = collectionRecord({ playerId: debt.playerId, commission: debt.owed, ledgerSeq });
  const salt = await digestSaltOf(ctx, debt.shoeId);
  return putAudit(
    await nextAudit(ctx.store, debt.shoeId, 'PLAYER_LEFT', undefined, at, {
      tableId: leaving.tableId,
      collectionDigest: saltedDigest(salt, [collection]),
    }),
  );
}

/**
 * A seamless player's debt: his Banca bets' commission reserves that they won, already debited from
 * the operator's wallet with the bets. Collecting it calls no wallet: it records the commission as
 * collected (for the ledger, GGR and the feed) at the moment the hosted one would be. False: a
 * concurrent collection moved first (the caller re-reads).
 */
async function collectSeamlessDebt(
  ctx: WalletCtx,
  debt: DebtRecord,
  leaving: { tableId: string } | undefined,
): Promise<boolean> {
  const at = ctx.now();
  const ops: WriteOp[] = [
    { ...collectedPart(debt, at), append: { log: [{ at, amount: debt.owed }] } } as WriteOp,
  ];
  if (leaving) ops.push(await playerLeft(ctx, debt, leaving, null, at));
  try {
    await ctx.store.transact(ops);
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    return false;
  }
}

/**
 * The shoe ended (its last coup settled): every player's deferred commission is collected now, in
 * this process when few owe, else handed to the settlement queue in batches. Idempotent: a debt
 * collected is at 0, so calling it again (resolve on the settled last round) collects only what is left.
 */
export async function collectShoeDebts(ctx: WalletCtx, shoeId: string): Promise<void> {
  const owing = (await ctx.store.listDebts(shoeId)).filter((d) => d.owed > 0);
  if (owing.length === 0) return;
  if (ctx.queue && owing.length > ctx.inlineSettleMax) {
    const ids = owing.map((d) => d.playerId).sort();
    const batches = [];
    for (let i = 0; i < ids.length; i += ctx.settleBatchSize) {
      batches.push({ kind: 'collect' as const, shoeId, playerIds: ids.slice(i, i + ctx.settleBatchSize) });
    }
    await ctx.queue.send(batches);
    return;
  }
  await mapBounded(owing, ctx.settleConcurrency, (debt) => collectDebt(ctx, debt, undefined));
}
