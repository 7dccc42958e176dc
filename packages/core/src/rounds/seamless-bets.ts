/**
 * The bet path of a seamless operator (docs/seamless-wallet.md §5): the player's money is in the
 * operator's wallet, so the stake is debited there before the bet is accepted.
 *
 *   1. parallel reads: the round (eventual: the "no va más" hint), the position, the seats, and the
 *      debit's record by its txId (derived from the client's idempotency key: a retry finds it) — and
 *      the record a reduce/withdraw with that key would have (a key names one call);
 *   2. the record put DEBIT_PENDING (conditional: only one request ever sends this debit);
 *   3. the operator's debit, through the Wallet port;
 *   4. on OK, ONE transaction: the record -> DEBITED, the position put/update, the gate's check (and
 *      the seat). On REFUSED the record -> DEBIT_REFUSED and the bet is refused with a stable code.
 *      On UNKNOWN, or when the gate closed meanwhile, the debit is given up: the record ->
 *      ROLLBACK_PENDING with its rollback put in the outbox (one transaction); it is never sent again
 *      as a debit.
 * A retry with the same idempotency key answers from the record's state.
 */
import type { SeamlessOutcome } from '@pyb/contracts';
import { betList, type TableConfig, worstCaseCommission } from '@pyb/engine';
import { abandonDebit, betRefOf, DEBIT_ABANDON_MS, debitRequest, sendToOutbox, stakePart } from '../seamless';
import type {
  Bets,
  OperatorRecord,
  PlaceBetResult,
  PositionRecord,
  RoundRecord,
  SeamlessTxRecord,
} from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  conflict,
  DomainError,
  keyReused,
  positionView,
  type RoundFacts,
  sumOf,
  TransactionCanceled,
  tooMuchContention,
  unavailable,
  type WriteOp,
} from '../shared';
import { type Change, gatePart, planSeat, positionPart, type SeatPlan, staked } from './bet-parts';
import { roundNotOpen } from './round-not-open';

/**
 * Calls one seamless position may take in one coup: each is an HTTP call to the operator, and the
 * position lists its calls' txIds (~45 bytes each) for replay, so it stays under 5 KB.
 */
export const MAX_SEAMLESS_POSITION_CALLS = 100;

const walletUnavailable = (): DomainError =>
  unavailable(
    'WALLET_UNAVAILABLE',
    "the operator's wallet did not answer the debit clearly: the bet is not placed and the debit is being rolled back; bet again with a new Idempotency-Key",
    1,
  );

function refusal(code: string, message?: string): DomainError {
  const text = `the operator's wallet refused the debit: ${code}${message ? ` (${message})` : ''}`;
  return code === 'INSUFFICIENT_FUNDS'
    ? new DomainError('INSUFFICIENT_FUNDS', 'INSUFFICIENT_FUNDS', text, { reason: code })
    : new DomainError('UNPROCESSABLE', 'WALLET_REFUSED', text, { reason: code });
}

/**
 * The stake of a position's bets and the commission reserve its seamless debits take (a DEFERRED
 * table's Banca bet: the worst-case commission, as the hosted wallet holds it back).
 */
export const stakeAndReserve = (config: TableConfig, bets: Bets): { stake: number; reserve: number } => ({
  stake: sumOf(bets),
  reserve: worstCaseCommission(config, betList(bets)),
});

/**
 * Whether a seamless bet or withdrawal may be made on this position now (the same rules for both): the
 * round still takes bets, the position is seamless, not over, and under its call limit.
 */
export function assertCallable(
  facts: RoundFacts,
  round: RoundRecord | undefined,
  position: PositionRecord | undefined,
): asserts round is RoundRecord {
  if (round?.status !== 'OPEN' || round.closingAt) throw roundNotOpen(facts);
  if (position && position.wallet !== 'seamless')
    throw conflict('WALLET_MODE_MISMATCH', 'this position was made from the hosted wallet');
  if (position?.settledAt || position?.refundedAt) throw roundNotOpen(facts);
  if (position && position.calls >= MAX_SEAMLESS_POSITION_CALLS) {
    throw new DomainError(
      'UNPROCESSABLE',
      'POSITION_CALL_LIMIT',
      `a seamless position takes at most ${MAX_SEAMLESS_POSITION_CALLS} calls per coup`,
      { limit: MAX_SEAMLESS_POSITION_CALLS },
    );
  }
}

/**
 * A call's answer: its record stands in for the ledger entry (its seq is the call's number in the
 * position) — a bet's debit (BET), or a reduce/withdraw's REFUND credit (BET_WITHDRAWAL); its amount
 * the stake part, as a hosted entry's (a reserve moves with it, outside the amount). `balance`: the
 * operator's balance after the call (default: as the wallet answered it).
 */
