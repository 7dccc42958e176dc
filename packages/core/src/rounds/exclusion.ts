/**
 * A self-exclusion or cooling-off cancels the player's open bets (issue #28 item 5; AGCO 2.14): every
 * bet of his in a round whose betting has not closed is withdrawn and its stake given back, through the
 * same path as the player's own cancel (`withdrawBets`: hosted, a BET_WITHDRAWAL entry in the wallet's
 * conditional transaction; seamless, a REFUND credit to the operator's wallet), each under a key
 * derived from the exclusion's Idempotency-Key and the round — so a retry of the exclusion (or of a
 * cancel cut short) gives back nothing twice, and completes what a crash left undone. A round whose
 * betting closed meanwhile keeps its bets (they are settled as usual: "no va más" was called first).
 *
 * Where the open bets are: a round open for bets is its table's `openRoundId`, so the operator's
 * tables are read (a page at a time) and, in each open round, the player's position. A rare act: the
 * reads are one per table, nothing on the bet path.
 */
import type { Actor, Ctx, RgSettingsInput, RgStatusView } from '../shared';
import { DomainError } from '../shared';
import { setResponsibleGaming } from '../wallet';
import { withdrawBets } from './bets';

const TABLE_PAGE = 100;
/** What a withdrawal answers when there is nothing to cancel any more. */
const CLOSED = new Set(['ROUND_NOT_OPEN', 'BET_NOT_PLACED']);

/** The rounds of which the exclusion gave the player's stakes back. */
export interface CancelledOnExclusion {
  cancelledRounds: string[];
}

async function cancelOpenBets(
  ctx: Ctx,
  actor: Actor,
  playerId: string,
  idempotencyKey: string,
): Promise<string[]> {
  const cancelled: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listTables(actor.operatorId, {
      limit: TABLE_PAGE,
      ...(cursor !== undefined && { cursor }),
    });
    for (const table of page.items) {
      const roundId = table.openRoundId;
      if (roundId === undefined) continue;
      const position = await ctx.store.get('position', { roundId, playerId });
      if (!position || position.stake === 0) continue;
      try {
        await withdrawBets(ctx, actor, {
          roundId,
          playerId,
          idempotencyKey: `${idempotencyKey}:x:${roundId}`,
        });
        cancelled.push(roundId);
      } catch (error) {
        // Betting closed since the table was read, or nothing left to give back: the bets stand.
        if (error instanceof DomainError && CLOSED.has(error.code)) continue;
        throw error;
      }
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  return cancelled;
}

/**
 * Sets limits, an exclusion or the session time-out (wallet context), then, with an exclusion in
 * force, cancels the player's open bets. The exclusion is written first: a bet racing it is refused
 * (PLAYER_EXCLUDED) or already placed and then cancelled here.
 */
export async function setResponsibleGamingAndCancel(
  ctx: Ctx,
  actor: Actor,
  input: RgSettingsInput & { playerId: string; idempotencyKey: string },
): Promise<RgStatusView & { replayed: boolean } & CancelledOnExclusion> {
  const status = await setResponsibleGaming(ctx, actor, input);
  const cancelledRounds =
    status.exclusion === null ? [] : await cancelOpenBets(ctx, actor, status.playerId, input.idempotencyKey);
  return { ...status, cancelledRounds };
}
