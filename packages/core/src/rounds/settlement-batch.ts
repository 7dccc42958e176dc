/**
 * The settlement queue's consumer: one batch, run by the SQS-triggered Lambda on AWS and by the
 * in-process queue locally and in tests (the same function). Idempotent: a batch that runs twice, or
 * after a crash half-way, pays nothing twice (fan-out.ts). A refusal here is a bug or a lost round, not
 * a player's mistake: it throws, so the queue retries and finally dead-letters the batch (alarmed).
 */
import type { Ctx, SettlementBatch } from '../shared';
import { mapBounded } from '../shared';
import { signRoundHead } from '../shoes';
import { collectDebt } from '../wallet';
import { runBatch } from './fan-out';
import { SETTLE } from './settle';
import { REFUND } from './void';

/** Runs one batch; answers the table whose round or shoe it settled (its watchers are told: live events). */
export async function runSettlementBatch(ctx: Ctx, batch: SettlementBatch): Promise<string> {
  if (batch.kind === 'collect') {
    // Debts are keyed by operator; a collect batch names the shoe (one operator).
    const shoe = await ctx.store.get('shoe', { shoeId: batch.shoeId });
    if (!shoe) throw new Error(`collect batch for unknown shoe ${batch.shoeId}`);
    await mapBounded(batch.playerIds, ctx.settleConcurrency, async (playerId) => {
      const key = { shoeId: shoe.shoeId, operatorId: shoe.operatorId, playerId };
      const debt = await ctx.store.get('debt', key);
      if (debt && debt.owed > 0) await collectDebt(ctx, debt, undefined);
    });
    return shoe.tableId;
  }
  const round = await ctx.store.get('round', { roundId: batch.roundId });
  if (!round) throw new Error(`settlement batch for unknown round ${batch.roundId}`);
  const work = batch.kind === 'settle' ? SETTLE : REFUND;
  // A batch redelivered after the round finished: nothing to pay; the head is signed if the batch that
  // finished it crashed before signing (a no-op otherwise).
  if (work.finished(round)) {
    await signRoundHead(ctx, round);
    return round.tableId;
  }
  const expected = batch.kind === 'settle' ? ['DEALT', 'SETTLING'] : ['VOIDING'];
  if (!expected.includes(round.status)) {
    throw new Error(`round ${round.roundId} is ${round.status}: it cannot take a ${batch.kind} batch`);
  }
  await runBatch(ctx, round, work, batch.batch, batch.playerIds);
  return round.tableId;
}
