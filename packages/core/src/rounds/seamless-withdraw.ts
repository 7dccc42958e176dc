/**
 * Reducing and withdrawing a seamless operator's bets (docs/seamless-wallet.md §5): allowed exactly
 * when a hosted one is (before "no va más", the same rules and errors), the stake taken back going to
 * the operator's wallet as a REFUND credit.
 *
 *   1. parallel reads: the round (eventual: the "no va más" hint), the position, the table's seats
 *      (strongly consistent), the refund's record by its txId (derived from the client's idempotency
 *      key: a retry finds it) and the debit a bet with that key would have (a key names one call);
 *   2. ONE transaction: the refund's record put CREDIT_PENDING (the outbox; conditional: it does not
 *      exist yet, so it is also the call's idempotency record), the position update (conditional on
 *      its version `calls`, not settled or refunded) and the gate's ConditionCheck — so a concurrent
 *      "no va más" either lists the position reduced or the withdraw is refused, never both — and,
 *      when nothing stays at stake, the holder's seat unmarked (the coup not played, seed 004);
 *   3. the refund is delivered: tried once in the request (the answer's balance is the wallet's), and
 *      handed to the outbox if the wallet did not acknowledge it — delivered at least once from there.
 * Nothing is rolled back: the debits stood; the refund is a credit, never refused by the protocol.
 */
import type { TableConfig } from '@pyb/engine';
import { betRefOf, deliverSeamlessTx, sendToOutbox } from '../seamless';
import type { Bets, PlaceBetResult, PositionRecord, RoundRecord, SeamlessTxRecord } from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  keyReused,
  type RoundFacts,
  TransactionCanceled,
  tooMuchContention,
} from '../shared';
import { type Change, gatePart, positionPart, unplaySeat } from './bet-parts';
import { roundNotOpen } from './round-not-open';
import { assertCallable, callResult, stakeAndReserve } from './seamless-bets';

/**
 * What a reduce/withdraw leaves on a seamless position and gives back: THE one place the refund's
 * amount is computed. `refund` = the stake taken off + the reserve released: on a DEFERRED table the
 * Banca reserve the remaining bets no longer need (`released`) comes back with it; elsewhere 0.
 */
function seamlessWithdrawal(
  config: TableConfig,
  position: PositionRecord,
  left: Bets,
): { stake: number; reserve: number; released: number; refund: number } {
  const { stake, reserve } = stakeAndReserve(config, left);
  const released = position.reserve - reserve;
  return { stake, reserve, released, refund: position.stake - stake + released };
}

