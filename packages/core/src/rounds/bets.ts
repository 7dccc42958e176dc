/**
 * The bet path: placing, raising, reducing and withdrawing bets before "no va más".
 *
 * A call is at most two DynamoDB round trips in the steady state (docs/architecture.md, "The bet
 * path"):
 *   1. parallel reads — the wallet and the position (strongly consistent), the round (eventually
 *      consistent: only a hint that "no va más" was called) and the table's seats (for a bet
 *      eventually consistent: whether the player holds one; for a withdrawal strongly: whether its
 *      bet's mark on his seat is undone); the round's fixed facts and the shoe's configuration come
 *      from per-process caches;
 *   2. ONE transaction built from small per-item parts: the wallet update and the ledger entry keyed
 *      by the client's idempotency key (that entry IS the idempotency record of the call), the
 *      position put/update (conditional on its version `calls`), the ConditionCheck of the player's
 *      betting gate, and the seat item when the player holds or claims one (a bet marks the coup
 *      played on it; a withdrawal of the whole stake undoes that: seed 004, "no participa").
 * Bets of different players never write a common item; they only condition-check a gate when they
 * hash to the same shard. Nothing grows with the number of calls: a position counts them and refuses
 * one past MAX_POSITION_CALLS.
 *
 * #16 (responsible gaming) adds its conditions as one more part of the same transaction: see
 * `transactionParts`.
 */
import { BET_TYPES, type BetType, betList, type TableConfig, worstCaseCommission } from '@pyb/engine';
import { debitTxIdOf, withdrawTxIdOf } from '../seamless';
import type {
  Actor,
  Bets,
  LedgerEntry,
  PlaceBetInput,
  PlaceBetResult,
  PositionRecord,
  RoundRecord,
  SeatRecord,
  WalletRecord,
  WithdrawBetsInput,
} from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  checkIdempotencyKey,
  checkPlayerId,
  clientKey,
  conflict,
  DomainError,
  invalid,
  keyReused,
  ledgerEntryView,
  notFound,
  positionView,
  type RoundFacts,
  requestHash,
  sumOf,
  TransactionCanceled,
  tooMuchContention,
  type WriteOp,
} from '../shared';
import { checkBet, type MovementPlan, operatorOf, planMovement } from '../wallet';
import {
  type Change,
  gatePart,
  MAX_POSITION_CALLS,
  normalizeBets,
  planSeat,
  positionPart,
  roundFacts,
  type SeatPlan,
  shoeConfig,
  unplaySeat,
  validate,
} from './bet-parts';
import { roundNotOpen } from './round-not-open';
import { placeSeamlessBet } from './seamless-bets';
import { withdrawSeamless } from './seamless-withdraw';

export { SEAT_IDLE_COUPS, seatIdle } from '../tables';
export { MAX_POSITION_CALLS, roundFacts, shoeConfig, validate } from './bet-parts';

interface ReadState {
  round: RoundRecord | undefined;
  wallet: WalletRecord | undefined;
  position: PositionRecord | undefined;
  seats: SeatRecord[] | undefined;
}

/** Round trip 1: everything the call depends on, read in parallel. */
async function readState(
  ctx: Ctx,
  facts: RoundFacts,
  change: Change,
  fresh: RoundRecord | undefined,
  retry: boolean,
): Promise<ReadState> {
  const { playerId } = change;
  const [round, wallet, position, seats] = await Promise.all([
    fresh ?? ctx.store.get('round', { roundId: facts.roundId }, { consistent: false }),
    ctx.store.get('wallet', { operatorId: facts.operatorId, playerId }),
    ctx.store.get('position', { roundId: facts.roundId, playerId }),
    // A retry may follow a seat whose mark was read stale: it reads them strongly consistent.
    ctx.store.listSeats(facts.tableId, { consistent: change.kind === 'BET_WITHDRAWAL' || retry }),
  ]);
  return { round, wallet, position, seats };
}

interface Parts {
  money: MovementPlan;
  position: { op: WriteOp; stored: PositionRecord };
  gate: WriteOp;
  seat?: WriteOp;
}

/**
 * The transaction, in a fixed order so a refusal names its part. Each part is one item with its own
 * conditions; a new condition (e.g. #16's per-player limits) is one more part here.
 */
