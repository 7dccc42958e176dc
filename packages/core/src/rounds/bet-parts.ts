/**
 * The parts of a position change that the hosted bet path (bets.ts) and the seamless one
 * (seamless-bets.ts) share: the call's validation, the round's facts and the shoe's configuration
 * from the process caches, the seat plan, the position's write and the betting gate's check.
 */
import { BET_TYPES, type Bet, BetRuleError, type TableConfig, validateBets } from '@pyb/engine';
import type {
  Actor,
  BetInput,
  Bets,
  Expect,
  PositionRecord,
  RoundRecord,
  SeatRecord,
  WriteOp,
} from '../shared';
import { type Ctx, checkId, conflict, DomainError, guard, invalid, type RoundFacts } from '../shared';
import { gateOf, seatIdle } from '../tables';

/**
 * Calls (bets, raises, reductions, withdrawals) one position may take in one coup. The position item
 * stays ~0.5 KB whatever the count (no list grows with calls); the bound keeps a position's ledger
 * range — what a replay reads to verify it — small.
 */
export const MAX_POSITION_CALLS = 1_000;

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

/** A bet the operator had switched off when the round opened (RoundRecord.betsOff) is refused in it. */
export function offeredInRound(facts: RoundFacts, bets: readonly Bet[]): void {
  const off = bets.find((b) => (facts.betsOff as readonly string[] | undefined)?.includes(b.type));
  if (off)
    throw new DomainError(
      'UNPROCESSABLE',
      'BET_SIDE_DISABLED',
      `the operator has switched ${off.type} off at this table for this round`,
      { betType: off.type },
    );
}

export function normalizeBets(input: readonly BetInput[] | undefined): Bet[] {
  if (!Array.isArray(input) || input.length < 1 || input.length > BET_TYPES.length) {
    throw invalid('BET_EMPTY', `a bet call carries 1-${BET_TYPES.length} bets`);
  }
  return input.map((b) => ({ type: b?.type, amount: b?.amount }));
}

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
    ...(round.closesAt !== undefined && { closesAt: round.closesAt }),
    ...(round.betsOff !== undefined && { betsOff: round.betsOff }),
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
export interface Outcome {
  bets: Bets;
  /** The bets this call adds (BET) or gives back (BET_WITHDRAWAL), for its ledger entry. */
  moved: Bets;
}

export interface Change {
  kind: 'BET' | 'BET_WITHDRAWAL';
  playerId: string;
  ledgerKey: string;
  hash: string;
  /** A bet's requested seat (undefined: the seat he holds, else standing). */
  seat?: number;
  apply(position: PositionRecord | undefined): Outcome;
}

/** The seat part of a bet: which seat it is made from and the seat item's write, if any. */
export interface SeatPlan {
  seat: number | null;
  op?: WriteOp;
  /** The player asked for this seat (a lost race for it is SEAT_TAKEN, not a retry). */
  claimed: boolean;
  /**
   * The seat's `lastRound` before this coup marked it (kept on the position as `seatBefore`): what a
   * withdrawal of the whole stake puts back, the coup not played.
   */
  before?: number;
}

/**
 * A position that holds a stake: the coup is being played from its place. One whose bets were all
 * withdrawn has not played it (seed 004 "no participa"): its next bet places it afresh.
 */
export const staked = (position: PositionRecord | undefined): position is PositionRecord =>
  (position?.stake ?? 0) > 0;

