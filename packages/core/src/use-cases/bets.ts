/**
 * The bet path: placing, raising, reducing and withdrawing bets before "no va más".
 *
 * A call is at most two DynamoDB round trips in the steady state (docs/architecture.md, "The bet
 * path"):
 *   1. parallel reads — the wallet and the position (strongly consistent), the round (eventually
 *      consistent: only a hint that "no va más" was called) and, for a bet, the table's seats
 *      (eventually consistent: whether the player holds one); the round's fixed facts and the shoe's
 *      configuration come from per-process caches;
 *   2. ONE transaction built from small per-item parts: the wallet update and the ledger entry keyed
 *      by the client's idempotency key (that entry IS the idempotency record of the call), the
 *      position put/update (conditional on its version `calls`), the ConditionCheck of the player's
 *      betting gate, and the seat item when the player holds or claims one.
 * Bets of different players never write a common item; they only condition-check a gate when they
 * hash to the same shard. Nothing grows with the number of calls: a position counts them and refuses
 * one past MAX_POSITION_CALLS.
 *
 * #16 (responsible gaming) adds its conditions as one more part of the same transaction: see
 * `transactionParts`.
 */
import {
  BET_TYPES,
  type Bet,
  BetRuleError,
  type BetType,
  betList,
  type TableConfig,
  validateBets,
  worstCaseCommission,
} from '@pyb/engine';
import type { Actor } from '../actor';
import type { BetInput, PlaceBetInput, PlaceBetResult, WithdrawBetsInput } from '../api';
import { DomainError, notFound } from '../errors';
import { gateOf } from '../gates';
import { clientKey } from '../ledger-keys';
import type { Bets, LedgerEntry, PositionRecord, RoundRecord, SeatRecord, WalletRecord } from '../model';
import { type Expect, TransactionCanceled, type WriteOp } from '../ports/store';
import { checkBet } from '../responsible-gaming';
import { backoff, MAX_ATTEMPTS, tooMuchContention } from '../retry';
import { ledgerEntryView, positionView } from '../views';
import { type MovementPlan, planMovement } from '../wallet-ledger';
import {
  type Ctx,
  checkId,
  checkIdempotencyKey,
  checkPlayerId,
  conflict,
  guard,
  invalid,
  keyReused,
  type RoundFacts,
  requestHash,
} from './context';

/**
 * Calls (bets, raises, reductions, withdrawals) one position may take in one coup. The position item
 * stays ~0.5 KB whatever the count (no list grows with calls); the bound keeps a position's ledger
 * range — what a replay reads to verify it — small.
 */
export const MAX_POSITION_CALLS = 1_000;

/** Seed 004: a seat may be lost by a player who sits out more than three consecutive coups. */
export const SEAT_IDLE_COUPS = 3;

// ---- inputs -------------------------------------------------------------------------------------

function betRule(error: BetRuleError): DomainError {
  const kind =
    error.code === 'BET_AMOUNT_INVALID' || error.code === 'BET_TYPE_INVALID' || error.code === 'BET_EMPTY'
      ? 'INVALID'
      : 'UNPROCESSABLE';
  return new DomainError(
    kind,
    error.code,
    error.message,
    error.betType ? { betType: error.betType } : undefined,
  );
}

export function validate(config: TableConfig, bets: readonly Bet[]): void {
  try {
    validateBets(config, bets);
  } catch (error) {
    if (error instanceof BetRuleError) throw betRule(error);
    throw error;
  }
}

function normalizeBets(input: readonly BetInput[] | undefined): Bet[] {
  if (!Array.isArray(input) || input.length < 1 || input.length > BET_TYPES.length) {
    throw invalid('BET_EMPTY', `a bet call carries 1-${BET_TYPES.length} bets`);
  }
  return input.map((b) => ({ type: b?.type, amount: b?.amount }));
}

const sumOf = (bets: Bets): number => betList(bets).reduce((s, b) => s + b.amount, 0);

