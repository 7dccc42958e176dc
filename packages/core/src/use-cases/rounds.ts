import {
  BET_TYPES,
  type Bet,
  BetRuleError,
  type BetType,
  betLimit,
  betList,
  type TableConfig,
  validateBets,
  worstCaseCommission,
} from '@pyb/engine';
import type { Actor } from '../actor';
import type { OpenRoundInput, PlaceBetInput, PlaceBetResult, RoundView } from '../api';
import { nextAudit, putAudit } from '../audit-chain';
import { DomainError } from '../errors';
import { clientKey } from '../ledger-keys';
import type { Bets, LedgerEntry, PositionRecord, RoundRecord, ShoeRecord } from '../model';
import { type Expect, TransactionCanceled, type WriteOp } from '../ports/store';
import { backoff, MAX_ATTEMPTS, tooMuchContention } from '../retry';
import { ledgerEntryView, positionView, roundView } from '../views';
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
  requestHash,
} from './context';
import { checkSeed, closeContributions, signContributionsHead } from './contributions';
import { loadTable } from './tables';

export async function loadRound(
  ctx: Ctx,
  actor: Actor,
  roundId: string,
  access: 'read' | 'write',
): Promise<RoundRecord> {
  checkId('roundId', roundId);
  return guard(actor, await ctx.store.get('round', { roundId }), 'round', roundId, access);
}

export async function getRound(ctx: Ctx, actor: Actor, input: { roundId: string }): Promise<RoundView> {
  const round = await loadRound(ctx, actor, input.roundId, 'read');
  return roundView(round, await ctx.store.listPositions(round.roundId));
}

/**
 * Opens the table's next round on its shoe. One round in play per table (a condition on the table
 * item). The first round of a shoe first closes its seed contributions (contributions.ts): the
 * operator's client seed, if given, is the last one; the beacon round that will fix the order is named
 * then, and published only after.
 */
export async function openRound(ctx: Ctx, actor: Actor, input: OpenRoundInput): Promise<RoundView> {
  const wanted =
    input.clientSeed === undefined ? undefined : checkSeed(input.clientSeed, 'CLIENT_SEED_INVALID');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const table = await loadTable(ctx, actor, input.tableId, 'write');
    if (!table.currentShoeId) throw conflict('NO_SHOE_OPEN', `table ${table.tableId} has no shoe in play`);
    if (table.openRoundId) throw conflict('ROUND_IN_PLAY', `round ${table.openRoundId} is still in play`);
    const shoe = (await ctx.store.get('shoe', { shoeId: table.currentShoeId })) as ShoeRecord;
    if (shoe.status !== 'OPEN')
      throw conflict('SHOE_ENDED', `shoe ${shoe.shoeId} has ended; close it and open another`);
    if (!shoe.contributionsClosed) {
      if (!(await closeContributions(ctx, shoe, wanted))) await backoff(attempt);
      continue; // read again: the seeds are fixed now (by this call or a concurrent one)
    }
    if (wanted !== undefined && wanted !== shoe.clientSeed) {
      throw conflict('CLIENT_SEED_ALREADY_FIXED', `shoe ${shoe.shoeId} already has its seeds`);
    }
    // The receipt of the close of contributions, before any bet (a no-op once signed).
    await signContributionsHead(ctx, shoe);
    const openedAt = ctx.now();
    const round: RoundRecord = {
      roundId: ctx.ids.next('rnd'),
      tableId: table.tableId,
      shoeId: shoe.shoeId,
      operatorId: table.operatorId,
      number: shoe.rounds + 1,
      status: 'OPEN',
      seats: shoe.config.seats,
      seatsTaken: 0,
      openedAt,
      audit: { opened: -1 },
    };
    const opened = await nextAudit(ctx.store, shoe.shoeId, 'ROUND_OPENED', round.roundId, openedAt, {
      tableId: table.tableId,
      number: round.number,
    });
    round.audit.opened = opened.seq;
    try {
      await ctx.store.transact([
        {
          kind: 'update',
          entity: 'table',
          key: { tableId: table.tableId },
          set: { openRoundId: round.roundId },
          expect: { openRoundId: null, currentShoeId: shoe.shoeId },
        },
        {
          kind: 'update',
          entity: 'shoe',
          key: { shoeId: shoe.shoeId },
          add: { rounds: 1 },
          expect: { status: 'OPEN', rounds: shoe.rounds },
        },
        { kind: 'put', entity: 'round', key: { roundId: round.roundId }, item: round },
        putAudit(opened),
      ]);
      return roundView(round, []);
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      await backoff(attempt); // the re-read says why (round in play, shoe ended) or we simply retry
    }
  }
  throw tooMuchContention('opening the round');
}

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

