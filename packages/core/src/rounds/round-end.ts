/**
 * What settling a dealt round (settle.ts) and voiding one (void.ts) share: each position paid (or
 * refunded) once by its own conditional transaction, the positions worked in the request when few
 * or handed to the settlement queue when many, and the round finished — its closing audit event,
 * the table freed and the round's head signed — by whoever lands the last position.
 */
import type { AuditEventType, Ctx, Expect, PositionRecord, RoundRecord, WriteOp } from '../shared';
import {
  attempts,
  backoff,
  mapBounded,
  TransactionCanceled,
  tooMuchContention,
  tryTransact,
} from '../shared';
import { signRoundHead } from '../shoes';
import { nextAudit, putAudit } from '../trail';
import { fanOut, type PositionWork } from './fan-out';
import type { StakeMoney } from './stake-source';

/** One position's payment: the position's own update (first: its condition tells a concurrent payer apart), the rest of the transaction, and what its stake source delivers after it (the seamless credits). */
export interface PositionPayment {
  position: WriteOp;
  ops: WriteOp[];
  outbox: string[];
  source: StakeMoney;
}

/**
 * Pays one position once: read it (`listed` as listed, else from the store), skip it when it is
 * settled or refunded, build its transaction (`pay`, undefined: done by a concurrent payer) and
 * commit it; a transaction whose position condition failed was paid by a concurrent payer, any other
 * conflict is retried on a fresh read.
 */
export async function payPosition(
  ctx: Ctx,
  round: RoundRecord,
  listed: PositionRecord | { playerId: string },
  what: string,
  pay: (position: PositionRecord, at: string) => Promise<PositionPayment | undefined>,
): Promise<void> {
  const key = { roundId: round.roundId, playerId: listed.playerId };
  for (const n of attempts(ctx)) {
    const position = n === 0 && 'calls' in listed ? listed : await ctx.store.get('position', key);
    if (!position || position.settledAt || position.refundedAt) return;
    const payment = await pay(position, ctx.now());
    if (!payment) return;
    try {
      await ctx.store.transact([payment.position, ...payment.ops]);
      ctx.metrics.count('SettledPositions', 1);
      await payment.source.afterCommit(ctx, payment.outbox);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (error.failed(0)) return; // paid by a concurrent call
      await backoff(n);
    }
  }
  throw tooMuchContention(what);
}

/**
 * The round's open positions worked in this request when they are few (ctx.inlineSettleMax) or no
 * queue is wired, then the round finished; else handed to the settlement queue in batches. `each`
 * makes the worker of one position (what it needs is read only when the work stays here).
 */
export async function inlineOrHandOver(
  ctx: Ctx,
  round: RoundRecord,
  positions: readonly PositionRecord[],
  work: PositionWork,
  each: () => Promise<(position: PositionRecord) => Promise<void>>,
): Promise<boolean> {
  const open = positions.filter((p) => !p.settledAt && !p.refundedAt);
  if (ctx.queue && open.length > ctx.inlineSettleMax) return fanOut(ctx, round, work, positions);
  const one = await each();
  await mapBounded(open, ctx.settleConcurrency, one);
  return work.finish(ctx, round);
}

/**
 * The round's last step: its closing event appended to the shoe's chain, and in ONE transaction the
 * round moved to its end state (`set`, from the states `from`), the table freed and the event
 * stored; then the round's head signed (its receipt). False when a concurrent writer moved first.
 */
export async function endRound(
  ctx: Ctx,
  round: RoundRecord,
  at: string,
  event: { type: AuditEventType; payload: Record<string, unknown> },
  set: (seq: number) => Record<string, unknown>,
  from: Expect,
): Promise<boolean> {
  const record = await nextAudit(ctx.store, round.shoeId, event.type, round.roundId, at, event.payload);
  const finished = await tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: set(record.seq),
      expect: from,
    },
    {
      kind: 'update',
      entity: 'table',
      key: { tableId: round.tableId },
      set: { openRoundId: null },
      expect: { openRoundId: round.roundId },
    },
    putAudit(record),
  ]);
  if (finished) await signRoundHead(ctx, (await ctx.store.get('round', { roundId: round.roundId }))!);
  return finished;
}