export async function withdrawSeamless(
  ctx: Ctx,
  call: {
    facts: RoundFacts;
    config: TableConfig;
    change: Change;
    /** The REFUND credit's txId (`withdraw`) and the debit a bet with the same idempotency key has. */
    txIds: { debit: string; withdraw: string };
    fresh: RoundRecord | undefined;
  },
): Promise<PlaceBetResult> {
  const { facts, config, change, fresh } = call;
  const txIds = { refund: call.txIds.withdraw, debit: call.txIds.debit };
  const key = { roundId: facts.roundId, playerId: change.playerId };
  const txId = txIds.refund;
  for (const attempt of attempts(ctx)) {
    const [round, position, seats, existing, sameKey] = await Promise.all([
      attempt === 0 && fresh
        ? fresh
        : ctx.store.get('round', { roundId: facts.roundId }, { consistent: false }),
      ctx.store.get('position', key),
      ctx.store.listSeats(facts.tableId),
      ctx.store.get('seamlessTx', { txId }),
      ctx.store.get('seamlessTx', { txId: txIds.debit }),
    ]);
    // A retry: the first answer again, whatever happened to the round since.
    if (existing) return replayed(ctx, existing, change);
    if (sameKey) throw keyReused();
    assertCallable(facts, round, position);
    const outcome = change.apply(position); // BET_NOT_PLACED without a position
    const held = position!;
    const money = seamlessWithdrawal(config, held, outcome.bets);
    const at = ctx.now();
    const record: SeamlessTxRecord = {
      txId,
      op: 'CREDIT',
      creditKind: 'REFUND',
      operatorId: facts.operatorId,
      playerId: change.playerId,
      currency: config.currency,
      amount: money.refund,
      roundId: facts.roundId,
      tableId: facts.tableId,
      betRef: betRefOf(facts.roundId, change.playerId, `withdraw-${txId.slice(4, 20)}`),
      state: 'CREDIT_PENDING',
      attempts: 0,
      createdAt: at,
      updatedAt: at,
      requestHash: change.hash,
      bets: outcome.moved,
      shoeId: facts.shoeId,
      ...(money.released > 0 && { commissionReserve: money.released }),
    };
    const part = positionPart(
      facts,
      held,
      change.playerId,
      { bets: outcome.bets, stake: money.stake, reserve: money.reserve, seat: held.seat ?? null },
      held.calls + 1,
      at,
      txId,
    );
    const unplayed = unplaySeat(facts, change.playerId, held, money.stake, seats, at);
    try {
      await ctx.store.transact([
        { kind: 'put', entity: 'seamlessTx', key: { txId }, item: record },
        part.op,
        gatePart(facts, change.playerId),
        ...(unplayed ? [unplayed] : []),
      ]);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (error.failed(0)) continue; // a concurrent duplicate wrote it: answer from its record
      if (error.failed(2)) throw roundNotOpen(facts);
      await backoff(attempt); // the position or the seat moved on (another call of the player): recompute
      continue;
    }
    ctx.metrics.count('BetCalls', 1);
    return delivered(ctx, record, part.stored);
  }
  throw tooMuchContention('withdrawing a seamless bet');
}

async function replayed(ctx: Ctx, tx: SeamlessTxRecord, change: Change): Promise<PlaceBetResult> {
  if (tx.requestHash !== change.hash || tx.op !== 'CREDIT') throw keyReused();
  const position = await ctx.store.get('position', { roundId: tx.roundId, playerId: tx.playerId });
  if (!position) throw new Error(`refund ${tx.txId} recorded without its position`);
  return callResult(tx, position, true, tx.balanceAfter ?? (await expectedBalance(ctx, position, tx)));
}

/**
 * The refund, just committed, is delivered once in the request: acknowledged, the answer's balance is
 * the wallet's; else it goes to the outbox (delivered until acknowledged) and the balance is expected.
 */
async function delivered(ctx: Ctx, tx: SeamlessTxRecord, position: PositionRecord): Promise<PlaceBetResult> {
  let now: SeamlessTxRecord | undefined;
  try {
    await deliverSeamlessTx(ctx, tx.txId);
    now = await ctx.store.get('seamlessTx', { txId: tx.txId });
  } catch {
    // Not acknowledged: without a queue the attempt above was the one a request makes (the daily
    // reconciliation job sends it again); with one, the queue delivers it with backoff.
    if (ctx.outbox) await sendToOutbox(ctx, [tx.txId]);
  }
  if (now?.balanceAfter !== undefined) return callResult(now, position, false);
  return callResult(now ?? tx, position, false, await expectedBalance(ctx, position, tx));
}

/**
 * The balance once the refund is booked, while the wallet has not acknowledged it: the balance it last
 * answered for this position's calls plus the refunds of them still on their way (this one included).
 * The entry's `reference` (the wallet's booking id) stays null until the wallet books it.
 */
async function expectedBalance(ctx: Ctx, position: PositionRecord, tx: SeamlessTxRecord): Promise<number> {
  const calls = position.debits ?? [];
  let owed = 0;
  for (let i = calls.lastIndexOf(tx.txId); i >= 0; i--) {
    const call = calls[i] === tx.txId ? tx : await ctx.store.get('seamlessTx', { txId: calls[i]! });
    if (!call) continue;
    if (call.balanceAfter !== undefined && call.txId !== tx.txId) return call.balanceAfter + owed;
    if (call.op === 'CREDIT') owed += call.amount;
  }
  return owed;
}