function transactionParts(parts: Parts): {
  ops: WriteOp[];
  at: Record<'wallet' | 'ledger' | 'position' | 'gate' | 'seat', number>;
} {
  const ops = [...parts.money.ops, parts.position.op, parts.gate, ...(parts.seat ? [parts.seat] : [])];
  return { ops, at: { wallet: 0, ledger: 1, position: 2, gate: 3, seat: parts.seat ? 4 : -1 } };
}

async function changePosition(
  ctx: Ctx,
  facts: RoundFacts,
  config: TableConfig,
  change: Change,
  fresh: RoundRecord | undefined,
): Promise<PlaceBetResult> {
  const walletKey = { operatorId: facts.operatorId, playerId: change.playerId };
  const ledgerKey = { ...walletKey, key: change.ledgerKey };
  // A call refused on the state it read may be the retry of one that already went through: its
  // answer is the first call's (replayed), whatever happened to the round since.
  const refused = async (error: unknown): Promise<PlaceBetResult> => {
    const used = await ctx.store.get('ledger', ledgerKey);
    if (used) return replay(ctx, used, change, facts.roundId);
    throw error;
  };
  for (const attempt of attempts(ctx)) {
    const state = await readState(ctx, facts, change, attempt === 0 ? fresh : undefined, attempt > 0);
    const at = ctx.now();
    let parts: Parts;
    let seatPlan: SeatPlan = { seat: null, claimed: false };
    try {
      const { round, wallet, position } = state;
      if (round?.status !== 'OPEN' || round.closingAt) {
        throw roundNotOpen(facts);
      }
      if (!wallet) throw notFound('wallet', change.playerId);
      if (wallet.currency !== config.currency) {
        throw new DomainError(
          'UNPROCESSABLE',
          'CURRENCY_MISMATCH',
          `the wallet is in ${wallet.currency}, the table plays in ${config.currency}`,
        );
      }
      if (position?.settledAt || position?.refundedAt) throw roundNotOpen(facts);
      // Its stake is in the operator's wallet (the mode changed in the round): never moved from here.
      if (position?.wallet === 'seamless')
        throw conflict('WALLET_MODE_MISMATCH', "this position was made from the operator's seamless wallet");
      if (position && position.calls >= MAX_POSITION_CALLS) {
        throw new DomainError(
          'UNPROCESSABLE',
          'POSITION_CALL_LIMIT',
          `a position takes at most ${MAX_POSITION_CALLS} calls per coup`,
          { limit: MAX_POSITION_CALLS },
        );
      }
      const outcome = change.apply(position);
      const stake = sumOf(outcome.bets);
      const reserve = worstCaseCommission(config, betList(outcome.bets));
      const seats = state.seats ?? [];
      if (change.kind === 'BET') seatPlan = planSeat(facts, change, position, seats, at);
      else {
        const unplayed = unplaySeat(facts, change.playerId, position, stake, seats, at);
        if (unplayed) seatPlan = { seat: position?.seat ?? null, claimed: false, op: unplayed };
      }
      // Responsible gaming (#16): the player's exclusion and limits, checked on the wallet as read
      // (the wallet's write is conditional on its `seq`, so the check holds at commit), and his table
      // session, carried on the wallet item the bet writes anyway.
      const rg =
        change.kind === 'BET'
          ? checkBet(wallet.rg, {
              tableId: facts.tableId,
              at,
              stake,
              added: stake - (position?.stake ?? 0),
              newSessionId: () => ctx.ids.next('ses'),
            })
          : undefined;
      const sessionId = rg?.sessionId ?? position?.sessionId;
      const money = planMovement(wallet, {
        kind: change.kind,
        key: change.ledgerKey,
        requestHash: change.hash,
        amount: (position?.stake ?? 0) - stake,
        reserved: reserve - (position?.reserve ?? 0),
        roundId: facts.roundId,
        shoeId: facts.shoeId,
        tableId: facts.tableId,
        bets: outcome.moved,
        ...(sessionId !== undefined && { sessionId }),
        ...(rg && { rg: rg.rg }),
        at,
      });
      const seat = change.kind === 'BET' ? seatPlan.seat : (position?.seat ?? null);
      parts = {
        money,
        position: positionPart(
          facts,
          position,
          change.playerId,
          {
            bets: outcome.bets,
            stake,
            reserve,
            seat,
            ...(sessionId !== undefined && { sessionId }),
            ...(seatPlan.before !== undefined && { seatBefore: seatPlan.before }),
          },
          money.entry.seq,
          at,
        ),
        gate: gatePart(facts, change.playerId),
        ...(seatPlan.op && { seat: seatPlan.op }),
      };
    } catch (error) {
      if (error instanceof DomainError) return refused(error);
      throw error;
    }
    const tx = transactionParts(parts);
    try {
      await ctx.store.transact(tx.ops);
      ctx.metrics.count('BetCalls', 1);
      return {
        position: positionView(parts.position.stored),
        balance: parts.money.entry.balanceAfter,
        entry: ledgerEntryView(parts.money.entry),
        replayed: false,
      };
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      if (error.failed(tx.at.ledger)) {
        // The key is taken: by this very call (a concurrent duplicate) or by another request.
        const used = await ctx.store.get('ledger', ledgerKey);
        if (used) return replay(ctx, used, change, facts.roundId);
        continue;
      }
      if (error.failed(tx.at.gate)) {
        return refused(roundNotOpen(facts));
      }
      if (tx.at.seat >= 0 && error.failed(tx.at.seat) && seatPlan.claimed) {
        return refused(conflict('SEAT_TAKEN', `seat ${seatPlan.seat} was taken meanwhile`));
      }
      // The wallet or the position moved on (or the player's seat changed hands): recompute.
      await backoff(attempt);
    }
  }
  throw tooMuchContention('changing the position');
}