/** The round's fixed facts: from the process cache, else one read of the round (then cached). */
export async function roundFacts(
  ctx: Ctx,
  actor: Actor,
  roundId: string,
): Promise<{ facts: RoundFacts; fresh?: RoundRecord }> {
  checkId('roundId', roundId);
  const cached = ctx.rounds.get(roundId);
  if (cached) return { facts: guard(actor, cached, 'round', roundId, 'write') };
  const round = guard(actor, await ctx.store.get('round', { roundId }), 'round', roundId, 'write');
  const facts: RoundFacts = {
    roundId: round.roundId,
    tableId: round.tableId,
    shoeId: round.shoeId,
    operatorId: round.operatorId,
    number: round.number,
    seats: round.seats,
    gates: round.gates,
    tableRound: round.tableRound,
    openedAt: round.openedAt,
  };
  ctx.rounds.set(roundId, facts);
  return { facts, fresh: round };
}

/** The shoe's configuration, read once per shoe (it never changes while the shoe is in play). */
export async function shoeConfig(ctx: Ctx, shoeId: string): Promise<TableConfig> {
  const cached = ctx.configs.get(shoeId);
  if (cached) return cached;
  const shoe = await ctx.store.get('shoe', { shoeId });
  if (!shoe) throw new Error(`shoe ${shoeId} missing`);
  ctx.configs.set(shoeId, shoe.config);
  return shoe.config;
}

// ---- one change of a position ---------------------------------------------------------------------

/** What a call does to the position, decided on the state read (throws the refusal). */
interface Outcome {
  bets: Bets;
  /** The bets this call adds (BET) or gives back (BET_WITHDRAWAL), for its ledger entry. */
  moved: Bets;
}

interface Change {
  kind: 'BET' | 'BET_WITHDRAWAL';
  playerId: string;
  ledgerKey: string;
  hash: string;
  /** A bet's requested seat (undefined: the seat he holds, else standing). */
  seat?: number;
  apply(position: PositionRecord | undefined): Outcome;
}

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
): Promise<ReadState> {
  const { playerId } = change;
  const [round, wallet, position, seats] = await Promise.all([
    fresh ?? ctx.store.get('round', { roundId: facts.roundId }, { consistent: false }),
    ctx.store.get('wallet', { operatorId: facts.operatorId, playerId }),
    ctx.store.get('position', { roundId: facts.roundId, playerId }),
    change.kind === 'BET' ? ctx.store.listSeats(facts.tableId, { consistent: false }) : undefined,
  ]);
  return { round, wallet, position, seats };
}

/** The seat part of a bet: which seat it is made from and the seat item's write, if any. */
interface SeatPlan {
  seat: number | null;
  op?: WriteOp;
  /** The player asked for this seat (a lost race for it is SEAT_TAKEN, not a retry). */
  claimed: boolean;
}

export const seatIdle = (seat: SeatRecord, tableRound: number): boolean =>
  tableRound - 1 - (seat.lastRound ?? 0) > SEAT_IDLE_COUPS;

function planSeat(
  facts: RoundFacts,
  change: Change,
  position: PositionRecord | undefined,
  seats: readonly SeatRecord[],
  at: string,
): SeatPlan {
  const { playerId, seat: requested } = change;
  if (position) {
    // The first bet of the coup fixed the player's place (one place per player per coup, seed 004).
    if (requested !== undefined && requested !== position.seat) {
      throw conflict('SEAT_MISMATCH', `this coup's position is ${placeName(position.seat)}`);
    }
    return { seat: position.seat, claimed: false };
  }
  const key = { tableId: facts.tableId, seat: 0 };
  const mine = seats.find((s) => s.playerId === playerId);
  const keep = (s: SeatRecord): SeatPlan => ({
    seat: s.seat,
    claimed: requested !== undefined,
    op: {
      kind: 'update',
      entity: 'seat',
      key: { ...key, seat: s.seat },
      set: { lastRound: facts.tableRound, updatedAt: at },
      expect: { playerId },
    },
  });
  if (requested === undefined) return mine ? keep(mine) : { seat: null, claimed: false };
  if (!Number.isSafeInteger(requested) || requested < 1 || requested > facts.seats) {
    throw invalid('SEAT_INVALID', `seats are numbered 1 to ${facts.seats}`);
  }
  if (mine) {
    if (mine.seat === requested) return keep(mine);
    throw conflict('ALREADY_SEATED', `the player holds seat ${mine.seat} at this table`);
  }
  const target = seats.find((s) => s.seat === requested);
  const claim = {
    tableId: facts.tableId,
    operatorId: facts.operatorId,
    seat: requested,
    playerId,
    lastRound: facts.tableRound,
    since: at,
    updatedAt: at,
  };
  // Claimed if free (the item may not exist yet), or from a holder idle since it was read.
  const claimIf = (expect: Expect, upsert: boolean): SeatPlan => ({
    seat: requested,
    claimed: true,
    op: { kind: 'update', entity: 'seat', key: { ...key, seat: requested }, set: claim, upsert, expect },
  });
  if (!target?.playerId) return claimIf({ playerId: null }, true);
  if (seatIdle(target, facts.tableRound)) {
    return claimIf({ playerId: target.playerId, lastRound: target.lastRound ?? null }, false);
  }
  throw conflict('SEAT_TAKEN', `seat ${requested} is taken`);
}

