/**
 * Settling (or refunding) the positions of a round outside the request that dealt it: the positions,
 * by player id, are cut into batches of `ctx.settleBatchSize` and handed to the settlement queue. The
 * plan is deterministic (the positions are final after "no va más"), so any caller can re-derive batch
 * n. Each batch settles its positions (each its own conditional transaction: exactly once, however
 * often the batch runs), then records itself done (a `batch` item); whoever records the last one lists
 * the done batches, sees them all and finishes the round. A crash anywhere is resumed by the queue's
 * redelivery or by calling resolve (void) again, which re-sends the batches not done once overdue.
 */
import type { BatchKind, Ctx, PositionRecord, RoundBatches, RoundRecord } from '../shared';
import { attempts, backoff, mapBounded, tooMuchContention, tryTransact } from '../shared';
import { signRoundHead } from '../shoes';

/** What a fanned-out round does to each position and how it ends (settle: resolve.ts, refund: void.ts). */
export interface PositionWork {
  kind: BatchKind;
  /** Settles (refunds) one position; a no-op when it is done already. */
  one(ctx: Ctx, round: RoundRecord, playerId: string): Promise<void>;
  /** Finishes the round once every position is done; false when it cannot yet (re-read and retry). */
  finish(ctx: Ctx, round: RoundRecord): Promise<boolean>;
  /** The round is finished (nothing left to do). */
  finished(round: RoundRecord): boolean;
}

/** The batches of a round: player ids in order, cut in chunks of `size`. */
function batchesOf(positions: readonly Pick<PositionRecord, 'playerId'>[], size: number): string[][] {
  const ids = positions.map((p) => p.playerId).sort();
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  return chunks;
}

/**
 * Hands a round's positions to the queue: the plan recorded on the round (settle: DEALT -> SETTLING;
 * refund: the VOIDING round), then every batch sent, then `sentAt` stamped. False when another caller
 * recorded a plan first.
 */
export async function fanOut(
  ctx: Ctx,
  round: RoundRecord,
  work: PositionWork,
  positions: readonly PositionRecord[],
): Promise<boolean> {
  const chunks = batchesOf(positions, ctx.settleBatchSize);
  const plan: Omit<RoundBatches, 'sentAt'> = {
    kind: work.kind,
    count: chunks.length,
    size: ctx.settleBatchSize,
  };
  const recorded = await tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { batches: plan, ...(work.kind === 'settle' && { status: 'SETTLING' }) },
      expect: work.kind === 'settle' ? { status: 'DEALT' } : { status: 'VOIDING', batches: null },
    },
  ]);
  if (!recorded) return false;
  await send(
    ctx,
    round,
    work.kind,
    chunks.map((ids, n) => [n, ids]),
  );
  await stampSent(ctx, round.roundId, undefined);
  return true;
}

async function send(ctx: Ctx, round: RoundRecord, kind: BatchKind, batches: [number, string[]][]) {
  await ctx.queue!.send(
    batches.map(([batch, playerIds]) => ({ kind, roundId: round.roundId, batch, playerIds })),
  );
  ctx.metrics.count('SettlementBatchesSent', batches.length);
}

/** Records when the batches were sent; conditional on the previous stamp, so one caller re-sends per period. */
const stampSent = (ctx: Ctx, roundId: string, previous: string | undefined) =>
  tryTransact(ctx.store, [
    {
      kind: 'update',
      entity: 'round',
      key: { roundId },
      set: { 'batches.sentAt': ctx.now() },
      expect: { 'batches.sentAt': previous ?? null },
    },
  ]);

/**
 * A fanned-out round looked at again (resolve or void called again): finished if every batch is done;
 * else the batches not done are re-sent, once the last sending is older than ctx.batchResendMs (or was
 * never confirmed: a crash between recording the plan and sending it). Without a queue they run here.
 */
export async function resumeFanOut(ctx: Ctx, round: RoundRecord, work: PositionWork): Promise<void> {
  const plan = round.batches;
  if (!plan) throw new Error(`round ${round.roundId} is ${round.status} without a batch plan`);
  const done = new Set((await ctx.store.listBatches(round.roundId)).map((b) => b.batch));
  if (done.size >= plan.count) return finishWithRetries(ctx, round.roundId, work);
  const sentAt = plan.sentAt ? Date.parse(plan.sentAt) : Number.NEGATIVE_INFINITY;
  if (ctx.clock.now().getTime() - sentAt < ctx.batchResendMs) return;
  const missing = batchesOf(await ctx.store.listPositions(round.roundId), plan.size)
    .map((ids, n): [number, string[]] => [n, ids])
    .filter(([n]) => !done.has(n));
  if (!ctx.queue) {
    for (const [n, ids] of missing) await runBatch(ctx, round, work, n, ids);
    return;
  }
  if (await stampSent(ctx, round.roundId, plan.sentAt)) await send(ctx, round, plan.kind, missing);
}

/** One batch: its positions settled (refunded), the batch recorded done, the round finished by the last one. */
export async function runBatch(
  ctx: Ctx,
  round: RoundRecord,
  work: PositionWork,
  batch: number,
  playerIds: readonly string[],
): Promise<void> {
  await mapBounded(playerIds, ctx.settleConcurrency, (id) => work.one(ctx, round, id));
  // Already recorded (a redelivered batch) is fine: the put is the record, not a counter.
  await tryTransact(ctx.store, [
    {
      kind: 'put',
      entity: 'batch',
      key: { roundId: round.roundId, batch },
      item: {
        roundId: round.roundId,
        batch,
        kind: work.kind,
        positions: playerIds.length,
        doneAt: ctx.now(),
      },
    },
  ]);
  // Read after this batch's own record: the last batch to land sees every record.
  const done = await ctx.store.listBatches(round.roundId);
  if (done.length >= (round.batches?.count ?? Number.POSITIVE_INFINITY)) {
    await finishWithRetries(ctx, round.roundId, work);
  }
}

async function finishWithRetries(ctx: Ctx, roundId: string, work: PositionWork): Promise<void> {
  for (const attempt of attempts(ctx)) {
    const round = (await ctx.store.get('round', { roundId }))!;
    // Finished by another caller: its head too, unless that caller crashed before signing it.
    if (work.finished(round)) {
      await signRoundHead(ctx, round);
      return;
    }
    if (await work.finish(ctx, round)) return;
    await backoff(attempt);
  }
  throw tooMuchContention('finishing the round');
}
