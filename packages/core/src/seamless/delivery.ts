/**
 * Delivering the outbox (docs/seamless-wallet.md §5): a pending credit or rollback, named by its txId,
 * sent to the operator's wallet until it answers OK. Run by the outbox queue's consumer — the SQS
 * Lambda on AWS, the in-process queue locally and in the tests — for each message.
 *
 * Idempotent: a record already final is left alone (a redelivered message does nothing); two
 * deliveries at once send the same txId, which the wallet books once. While the wallet's answer is
 * unknown (timeout, 5xx, bad signature) it throws `SeamlessDeliveryPending`, so the queue delivers the
 * message again with backoff, then dead-letters it (alarmed); the record stays pending and
 * reconciliation names it.
 */
import type { SeamlessRequests } from '@pyb/contracts';
import type { DeliveryResult, SeamlessTxRecord, Wallet, WalletOutcome } from '../shared';
import { TransactionCanceled, type WriteOp } from '../shared';
import { operatorOf } from '../wallet';
import type { SeamlessCtx } from './ctx';
import { isPendingState, referencesOf, rollbackParts } from './tx';

/** A debit still DEBIT_PENDING this long after it was sent is abandoned: rolled back. */
export const DEBIT_ABANDON_MS = 30_000;

/** The wallet has not acknowledged the call yet: the queue must deliver the message again. */
export class SeamlessDeliveryPending extends Error {
  override readonly name = 'SeamlessDeliveryPending';
  constructor(
    readonly txId: string,
    readonly reason: string,
  ) {
    super(`seamless ${txId} not acknowledged: ${reason}`);
  }
}

/** The wallet of the operator a record belongs to. */
async function walletFor(ctx: SeamlessCtx, tx: SeamlessTxRecord): Promise<Wallet> {
  const operator = await operatorOf(ctx, tx.operatorId);
  if (!operator?.seamless) throw new Error(`operator ${tx.operatorId} has no seamless wallet configured`);
  return ctx.wallets(operator);
}

function call(wallet: Wallet, tx: SeamlessTxRecord): Promise<WalletOutcome> {
  if (tx.op === 'CREDIT') {
    const request: SeamlessRequests['credit'] = {
      ...referencesOf(tx),
      kind: tx.creditKind ?? 'PAYOUT',
      ...(tx.debitTxIds !== undefined && tx.debitTxIds.length > 0 && { debitTxIds: tx.debitTxIds }),
    };
    return wallet.credit(request);
  }
  return wallet.rollback({ ...referencesOf(tx), debitTxId: tx.debitTxId! });
}

