import type { WalletMode } from '@pyb/contracts';
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
  walletOfMark,
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

/**
 * How a debt is collected once read: `collected`, or `contended` (a concurrent write moved first:
 * back off, re-read) or `moved` (it changed between two reads: re-read at once).
 */
type Collection = 'collected' | 'contended' | 'moved';

/**
 * A debt's collection and records, by the wallet its positions' stakes were in (the debt's mark, set
 * from StakeMoney.debtMark): the hosted one moves money in the player's wallet ledger; the seamless
 * one was taken by the bets' commission reserves, so it only records the collection on the debt.
 */
export interface DebtBooks {
  collect(ctx: WalletCtx, debt: DebtRecord, leaving: { tableId: string } | undefined): Promise<Collection>;
  /** The collections recorded on the debt itself (the hosted ones are wallet ledger entries instead). */
  logged(debt: DebtRecord): NonNullable<DebtRecord['log']>;
}

const hostedDebts: DebtBooks = { collect: collectHostedDebt, logged: () => [] };
const seamlessDebts: DebtBooks = { collect: collectSeamlessDebt, logged: (debt) => debt.log ?? [] };
const DEBT_BOOKS: Readonly<Record<WalletMode, DebtBooks>> = { hosted: hostedDebts, seamless: seamlessDebts };

/** The books of the wallet a debt was run up in. */
export const debtBooksOf = (debt: DebtRecord): DebtBooks => DEBT_BOOKS[walletOfMark(debt)];

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
    const outcome = await debtBooksOf(debt).collect(ctx, debt, leaving);
    if (outcome === 'collected') return debt.owed;
    if (outcome === 'contended') await backoff(attempt);
  }
  throw tooMuchContention('collecting commission');
}

/** A hosted player's debt: taken from his wallet, a COMMISSION entry of his ledger. */
async function collectHostedDebt(
  ctx: WalletCtx,
  debt: DebtRecord,
  leaving: { tableId: string } | undefined,
): Promise<Collection> {
  const key = { shoeId: debt.shoeId, operatorId: debt.operatorId, playerId: debt.playerId };
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
    return 'moved';
  }
  const ops: WriteOp[] = [collectedPart(debt, at), ...plan.ops];
  if (leaving) ops.push(await playerLeft(ctx, debt, leaving, plan.entry.seq, at));
  try {
    await ctx.store.transact(ops);
    return 'collected';
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    return 'contended';
  }
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
 * collected (for the ledger, GGR and the feed) at the moment the hosted one would be. `contended`: a
 * concurrent collection moved first (the caller re-reads).
 */
async function collectSeamlessDebt(
  ctx: WalletCtx,
  debt: DebtRecord,
  leaving: { tableId: string } | undefined,
): Promise<Collection> {
  const at = ctx.now();
  const ops: WriteOp[] = [
    { ...collectedPart(debt, at), append: { log: [{ at, amount: debt.owed }] } } as WriteOp,
  ];
  if (leaving) ops.push(await playerLeft(ctx, debt, leaving, null, at));
  try {
    await ctx.store.transact(ops);
    return 'collected';
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    return 'contended';
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