export function planSeat(
  facts: RoundFacts,
  change: Change,
  position: PositionRecord | undefined,
  seats: readonly SeatRecord[],
  at: string,
): SeatPlan {
  const { playerId, seat: requested } = change;
  const round = facts.tableRound;
  if (staked(position)) {
    // The bet that opened the stake fixed the player's place (one place per player per coup, seed 004).
    const place = position.seat ?? null;
    if (requested !== undefined && requested !== place) {
      throw conflict('SEAT_MISMATCH', `this coup's position is ${placeName(place)}`);
    }
    return { seat: place, claimed: false };
  }
  const key = { tableId: facts.tableId, seat: 0 };
  const mine = seats.find((s) => s.playerId === playerId);
  // Marked as played in this coup, on the lastRound read: a stale read fails and is retried (never
  // recorded, and not SEAT_TAKEN: the retry reads strongly and finds whether the seat is still his).
  const keep = (s: SeatRecord): SeatPlan => ({
    seat: s.seat,
    claimed: false,
    before: s.lastRound === undefined ? 0 : Math.min(s.lastRound, round - 1),
    op: {
      kind: 'update',
      entity: 'seat',
      key: { ...key, seat: s.seat },
      set: { lastRound: round, updatedAt: at },
      expect: { playerId, lastRound: s.lastRound ?? null },
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
    lastRound: round,
    since: at,
    updatedAt: at,
  };
  // Claimed if free (the item may not exist yet), or from a holder idle since it was read. Withdrawn
  // in this coup, the claimer counts as seated just before it, not having played it.
  const claimIf = (expect: Expect, upsert: boolean): SeatPlan => ({
    seat: requested,
    claimed: true,
    before: round - 1,
    op: { kind: 'update', entity: 'seat', key: { ...key, seat: requested }, set: claim, upsert, expect },
  });
  if (!target?.playerId) return claimIf({ playerId: null }, true);
  if (seatIdle(target, round)) {
    return claimIf({ playerId: target.playerId, lastRound: target.lastRound ?? null }, false);
  }
  throw conflict('SEAT_TAKEN', `seat ${requested} is taken`);
}

/**
 * The seat part of a withdrawal that leaves no stake: the coup is not played (seed 004: "el jugador
 * que no participa"), so the mark its bet put on the holder's seat is undone — else a holder who bets
 * and withdraws every coup would keep his seat forever. Nothing when the seat is no longer his or
 * was not marked by this coup. `seats` must be read strongly consistent (the mark may be just written).
 */
export function unplaySeat(
  facts: RoundFacts,
  playerId: string,
  position: PositionRecord | undefined,
  stakeLeft: number,
  seats: readonly SeatRecord[],
  at: string,
): WriteOp | undefined {
  const place = position?.seat ?? null;
  if (stakeLeft > 0 || !staked(position) || place === null) return undefined;
  const held = seats.find((s) => s.seat === place);
  if (held?.playerId !== playerId || held.lastRound !== facts.tableRound) return undefined;
  return {
    kind: 'update',
    entity: 'seat',
    key: { tableId: facts.tableId, seat: place },
    set: { lastRound: position.seatBefore ?? facts.tableRound - 1, updatedAt: at },
    expect: { playerId, lastRound: facts.tableRound },
  };
}

const placeName = (seat: number | null) => (seat === null ? 'standing' : `at seat ${seat}`);

/** The position after the call: a new one (put) or the next version of the one read (update). */
export function positionPart(
  facts: RoundFacts,
  position: PositionRecord | undefined,
  playerId: string,
  next: {
    bets: Bets;
    stake: number;
    reserve: number;
    seat: number | null;
    sessionId?: string;
    /** The seat's mark before this coup (SeatPlan.before), when this call marked it. */
    seatBefore?: number;
  },
  seq: number,
  at: string,
  /**
   * Seamless: the record of this call in the operator's wallet — the debit of a bet, the REFUND credit
   * of a reduce/withdraw (the position lists them in order; its seqs are call numbers).
   */
  callTxId?: string,
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
      ...(next.seatBefore !== undefined && { seatBefore: next.seatBefore }),
      ...(next.sessionId !== undefined && { sessionId: next.sessionId }),
      ...(callTxId !== undefined && { wallet: 'seamless' as const, debits: [callTxId] }),
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
    // A bet after a withdrawal of everything places the position afresh (planSeat).
    ...((position.seat ?? null) !== next.seat && { seat: next.seat }),
    ...(next.seatBefore !== undefined && { seatBefore: next.seatBefore }),
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
      ...(callTxId !== undefined && { append: { debits: [callTxId] } }),
      expect: { calls: position.calls, settledAt: null, refundedAt: null },
    },
    stored: {
      ...position,
      ...set,
      ...(callTxId !== undefined && { debits: [...(position.debits ?? []), callTxId] }),
    },
  };
}

/** "No va más" not called for the player's shard: a check, never a write (bets do not contend on it). */
export const gatePart = (facts: RoundFacts, playerId: string): WriteOp => ({
  kind: 'check',
  entity: 'gate',
  key: { roundId: facts.roundId, gate: gateOf(playerId, facts.gates) },
  expect: { status: 'OPEN' },
});