const validate = (config: ShoeRecord['config'], bets: readonly Bet[]) => {
  try {
    validateBets(config, bets);
  } catch (error) {
    if (error instanceof BetRuleError) throw betRule(error);
    throw error;
  }
};

function normalizeBets(input: readonly { type: BetType; amount: number }[]): Bet[] {
  if (!Array.isArray(input) || input.length < 1 || input.length > BET_TYPES.length) {
    throw invalid('BET_EMPTY', `a bet call carries 1-${BET_TYPES.length} bets`);
  }
  return input.map((b) => ({ type: b?.type, amount: b?.amount }));
}

/** The shoe's configuration, read once per shoe (it never changes while the shoe is in play). */
async function shoeConfig(ctx: Ctx, shoeId: string): Promise<TableConfig> {
  const cached = ctx.configs.get(shoeId);
  if (cached) return cached;
  const shoe = await ctx.store.get('shoe', { shoeId });
  if (!shoe) throw new Error(`shoe ${shoeId} missing`);
  ctx.configs.set(shoeId, shoe.config);
  if (ctx.configs.size > 256) ctx.configs.delete(ctx.configs.keys().next().value!);
  return shoe.config;
}

/**
 * Places bets for a player in an open round: ONE conditional transaction that debits the wallet
 * (conditional on its sequence number and on the stake — and in DEFERRED mode the worst-case
 * commission of his Banca bet — being available), adds the bets to his position (the table rules as
 * conditions: no Punto with Banca, per-type maximum, one seat per player within the table's seats),
 * checks the round is open, and writes the ledger entry under the client's idempotency key. A retry
 * with the key replays the first answer; the key with another body is refused.
 */
export async function placeBet(ctx: Ctx, actor: Actor, input: PlaceBetInput): Promise<PlaceBetResult> {
  const playerId = checkPlayerId(input.playerId);
  const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
  const bets = normalizeBets(input.bets);
  const first = await loadRound(ctx, actor, input.roundId, 'write');
  const config = await shoeConfig(ctx, first.shoeId);
  validate(config, bets);
  const ordered = betList(Object.fromEntries(bets.map((b) => [b.type, b.amount])) as Bets);
  const hash = requestHash('bet', { roundId: first.roundId, playerId, bets: ordered });
  const ledgerKey = clientKey(idempotencyKey);
  const stake = ordered.reduce((s, b) => s + b.amount, 0);
  if (!Number.isSafeInteger(stake))
    throw invalid('BET_AMOUNT_INVALID', 'the stake exceeds the safe integer range');
  const walletKey = { operatorId: first.operatorId, playerId };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // Read in parallel: the transaction's conditions pin every one of these states anyway.
    const [used, round, wallet, position] = await Promise.all([
      ctx.store.get('ledger', { ...walletKey, key: ledgerKey }),
      ctx.store.get('round', { roundId: first.roundId }).then((r) => r!),
      ctx.store.get('wallet', walletKey),
      ctx.store.get('position', { roundId: first.roundId, playerId }),
    ]);
    // A retry is answered as the first time, whatever happened to the round since.
    if (used) return replay(ctx, used, hash, first.roundId, playerId);
    let merged: Bets;
    let reserve: number;
    let at: string;
    let plan: MovementPlan;
    try {
      if (round.status !== 'OPEN')
        throw conflict('ROUND_NOT_OPEN', `round ${round.roundId} is not taking bets (${round.status})`);
      if (!wallet) throw new DomainError('NOT_FOUND', 'WALLET_NOT_FOUND', `wallet ${playerId} not found`);
      if (wallet.currency !== config.currency) {
        throw new DomainError(
          'UNPROCESSABLE',
          'CURRENCY_MISMATCH',
          `the wallet is in ${wallet.currency}, the table plays in ${config.currency}`,
        );
      }
      if (position?.settledAt || position?.refundedAt)
        throw conflict('ROUND_NOT_OPEN', `round ${round.roundId} is over`);
      if (!position && round.seatsTaken >= round.seats)
        throw conflict('TABLE_FULL', `all ${round.seats} seats are taken`);

      // The whole position after this call must still follow the rules.
      merged = { ...position?.bets };
      for (const b of ordered) merged[b.type] = (merged[b.type] ?? 0) + b.amount;
      validate(config, betList(merged));
      reserve = worstCaseCommission(config, betList(merged));
      const reserveDelta = reserve - (position?.reserve ?? 0);
      at = ctx.now();
      plan = planMovement(wallet, {
        kind: 'BET',
        key: ledgerKey,
        requestHash: hash,
        amount: -stake,
        reserved: reserveDelta,
        roundId: round.roundId,
        shoeId: round.shoeId,
        tableId: round.tableId,
        bets: Object.fromEntries(ordered.map((b) => [b.type, b.amount])),
        at,
      });
    } catch (error) {
      // Refused on state read after a concurrent call with this key committed: that call's answer is
      // the answer (the next read replays it), not this refusal.
      if (error instanceof DomainError && (await ctx.store.get('ledger', { ...walletKey, key: ledgerKey })))
        continue;
      throw error;
    }
    const ops: WriteOp[] = [
      ...plan.ops,
      positionOp(round, position, playerId, ordered, merged, reserve, stake, ledgerKey, at, config),
      roundOp(round, position),
    ];
    try {
      await ctx.store.transact(ops);
      const stored: PositionRecord = position
        ? {
            ...position,
            bets: merged,
            stake: position.stake + stake,
            reserve,
            betKeys: [...position.betKeys, ledgerKey],
            updatedAt: at,
          }
        : newPosition(round, playerId, merged, stake, reserve, ledgerKey, at);
      return {
        position: positionView(stored),
        balance: plan.entry.balanceAfter,
        entry: ledgerEntryView(plan.entry),
        replayed: false,
      };
    } catch (error) {
      if (!(error instanceof TransactionCanceled)) throw error;
      // Ledger key taken: the loop's first read replays or refuses it. Round closed or full: the next
      // read reports it. Wallet or position moved on: recompute from the new state.
      if (!error.failed(1)) await backoff(attempt);
    }
  }
  throw tooMuchContention('placing the bet');
}

