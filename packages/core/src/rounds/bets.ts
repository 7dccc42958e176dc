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
 * `transactionParts` (hosted-bets.ts).
 */
import { BET_TYPES, type BetType, betList } from '@pyb/engine';
import type { Actor, Bets, PlaceBetInput, PlaceBetResult, WithdrawBetsInput } from '../shared';
import {
  actsFor,
  type Ctx,
  checkIdempotencyKey,
  checkPlayerId,
  clientKey,
  DomainError,
  invalid,
  type RoundFacts,
  requestHash,
  sumOf,
  withinScope,
} from '../shared';
import { operatorOf } from '../wallet';
import { type Change, normalizeBets, offeredInRound, roundFacts, shoeConfig, validate } from './bet-parts';
import { roundNotOpen } from './round-not-open';
import { stakeCallsOf } from './stake-sources';

// ---- the use cases --------------------------------------------------------------------------------

/**
 * Places bets for a player in an open round: adds them to his position (a type already bet is raised),
 * the whole position validated with the table's rules; from his seat or standing (PlaceBetInput.seat).
 */
export async function placeBet(ctx: Ctx, actor: Actor, input: PlaceBetInput): Promise<PlaceBetResult> {
  const playerId = checkPlayerId(input.playerId);
  actsFor(actor, playerId);
  const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
  const bets = normalizeBets(input.bets);
  if (input.seat !== undefined && (!Number.isSafeInteger(input.seat) || input.seat < 1)) {
    throw invalid('SEAT_INVALID', 'a seat is a number from 1');
  }
  // The operator (hence the stake source: stake-sources.ts) comes from a per-process cache (read at
  // most once a minute): the hosted path keeps its two round trips.
  const [{ facts, fresh }, operator] = await Promise.all([
    roundFacts(ctx, actor, input.roundId),
    operatorOf(ctx, actor.operatorId),
  ]);
  bettingOpen(ctx, facts);
  const config = await shoeConfig(ctx, facts.shoeId);
  withinScope(actor, { tableId: facts.tableId, currency: config.currency });
  validate(config, bets);
  offeredInRound(facts, bets);
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
  return stakeCallsOf(operator).change(ctx, { facts, config, change, idempotencyKey, operator, fresh });
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
  actsFor(actor, playerId);
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
  bettingOpen(ctx, facts);
  const config = await shoeConfig(ctx, facts.shoeId);
  withinScope(actor, { tableId: facts.tableId, currency: config.currency });
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
  return stakeCallsOf(operator).change(ctx, { facts, config, change, idempotencyKey, operator, fresh });
}

/**
 * A cadence round's betting closes at `closesAt`, whether or not its "no va más" step has run yet:
 * the timer only calls that step, the refusal is here and in the gates' conditional writes.
 */
function bettingOpen(ctx: Ctx, facts: RoundFacts): void {
  if (facts.closesAt !== undefined && ctx.now() >= facts.closesAt) throw roundNotOpen(facts);
}