async function replay(
  ctx: Ctx,
  entry: LedgerEntry,
  change: Change,
  roundId: string,
): Promise<PlaceBetResult> {
  if (entry.requestHash !== change.hash || entry.kind !== change.kind) throw keyReused();
  const position = await ctx.store.get('position', { roundId, playerId: change.playerId });
  if (!position) throw new Error(`call ${entry.key} recorded without its position`);
  return {
    position: positionView(position),
    balance: entry.balanceAfter,
    entry: ledgerEntryView(entry),
    replayed: true,
  };
}

// ---- the use cases --------------------------------------------------------------------------------

/**
 * Places bets for a player in an open round: adds them to his position (a type already bet is raised),
 * the whole position validated with the table's rules; from his seat or standing (PlaceBetInput.seat).
 */
export async function placeBet(ctx: Ctx, actor: Actor, input: PlaceBetInput): Promise<PlaceBetResult> {
  const playerId = checkPlayerId(input.playerId);
  const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
  const bets = normalizeBets(input.bets);
  if (input.seat !== undefined && (!Number.isSafeInteger(input.seat) || input.seat < 1)) {
    throw invalid('SEAT_INVALID', 'a seat is a number from 1');
  }
  // The operator's wallet mode comes from a per-process cache (read at most once a minute): the
  // hosted path keeps its two round trips.
  const [{ facts, fresh }, operator] = await Promise.all([
    roundFacts(ctx, actor, input.roundId),
    operatorOf(ctx, actor.operatorId),
  ]);
  const config = await shoeConfig(ctx, facts.shoeId);
  validate(config, bets);
  const added = Object.fromEntries(bets.map((b) => [b.type, b.amount])) as Bets;
  const ordered = betList(added);
  if (!Number.isSafeInteger(sumOf(added)))
    throw invalid('BET_AMOUNT_INVALID', 'the stake exceeds the safe integer range');
  const change: Change = {
    kind: 'BET',
    playerId,
    ledgerKey: clientKey(idempotencyKey),
    hash: requestHash('bet', {
      roundId: facts.roundId,
      playerId,
      bets: ordered,
      ...(input.seat !== undefined && { seat: input.seat }),
    }),
    ...(input.seat !== undefined && { seat: input.seat }),
    apply: (position) => {
      const merged: Bets = { ...position?.bets };
      for (const b of ordered) merged[b.type] = (merged[b.type] ?? 0) + b.amount;
      // The whole position after this call must still follow the rules.
      validate(config, betList(merged));
      return { bets: merged, moved: added };
    },
  };
  if (operator?.walletMode === 'seamless') {
    const txId = debitTxIdOf(facts.operatorId, facts.roundId, playerId, idempotencyKey);
    const withdrawTxId = withdrawTxIdOf(facts.operatorId, facts.roundId, playerId, idempotencyKey);
    return placeSeamlessBet(ctx, facts, config, change, operator, txId, withdrawTxId, fresh);
  }
  return changePosition(ctx, facts, config, change, fresh);
}

