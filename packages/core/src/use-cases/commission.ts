import { digest } from '@pyb/fairness';
/**
 * Deferred commission (seed 000): kept per player and shoe at his seat's box, collected when the shoe
 * ends (its last round settled: collectShoeDebts) or when the player leaves the table, whichever comes
 * first; the shoe's close collects whatever is left. The wallet always covers it (a bet or a debit
 * never takes what is owed), so a collection cannot fail for lack of funds.
 */
import { nextAudit, putAudit } from '../audit-chain';
import { commissionKey } from '../ledger-keys';
import type { DebtRecord } from '../model';
import { TransactionCanceled, type WriteOp } from '../ports/store';
import { backoff, MAX_ATTEMPTS, mapBounded, tooMuchContention } from '../retry';
import { type MovementPlan, planMovement } from '../wallet-ledger';
import { type Ctx, requestHash } from './context';

/** Collects what `debt` (as listed) still owes; returns the amount collected (0 if nothing was owed). */
export async function collectDebt(
  ctx: Ctx,
  listed: DebtRecord,
  leaving: { tableId: string } | undefined,
): Promise<number> {
  const key = { shoeId: listed.shoeId, operatorId: listed.operatorId, playerId: listed.playerId };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const debt = await ctx.store.get('debt', key);
    if (!debt || debt.owed === 0) return 0;
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
    const ops: WriteOp[] = [
      {
        kind: 'update',
        entity: 'debt',
        key,
        set: { owed: 0, updatedAt: at },
        add: { collected: debt.owed, collections: 1 },
        expect: { owed: debt.owed, collections: debt.collections },
      },
      ...plan.ops,
    ];
    if (leaving) {
      const collection = { id: debt.playerId, commission: debt.owed, ledgerSeq: plan.entry.seq };
      ops.push(
        putAudit(
          // Public in the shoe's proof: who and how much only through a digest.
          await nextAudit(ctx.store, debt.shoeId, 'PLAYER_LEFT', undefined, at, {
            tableId: leaving.tableId,
            collectionDigest: digest([collection]),
          }),
        ),
      );
    }
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

/**
 * The shoe ended (its last coup settled): every player's deferred commission is collected now, in
 * this process when few owe, else handed to the settlement queue in batches. Idempotent: a debt
 * collected is at 0, so calling it again (resolve on the settled last round) collects only what is left.
 */
export async function collectShoeDebts(ctx: Ctx, shoeId: string): Promise<void> {
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