const placeName = (seat: number | null) => (seat === null ? 'standing' : `at seat ${seat}`);

/** The position after the call: a new one (put) or the next version of the one read (update). */
function positionPart(
  facts: RoundFacts,
  position: PositionRecord | undefined,
  playerId: string,
  next: { bets: Bets; stake: number; reserve: number; seat: number | null; sessionId?: string },
  seq: number,
  at: string,
): { op: WriteOp; stored: PositionRecord } {
  const key = { roundId: facts.roundId, playerId };
  if (!position) {
    const item: PositionRecord = {
      roundId: facts.roundId,
      playerId,
      operatorId: facts.operatorId,
      tableId: facts.tableId,
      shoeId: facts.shoeId,
      openedAt: facts.openedAt,
      bets: next.bets,
      stake: next.stake,
      reserve: next.reserve,
      seat: next.seat,
      ...(next.sessionId !== undefined && { sessionId: next.sessionId }),
      calls: 1,
      firstSeq: seq,
      lastSeq: seq,
      createdAt: at,
      updatedAt: at,
    };
    return { op: { kind: 'put', entity: 'position', key, item }, stored: item };
  }
  const set = {
    bets: next.bets,
    stake: next.stake,
    reserve: next.reserve,
    calls: position.calls + 1,
    lastSeq: seq,
    updatedAt: at,
  };
  return {
    // `calls` is the position's version: the change applies to exactly the state it was computed from.
    op: {
      kind: 'update',
      entity: 'position',
      key,
      set,
      expect: { calls: position.calls, settledAt: null, refundedAt: null },
    },
    stored: { ...position, ...set },
  };
}

/** "No va más" not called for the player's shard: a check, never a write (bets do not contend on it). */
const gatePart = (facts: RoundFacts, playerId: string): WriteOp => ({
  kind: 'check',
  entity: 'gate',
  key: { roundId: facts.roundId, gate: gateOf(playerId, facts.gates) },
  expect: { status: 'OPEN' },
});

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
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = await readState(ctx, facts, change, attempt === 0 ? fresh : undefined);
    const at = ctx.now();
    let parts: Parts;
    let seatPlan: SeatPlan = { seat: null, claimed: false };
    try {
      const { round, wallet, position } = state;
      if (round?.status !== 'OPEN' || round.closingAt) {
        throw conflict('ROUND_NOT_OPEN', `round ${facts.roundId} is not taking bets`);
      }
      if (!wallet) throw notFound('wallet', change.playerId);
      if (wallet.currency !== config.currency) {
        throw new DomainError(
          'UNPROCESSABLE',
          'CURRENCY_MISMATCH',
          `the wallet is in ${wallet.currency}, the table plays in ${config.currency}`,
        );
      }
      if (position?.settledAt || position?.refundedAt)
        throw conflict('ROUND_NOT_OPEN', `round ${facts.roundId} is over`);
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
      if (change.kind === 'BET') seatPlan = planSeat(facts, change, position, state.seats ?? [], at);
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
      const seat = position ? position.seat : seatPlan.seat;
      parts = {
        money,
        position: positionPart(
          facts,
          position,
          change.playerId,
          { bets: outcome.bets, stake, reserve, seat, ...(sessionId !== undefined && { sessionId }) },
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
        return refused(conflict('ROUND_NOT_OPEN', `round ${facts.roundId} is not taking bets ("no va más")`));
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
  const { facts, fresh } = await roundFacts(ctx, actor, input.roundId);
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
  return changePosition(ctx, facts, config, change, fresh);
}

/** Reduces or withdraws a player's bets before "no va más" (WithdrawBetsInput). */
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
  const { facts, fresh } = await roundFacts(ctx, actor, input.roundId);
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
  return changePosition(ctx, facts, config, change, fresh);
}