export function callResult(
  tx: SeamlessTxRecord,
  position: PositionRecord,
  replayed: boolean,
  balance = tx.balanceAfter ?? 0,
): PlaceBetResult {
  const seq = (position.debits ?? []).indexOf(tx.txId) + 1;
  // The whole call (stake and reserve) moved the operator's balance.
  const whole = tx.op === 'DEBIT' ? -tx.amount : tx.amount;
  return {
    position: positionView(position),
    balance,
    entry: {
      entryId: tx.txId,
      seq: Math.max(seq, 1),
      playerId: tx.playerId,
      kind: tx.op === 'DEBIT' ? 'BET' : 'BET_WITHDRAWAL',
      amount: stakePart(tx),
      balanceBefore: balance - whole,
      balanceAfter: balance,
      roundId: tx.roundId,
      shoeId: position.shoeId,
      reference: tx.operatorTxId ?? null,
      sessionId: null,
      createdAt: tx.createdAt,
    },
    replayed,
  };
}

/** Gives the debit up (rollback to the outbox) and sends the rollback on its way. */
async function giveUp(
  ctx: Ctx,
  tx: SeamlessTxRecord,
  reason: NonNullable<SeamlessTxRecord['rollbackReason']>,
  lastError?: string,
): Promise<void> {
  const rollbackTxId = await abandonDebit(ctx, tx, reason, lastError);
  ctx.metrics.count('SeamlessDebitsRolledBack', 1);
  await sendToOutbox(ctx, [rollbackTxId]);
}

/** A retry of a bet whose debit was already sent: answered from the record's state. */
async function fromRecord(ctx: Ctx, tx: SeamlessTxRecord, change: Change): Promise<PlaceBetResult> {
  if (tx.requestHash !== change.hash) throw keyReused();
  switch (tx.state) {
    case 'DEBITED': {
      const position = await ctx.store.get('position', { roundId: tx.roundId, playerId: tx.playerId });
      if (!position) throw new Error(`debit ${tx.txId} recorded without its position`);
      return callResult(tx, position, true);
    }
    case 'DEBIT_REFUSED':
      throw refusal(tx.refusal?.code ?? 'UNKNOWN', tx.refusal?.message);
    case 'DEBIT_PENDING': {
      if (ctx.clock.now().getTime() - Date.parse(tx.attemptedAt ?? tx.createdAt) < DEBIT_ABANDON_MS)
        throw conflict(
          'SEAMLESS_DEBIT_IN_FLIGHT',
          "this bet's debit is still waiting for the operator's wallet",
        );
      // The request that sent it is gone (a crash): its debit is rolled back, never re-sent.
      await giveUp(ctx, tx, 'ABANDONED');
      throw walletUnavailable();
    }
    default:
      if (tx.rollbackReason === 'BETTING_CLOSED') throw roundNotOpen(tx);
      throw walletUnavailable();
  }
}

export async function placeSeamlessBet(
  ctx: Ctx,
  call: {
    facts: RoundFacts;
    config: TableConfig;
    change: Change;
    operator: OperatorRecord;
    /** The bet's debit; `withdraw`: the txId a reduce/withdraw with the same idempotency key has (a bet reusing that key is refused). */
    txIds: { debit: string; withdraw: string };
    fresh: RoundRecord | undefined;
  },
): Promise<PlaceBetResult> {
  const { facts, config, change, operator, fresh } = call;
  const txId = call.txIds.debit;
  const withdrawTxId = call.txIds.withdraw;
  const wallet = ctx.wallets(operator);
  const key = { roundId: facts.roundId, playerId: change.playerId };
  for (const attempt of attempts(ctx)) {
    const [round, position, seats, existing, sameKey] = await Promise.all([
      attempt === 0 && fresh
        ? fresh
        : ctx.store.get('round', { roundId: facts.roundId }, { consistent: false }),
      ctx.store.get('position', key),
      // A retry may follow a seat whose mark was read stale: it reads them strongly consistent.
      ctx.store.listSeats(facts.tableId, { consistent: attempt > 0 }),
      ctx.store.get('seamlessTx', { txId }),
      ctx.store.get('seamlessTx', { txId: withdrawTxId }),
    ]);
    if (existing) return fromRecord(ctx, existing, change);
    if (sameKey) throw keyReused();
    const at = ctx.now();
    assertCallable(facts, round, position);
    const outcome = change.apply(position);
    const { stake, reserve } = stakeAndReserve(config, outcome.bets);
    // A DEFERRED table's Banca bet is debited its commission reserve with its stake (docs/rules.md).
    const reserveAdded = reserve - (position?.reserve ?? 0);
    const amount = stake - (position?.stake ?? 0) + reserveAdded;
    const seat = planSeat(facts, change, position, seats, at);
    const tx: SeamlessTxRecord = {
      txId,
      op: 'DEBIT',
      operatorId: facts.operatorId,
      playerId: change.playerId,
      currency: config.currency,
      amount,
      roundId: facts.roundId,
      tableId: facts.tableId,
      betRef: betRefOf(facts.roundId, change.playerId, `bet-${txId.slice(4, 20)}`),
      state: 'DEBIT_PENDING',
      attempts: 1,
      createdAt: at,
      updatedAt: at,
      attemptedAt: at,
      requestHash: change.hash,
      bets: outcome.moved,
      ...(change.seat !== undefined && { seat: change.seat }),
      shoeId: facts.shoeId,
      ...(reserveAdded > 0 && { commissionReserve: reserveAdded }),
    };
    try {
      await ctx.store.transact([{ kind: 'put', entity: 'seamlessTx', key: { txId }, item: tx }]);
    } catch (error) {
      if (error instanceof TransactionCanceled) continue; // a concurrent duplicate sent it: read its record
      throw error;
    }
    const answer = await wallet.debit(debitRequest(tx));
    return settleDebit(ctx, facts, config, change, tx, answer, { position, seat });
  }
  throw tooMuchContention('placing a seamless bet');
}