/**
 * Reduces or withdraws a player's bets before "no va más" (WithdrawBetsInput): hosted, the stake back
 * to the wallet by a BET_WITHDRAWAL entry; seamless, by a REFUND credit to the operator's wallet
 * (seamless-withdraw.ts).
 */
export async function withdrawBets(
  ctx: Ctx,
  actor: Actor,
  input: WithdrawBetsInput,
): Promise<PlaceBetResult> {
  const playerId = checkPlayerId(input.playerId);
  const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
  if (input.bets !== undefined && input.types !== undefined) {
    throw invalid('INVALID_INPUT', 'reduce amounts (bets) or withdraw types, not both');
  }
  const reduce = input.bets === undefined ? undefined : normalizeBets(input.bets);
  const types = input.types === undefined ? undefined : [...new Set(input.types)];
  for (const t of types ?? []) {
    if (!BET_TYPES.includes(t)) throw invalid('BET_TYPE_INVALID', `unknown bet type ${String(t)}`);
  }
  for (const b of reduce ?? []) {
    if (!BET_TYPES.includes(b.type)) throw invalid('BET_TYPE_INVALID', `unknown bet type ${String(b.type)}`);
    if (!Number.isSafeInteger(b.amount) || b.amount <= 0) {
      throw invalid('BET_AMOUNT_INVALID', 'amounts are positive integers (minor units)');
    }
  }
  const [{ facts, fresh }, operator] = await Promise.all([
    roundFacts(ctx, actor, input.roundId),
    operatorOf(ctx, actor.operatorId),
  ]);
  const config = await shoeConfig(ctx, facts.shoeId);
  const request = reduce
    ? { bets: betList(Object.fromEntries(reduce.map((b) => [b.type, b.amount])) as Bets) }
    : { types: types === undefined ? null : BET_TYPES.filter((t) => types.includes(t)) };
  const change: Change = {
    kind: 'BET_WITHDRAWAL',
    playerId,
    ledgerKey: clientKey(idempotencyKey),
    hash: requestHash('withdraw', { roundId: facts.roundId, playerId, ...request }),
    apply: (position) => {
      if (!position || sumOf(position.bets) === 0) {
        throw new DomainError('UNPROCESSABLE', 'BET_NOT_PLACED', 'the player has no bet in this round');
      }
      const left: Bets = { ...position.bets };
      const moved: Bets = {};
      const take = (type: BetType, amount: number) => {
        const held = left[type] ?? 0;
        if (held === 0) {
          throw new DomainError('UNPROCESSABLE', 'BET_NOT_PLACED', `no ${type} bet to withdraw`, {
            betType: type,
          });
        }
        if (amount > held) {
          throw new DomainError('UNPROCESSABLE', 'BET_REDUCE_TOO_LARGE', `the ${type} bet is ${held}`, {
            betType: type,
          });
        }
        moved[type] = amount;
        if (amount === held) delete left[type];
        else left[type] = held - amount;
      };
      if (reduce) for (const b of reduce) take(b.type, b.amount);
      else for (const t of types ?? betList(position.bets).map((b) => b.type)) take(t, left[t] ?? 0);
      // What stays must still follow the rules (a reduced bet keeps the table minimum).
      if (sumOf(left) > 0) validate(config, betList(left));
      return { bets: left, moved };
    },
  };
  if (operator?.walletMode === 'seamless') {
    const txIds = {
      refund: withdrawTxIdOf(facts.operatorId, facts.roundId, playerId, idempotencyKey),
      debit: debitTxIdOf(facts.operatorId, facts.roundId, playerId, idempotencyKey),
    };
    return withdrawSeamless(ctx, facts, config, change, txIds, fresh);
  }
  return changePosition(ctx, facts, config, change, fresh);
}