async function replay(
  ctx: Ctx,
  entry: LedgerEntry,
  hash: string,
  roundId: string,
  playerId: string,
): Promise<PlaceBetResult> {
  if (entry.requestHash !== hash || entry.kind !== 'BET') throw keyReused();
  const position = await ctx.store.get('position', { roundId, playerId });
  if (!position) throw new Error(`bet ${entry.key} recorded without its position`);
  return {
    position: positionView(position),
    balance: entry.balanceAfter,
    entry: ledgerEntryView(entry),
    replayed: true,
  };
}

function newPosition(
  round: RoundRecord,
  playerId: string,
  bets: Bets,
  stake: number,
  reserve: number,
  ledgerKey: string,
  at: string,
): PositionRecord {
  return {
    roundId: round.roundId,
    playerId,
    operatorId: round.operatorId,
    tableId: round.tableId,
    shoeId: round.shoeId,
    openedAt: round.openedAt,
    bets,
    stake,
    reserve,
    betKeys: [ledgerKey],
    createdAt: at,
    updatedAt: at,
  };
}

const OPPOSITE: Partial<Record<BetType, BetType>> = { PLAYER: 'BANKER', BANKER: 'PLAYER' };

function positionOp(
  round: RoundRecord,
  position: PositionRecord | undefined,
  playerId: string,
  added: readonly Bet[],
  merged: Bets,
  reserve: number,
  stake: number,
  ledgerKey: string,
  at: string,
  config: ShoeRecord['config'],
): WriteOp {
  const key = { roundId: round.roundId, playerId };
  if (!position) {
    return {
      kind: 'put',
      entity: 'position',
      key,
      item: newPosition(round, playerId, merged, stake, reserve, ledgerKey, at),
    };
  }
  // The rules as conditions on the stored position: each raised type stays within its maximum, a type
  // not bet yet is still absent, the opposite side is still absent, and nothing is settled.
  const expect: Record<string, Expect[string]> = {
    settledAt: null,
    refundedAt: null,
    reserve: position.reserve,
  };
  const add: Record<string, number> = { stake, reserve: reserve - position.reserve };
  for (const bet of added) {
    const path = `bets.${bet.type}`;
    expect[path] =
      position.bets[bet.type] === undefined ? null : { lte: betLimit(config, bet.type)!.max - bet.amount };
    add[path] = bet.amount;
    const opposite = OPPOSITE[bet.type];
    if (opposite) expect[`bets.${opposite}`] = null;
  }
  return {
    kind: 'update',
    entity: 'position',
    key,
    add,
    append: { betKeys: [ledgerKey] },
    set: { updatedAt: at },
    expect,
  };
}

/** A new position takes a seat (counted on the round, within the table's seats); the round must be open. */
function roundOp(round: RoundRecord, position: PositionRecord | undefined): WriteOp {
  const key = { roundId: round.roundId };
  return position
    ? { kind: 'check', entity: 'round', key, expect: { status: 'OPEN' } }
    : {
        kind: 'update',
        entity: 'round',
        key,
        add: { seatsTaken: 1 },
        expect: { status: 'OPEN', seatsTaken: { lt: round.seats } },
      };
}
