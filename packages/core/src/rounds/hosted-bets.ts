/**
 * A bet or withdrawal on a hosted wallet (the platform's own): the two round trips of bets.ts's
 * comment — the reads (`readState`), then one transaction built from per-item parts, the wallet's
 * ledger entry being the call's idempotency record (`changePosition`; a repeated key replays it).
 */
import { betList, type TableConfig, worstCaseCommission } from '@pyb/engine';
import type {
  LedgerEntry,
  PlaceBetResult,
  PositionRecord,
  RoundRecord,
  SeatRecord,
  WalletRecord,
} from '../shared';
import {
  attempts,
  backoff,
  type Ctx,
  conflict,
  DomainError,
  keyReused,
  ledgerEntryView,
  notFound,
  positionView,
  type RoundFacts,
  sumOf,
  TransactionCanceled,
  tooMuchContention,
  type WriteOp,
} from '../shared';
import { checkBet, type MovementPlan, planMovement } from '../wallet';
import {
  type Change,
  gatePart,
  MAX_POSITION_CALLS,
  planSeat,
  positionPart,
  type SeatPlan,
  unplaySeat,
} from './bet-parts';
import { roundNotOpen } from './round-not-open';

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

export async function changePosition(
  ctx: Ctx,
  {
    facts,
    config,
    change,
    fresh,
  }: { facts: RoundFacts; config: TableConfig; change: Change; fresh: RoundRecord | undefined },
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
    let realityCheck: PlaceBetResult['realityCheck'];
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
      realityCheck = rg?.realityCheck;
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
        ...(realityCheck && { realityCheck }),
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
