import { digest } from '@pyb/fairness';
/**
 * Deferred commission (seed 000): owed per player per shoe, collected when the shoe ends or the player
 * leaves the table. The wallet always covers it (a bet or a debit never takes what is owed), so a
 * collection cannot fail for lack of funds.
 */
import type { Actor } from '../actor';
import type { LeaveTableResult } from '../api';
import { nextAudit, putAudit } from '../audit-chain';
import { DomainError } from '../errors';
import { commissionKey } from '../ledger-keys';
import type { DebtRecord } from '../model';
import { TransactionCanceled, type WriteOp } from '../ports/store';
import { backoff, MAX_ATTEMPTS, tooMuchContention } from '../retry';
import { type MovementPlan, planMovement } from '../wallet-ledger';
import { type Ctx, checkPlayerId, requestHash } from './context';
import { loadTable } from './tables';

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

/** A player leaving the table pays the commission he owes for the shoe in play. */
export async function leaveTable(
  ctx: Ctx,
  actor: Actor,
  input: { tableId: string; playerId: string },
): Promise<LeaveTableResult> {
  const table = await loadTable(ctx, actor, input.tableId, 'write');
  const playerId = checkPlayerId(input.playerId);
  let commissionCollected = 0;
  if (table.currentShoeId) {
    const debt = await ctx.store.get('debt', {
      shoeId: table.currentShoeId,
      operatorId: table.operatorId,
      playerId,
    });
    if (debt && debt.owed > 0) commissionCollected = await collectDebt(ctx, debt, { tableId: table.tableId });
  }
  const wallet = await ctx.store.get('wallet', { operatorId: table.operatorId, playerId });
  if (!wallet) throw new DomainError('NOT_FOUND', 'WALLET_NOT_FOUND', `wallet ${playerId} not found`);
  return { tableId: table.tableId, playerId, commissionCollected, balance: wallet.balance };
}