/** Delivers one pending credit or rollback (or abandons a stale debit and delivers its rollback). */
export async function deliverSeamlessTx(ctx: SeamlessCtx, txId: string): Promise<DeliveryResult> {
  const tx = await ctx.store.get('seamlessTx', { txId });
  if (!tx) throw new Error(`seamless transaction ${txId} not found`);
  if (!isPendingState(tx.state)) return { txId, state: tx.state, delivered: false };
  if (tx.op === 'DEBIT') {
    // A debit's rollback is its own record; a debit still pending is a bet in flight, unless abandoned.
    if (tx.state === 'ROLLBACK_PENDING') return deliverSeamlessTx(ctx, tx.rollbackTxId!);
    const since = Date.parse(tx.attemptedAt ?? tx.createdAt);
    if (ctx.clock.now().getTime() - since < DEBIT_ABANDON_MS)
      throw new SeamlessDeliveryPending(txId, 'the bet that sent this debit may still be waiting for it');
    const rollbackTxId = await abandonDebit(ctx, tx, 'ABANDONED');
    return deliverSeamlessTx(ctx, rollbackTxId);
  }
  const wallet = await walletFor(ctx, tx);
  const at = ctx.now();
  const outcome = await call(wallet, tx);
  if (outcome.outcome !== 'OK') {
    const reason =
      outcome.outcome === 'UNKNOWN' ? outcome.reason : `refused ${outcome.code}: ${outcome.message ?? ''}`;
    // Counted and explained on the record (best effort: the queue's retry is what matters).
    await ctx.store
      .transact([
        {
          kind: 'update',
          entity: 'seamlessTx',
          key: { txId },
          set: {
            attemptedAt: at,
            updatedAt: at,
            lastError: reason.slice(0, 500),
            ...(outcome.outcome === 'REFUSED' && {
              refusal: {
                code: outcome.code,
                ...(outcome.message !== undefined && { message: outcome.message }),
              },
            }),
          },
          add: { attempts: 1 },
          expect: { state: tx.state },
        },
      ])
      .catch((error: unknown) => {
        if (!(error instanceof TransactionCanceled)) throw error;
      });
    ctx.metrics.count(
      outcome.outcome === 'REFUSED' ? 'SeamlessRefusedDeliveries' : 'SeamlessUnknownDeliveries',
      1,
    );
    throw new SeamlessDeliveryPending(txId, reason);
  }
  const final = tx.op === 'CREDIT' ? 'CREDITED' : 'ROLLED_BACK';
  const ops: WriteOp[] = [
    {
      kind: 'update',
      entity: 'seamlessTx',
      key: { txId },
      set: {
        state: final,
        attemptedAt: at,
        resolvedAt: at,
        updatedAt: at,
        balanceAfter: outcome.answer.balance,
        ...(outcome.answer.operatorTxId !== undefined && { operatorTxId: outcome.answer.operatorTxId }),
        ...(outcome.answer.applied !== undefined && { applied: outcome.answer.applied }),
        lastError: null,
      },
      add: { attempts: 1 },
      expect: { state: tx.state },
    },
  ];
  if (tx.op === 'ROLLBACK') {
    ops.push({
      kind: 'update',
      entity: 'seamlessTx',
      key: { txId: tx.debitTxId! },
      set: { state: 'ROLLED_BACK', resolvedAt: at, updatedAt: at },
      expect: { state: 'ROLLBACK_PENDING' },
    });
  }
  try {
    await ctx.store.transact(ops);
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    // Delivered by a concurrent delivery (same txId: the wallet booked it once).
    const now = await ctx.store.get('seamlessTx', { txId });
    if (now && !isPendingState(now.state)) return { txId, state: now.state, delivered: false };
    throw error;
  }
  ctx.metrics.count(tx.op === 'CREDIT' ? 'SeamlessCredits' : 'SeamlessRollbacks', 1);
  return { txId, state: final, delivered: true };
}

/**
 * Gives up a debit still DEBIT_PENDING (its outcome unknown, the gate closed, or abandoned): the
 * rollback goes to the outbox in the same transaction. Returns the rollback's txId (also when another
 * caller gave it up first).
 */
export async function abandonDebit(
  ctx: SeamlessCtx,
  debit: SeamlessTxRecord,
  reason: NonNullable<SeamlessTxRecord['rollbackReason']>,
  lastError?: string,
): Promise<string> {
  const parts = rollbackParts(debit, reason, ctx.now(), lastError);
  try {
    await ctx.store.transact(parts.ops);
  } catch (error) {
    if (!(error instanceof TransactionCanceled)) throw error;
    const now = await ctx.store.get('seamlessTx', { txId: debit.txId });
    if (now?.state === 'ROLLBACK_PENDING' || now?.state === 'ROLLED_BACK') return now.rollbackTxId!;
    throw error;
  }
  return parts.txId;
}

/**
 * Hands pending credits and rollbacks to the outbox queue, after the transaction that wrote them.
 * Without a queue, each is tried once here. Never throws: the records are written, and a record the
 * queue did not take stays pending — the daily reconciliation job (`reconcileSeamlessDay`) sends it again.
 */
export async function sendToOutbox(ctx: SeamlessCtx, txIds: readonly string[]): Promise<void> {
  if (txIds.length === 0) return;
  try {
    if (ctx.outbox) await ctx.outbox.send(txIds);
    else for (const txId of txIds) await deliverSeamlessTx(ctx, txId).catch(() => undefined);
  } catch {
    ctx.metrics.count('SeamlessOutboxSendFailed', txIds.length);
  }
}
