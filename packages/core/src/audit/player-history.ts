/**
 * The player's game history (UKGC RTS 1B; docs/api.md, "Player history"): his rounds opened in
 * [from, to), newest first, each the recall's replay (one view, not a second one), and the period's
 * totals. Both read the player's position index between `from` and `to` only: the pages reach any
 * round of the range whatever the number of rounds (issue #28 item 5: 12 months self-serve, beyond the
 * 2,000-round bound), a page at a time with the store's cursor; the totals are summed in the request
 * over at most HISTORY_MAX_ROUNDS positions, and are null for a range holding more. Read through the
 * Store port only.
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
import { invalid, mapBounded, notFound, timeRange } from '../shared';
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
  const checked = timeRange(from, to, HISTORY_MAX_DAYS * DAY_MS);
  if (!checked)
    throw invalid(
      'HISTORY_RANGE_INVALID',
      `from and to must be ISO times with from < to, at most ${HISTORY_MAX_DAYS} days apart`,
    );
  return checked;
}

const emptyTotals = (): HistoryTotalsView => ({
  currency: null,
  rounds: 0,
  stakes: 0,
  returns: 0,
  commission: 0,
  commissionOwed: 0,
  refunds: 0,
  open: 0,
  winLoss: 0,
});

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

/**
 * The totals of the range: one walk of the range's positions only (the index read between `from` and
 * `to`), at most HISTORY_MAX_ROUNDS of them; a range holding more has no totals (null) — its rounds
 * are still served, page by page, and the player gets totals for a shorter range.
 */
async function rangeTotals(
  ctx: AuditCtx,
  operatorId: string,
  playerId: string,
  r: { from: string; to: string },
  currency: string,
): Promise<HistoryTotalsView | null> {
  const totals = emptyTotals();
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listPlayerPositions(operatorId, playerId, {
      limit: WALK_PAGE,
      openedIn: r,
      ...(cursor !== undefined && { cursor }),
    });
    for (const p of page.items) {
      if (totals.rounds >= HISTORY_MAX_ROUNDS) return null;
      add(totals, p);
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  if (totals.rounds > 0) totals.currency = currency;
  totals.winLoss = totals.returns - totals.stakes;
  return totals;
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
  // The page: the range's positions from the client's cursor (the index read between from and to, so
  // a page costs the same however many rounds are newer than the range or older than the cursor).
  const [totals, page] = await Promise.all([
    rangeTotals(ctx, operatorId, playerId, r, currency),
    ctx.store.listPlayerPositions(operatorId, playerId, {
      limit,
      openedIn: r,
      ...(input.cursor !== undefined && { cursor: input.cursor }),
    }),
  ]);
  const picked = page.items;
  // A full page's cursor may point past the range's last round: look one ahead, so the last page says so.
  const more =
    page.cursor !== undefined &&
    (
      await ctx.store.listPlayerPositions(operatorId, playerId, {
        limit: 1,
        openedIn: r,
        cursor: page.cursor,
      })
    ).items.length > 0;

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
    nextCursor: more ? page.cursor! : null,
  };
}