/** What the debit's answer makes of the bet. */
async function settleDebit(
  ctx: Ctx,
  facts: RoundFacts,
  config: TableConfig,
  change: Change,
  tx: SeamlessTxRecord,
  answer: SeamlessOutcome,
  read: { position: PositionRecord | undefined; seat: SeatPlan },
): Promise<PlaceBetResult> {
  if (answer.outcome === 'REFUSED') {
    const at = ctx.now();
    await ctx.store.transact([
      {
        kind: 'update',
        entity: 'seamlessTx',
        key: { txId: tx.txId },
        set: {
          state: 'DEBIT_REFUSED',
          refusal: { code: answer.code, ...(answer.message !== undefined && { message: answer.message }) },
          resolvedAt: at,
          updatedAt: at,
        },
        expect: { state: 'DEBIT_PENDING' },
      },
    ]);
    throw refusal(answer.code, answer.message);
  }
  if (answer.outcome === 'UNKNOWN') {
    await giveUp(ctx, tx, 'UNKNOWN_OUTCOME', answer.reason.slice(0, 500));
    throw walletUnavailable();
  }
  const debited: SeamlessTxRecord = {
    ...tx,
    balanceAfter: answer.answer.balance,
    ...(answer.answer.operatorTxId !== undefined && { operatorTxId: answer.answer.operatorTxId }),
  };
  let { position, seat } = read;
  for (const attempt of attempts(ctx)) {
    const at = ctx.now();
    let ops: WriteOp[];
    let stored: PositionRecord;
    try {
      if (position?.settledAt || position?.refundedAt) throw roundNotOpen(facts);
      // The same call on the position as it is now (a concurrent call of the player may have moved it):
      // it adds exactly what was debited, or it is not placed.
      const outcome = change.apply(position);
      const { stake, reserve } = stakeAndReserve(config, outcome.bets);
      if (
        stake - (position?.stake ?? 0) + reserve - (position?.reserve ?? 0) !== tx.amount ||
        reserve - (position?.reserve ?? 0) !== (tx.commissionReserve ?? 0)
      )
        throw conflict('CONCURRENT_UPDATE', 'the position changed under the bet');
      const part = positionPart(
        facts,
        position,
        change.playerId,
        {
          bets: outcome.bets,
          stake,
          reserve,
          seat: seat.seat,
          ...(seat.before !== undefined && { seatBefore: seat.before }),
        },
        (position?.calls ?? 0) + 1,
        at,
        tx.txId,
      );
      stored = part.stored;
      ops = [
        {
          kind: 'update',
          entity: 'seamlessTx',
          key: { txId: tx.txId },
          set: {
            state: 'DEBITED',
            balanceAfter: debited.balanceAfter,
            ...(debited.operatorTxId !== undefined && { operatorTxId: debited.operatorTxId }),
            resolvedAt: at,
            updatedAt: at,
          },
          expect: { state: 'DEBIT_PENDING' },
        },
        part.op,
        gatePart(facts, change.playerId),
        ...(seat.op && !staked(position) ? [seat.op] : []),
      ];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await giveUp(ctx, tx, 'NOT_PLACED', error.code);
      throw error;
    }
    try {
      await ctx.store.transact(ops);
      ctx.metrics.count('BetCalls', 1);
      return callResult(debited, stored, false);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      // Given up meanwhile (abandoned by a retry that thought this request gone): a rollback is under way.
      if (error.failed(0)) throw walletUnavailable();
      if (error.failed(2)) {
        await giveUp(ctx, tx, 'BETTING_CLOSED');
        throw roundNotOpen(facts);
      }
      if (ops.length > 3 && error.failed(3) && seat.claimed) {
        await giveUp(ctx, tx, 'NOT_PLACED', 'SEAT_TAKEN');
        throw conflict('SEAT_TAKEN', `seat ${seat.seat} was taken meanwhile`);
      }
      await backoff(attempt);
      const [now, seats] = await Promise.all([
        ctx.store.get('position', { roundId: facts.roundId, playerId: change.playerId }),
        ctx.store.listSeats(facts.tableId, { consistent: true }),
      ]);
      position = now;
      try {
        seat = planSeat(facts, change, position, seats, ctx.now());
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        await giveUp(ctx, tx, 'NOT_PLACED', e.code);
        throw e;
      }
    }
  }
  await giveUp(ctx, tx, 'NOT_PLACED', 'CONCURRENT_UPDATE');
  throw tooMuchContention('placing a seamless bet');
}
