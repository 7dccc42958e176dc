/**
 * The player's game history (UKGC RTS 1B; docs/api.md, "Player history"): his rounds opened in
 * [from, to), newest first, each the recall's replay (one view, not a second one), and the period's
 * totals. The totals cover the whole range, so each request sums it: one walk of the player's position
 * index, newest first, a page of 100 at a time, stopping at the first round opened before `from`. The
 * walk is bounded: it reads at most HISTORY_MAX_ROUNDS positions (those newer than `to` included), else
 * the range is refused (HISTORY_TOO_LARGE). Read through the Store port only.
 */
import { HISTORY_MAX_DAYS, HISTORY_MAX_ROUNDS } from '@pyb/contracts';
import type {
  Actor,
  HistoryTotalsView,
  PlayerHistoryQuery,
  PlayerHistoryView,
  PositionRecord,
  RoundReplay,
} from '../shared';
import { DomainError, invalid, mapBounded, notFound } from '../shared';
import { operatorOf, walletModeOf } from '../wallet';
import type { AuditCtx } from './ctx';
import { recallScope } from './player-rounds';
import { ReplaySession } from './replay/session';

const WALK_PAGE = 100;
const DAY_MS = 86_400_000;
/** Rounds replayed at once (each reads its round, shoe chain and the player's ledger entries). */
const CONCURRENCY = 4;

/** [from, to) as canonical ISO strings (positions' `openedAt` compare as strings), or refused. */
function range(from: string, to: string): { from: string; to: string } {
  const f = Date.parse(from);
  const t = Date.parse(to);
  if (Number.isNaN(f) || Number.isNaN(t) || t <= f || t - f > HISTORY_MAX_DAYS * DAY_MS) {
    throw invalid(
      'HISTORY_RANGE_INVALID',
      `from and to must be ISO times with from < to, at most ${HISTORY_MAX_DAYS} days apart`,
    );
  }
  return { from: new Date(f).toISOString(), to: new Date(t).toISOString() };
}

/** Where the range starts in the index, and what it sums to. */
interface Walk {
  totals: HistoryTotalsView;
  /** The store cursor of the index page holding the range's newest position, and how many newer ones precede it there. */
  start: { cursor: string | undefined; skip: number } | undefined;
  /** The range's oldest position (its round), so its page says nothing follows. */
  oldest: string | undefined;
}

function add(totals: HistoryTotalsView, p: PositionRecord): void {
  totals.rounds += 1;
  const s = p.settlement;
  if (s) {
    totals.stakes += s.stake;
    totals.returns += s.payout;
    totals.commission += s.commission;
    totals.commissionOwed += s.commissionOwed;
  } else if (p.refundedAt !== undefined) totals.refunds += p.stake;
  else totals.open += 1;
}

async function walk(
  ctx: AuditCtx,
  operatorId: string,
  playerId: string,
  r: { from: string; to: string },
  currency: string,
): Promise<Walk> {
  const totals: HistoryTotalsView = {
    currency: null,
    rounds: 0,
    stakes: 0,
    returns: 0,
    commission: 0,
    commissionOwed: 0,
    refunds: 0,
    open: 0,
    winLoss: 0,
  };
  let start: Walk['start'];
  let oldest: string | undefined;
  let read = 0;
  let cursor: string | undefined;
  outer: do {
    const pageCursor = cursor;
    const page = await ctx.store.listPlayerPositions(operatorId, playerId, {
      limit: WALK_PAGE,
      ...(cursor !== undefined && { cursor }),
    });
    for (const [i, p] of page.items.entries()) {
      if (p.openedAt < r.from) break outer;
      if (++read > HISTORY_MAX_ROUNDS) {
        throw new DomainError(
          'UNPROCESSABLE',
          'HISTORY_TOO_LARGE',
          `the range reaches past the player's ${HISTORY_MAX_ROUNDS} most recent rounds`,
        );
      }
      if (p.openedAt >= r.to) continue;
      start ??= { cursor: pageCursor, skip: i };
      oldest = p.roundId;
      add(totals, p);
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  if (totals.rounds > 0) totals.currency = currency;
  totals.winLoss = totals.returns - totals.stakes;
  return { totals, start, oldest };
}

/** The currency a seamless player bets in: his latest position's first debit's ('' when he never bet). */
async function seamlessCurrency(ctx: AuditCtx, operatorId: string, playerId: string): Promise<string> {
  const [latest] = (await ctx.store.listPlayerPositions(operatorId, playerId, { limit: 1 })).items;
  const txId = latest?.debits?.[0];
  return (txId && (await ctx.store.get('seamlessTx', { txId }))?.currency) || '';
}

export async function playerHistory(
  ctx: AuditCtx,
  actor: Actor,
  input: PlayerHistoryQuery,
): Promise<PlayerHistoryView> {
  const { playerId, operatorId, limit } = recallScope(actor, input);
  const r = range(input.from, input.to);
  const [wallet, operator] = await Promise.all([
    ctx.store.get('wallet', { operatorId, playerId }),
    operatorOf(ctx, operatorId),
  ]);
  // A seamless operator's players have no wallet here: their currency is their debits'.
  if (!walletModeOf(operator).knows(wallet)) throw notFound('player', playerId);
  const currency = wallet?.currency ?? (await seamlessCurrency(ctx, operatorId, playerId));
  const { totals, start, oldest } = await walk(ctx, operatorId, playerId, r, currency);

  // The page: from the client's cursor, or from the index page where the range starts, skipping the
  // newer positions before it. Each read asks for exactly what the page still needs, so the store's
  // cursor after the last one is exactly where the next page starts.
  const picked: PositionRecord[] = [];
  let cursor = input.cursor ?? start?.cursor;
  let skip = input.cursor === undefined ? (start?.skip ?? 0) : 0;
  let more = input.cursor !== undefined || start !== undefined;
  while (more && picked.length < limit) {
    const page = await ctx.store.listPlayerPositions(operatorId, playerId, {
      limit: limit - picked.length + skip,
      ...(cursor !== undefined && { cursor }),
    });
    skip = 0;
    for (const p of page.items) {
      if (p.openedAt < r.from) {
        more = false;
        break;
      }
      if (p.openedAt < r.to) picked.push(p);
    }
    cursor = page.cursor;
    if (cursor === undefined) more = false;
  }
  if (picked.at(-1)?.roundId === oldest) more = false;

  const session = new ReplaySession(ctx);
  const rounds = await mapBounded(picked, CONCURRENCY, async (p): Promise<RoundReplay> => {
    const round = await ctx.store.get('round', { roundId: p.roundId });
    // A position whose round is gone is a broken record: say so rather than leave the round out.
    if (!round || round.operatorId !== operatorId)
      throw new Error(`round ${p.roundId} of a stored position is missing`);
    return session.replay(round, playerId);
  });
  return {
    playerId,
    operatorId,
    from: r.from,
    to: r.to,
    totals,
    rounds,
    nextCursor: more && cursor !== undefined ? cursor : null,
  };
}
