/**
 * Game recall: a player's most recent rounds, each replayed with every intermediate step, his stakes,
 * wins and balance before and after, and its verification. Paged back in time with a cursor; each page
 * lists its rounds in play order.
 */
import { RECALL_DEFAULT_LIMIT, RECALL_MAX_LIMIT } from '@pyb/contracts';
import type { Actor, PlayerRecall, PlayerRecallQuery, RoundReplay } from '../shared';
import { actsFor, checkPlayerId, invalid, mapBounded, notFound, walletOperator } from '../shared';
import { operatorOf, walletModeOf } from '../wallet';
import type { AuditCtx } from './ctx';
import { ReplaySession } from './replay/session';

/** Rounds replayed at once (each reads its positions and the player's ledger entries). */
const CONCURRENCY = 4;

/**
 * Whose rounds a key may read, and how many a page holds: shared by recall and the player history
 * (one place for the player, tenancy and page-size checks).
 */
export function recallScope(
  actor: Actor,
  input: { playerId: string; operatorId?: string; limit?: number },
): { playerId: string; operatorId: string; limit: number } {
  const playerId = checkPlayerId(input.playerId);
  actsFor(actor, playerId);
  // A player of an operator the key may not read is not found, like one the operator does not have.
  const operatorId = walletOperator(actor, input.operatorId, 'read', { what: 'player', id: playerId });
  const limit = input.limit ?? RECALL_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > RECALL_MAX_LIMIT) {
    throw invalid('INVALID_INPUT', `limit must be 1-${RECALL_MAX_LIMIT}`);
  }
  return { playerId, operatorId, limit };
}

export async function recallPlayerRounds(
  ctx: AuditCtx,
  actor: Actor,
  input: PlayerRecallQuery,
): Promise<PlayerRecall> {
  const { playerId, operatorId, limit } = recallScope(actor, input);
  // A player of this operator has a wallet; anyone else (another operator's player) is not found. A
  // seamless operator's players have no wallet here (their money is in the operator's): their rounds.
  const [wallet, operator] = await Promise.all([
    ctx.store.get('wallet', { operatorId, playerId }),
    operatorOf(ctx, operatorId),
  ]);
  if (!walletModeOf(operator).knows(wallet)) throw notFound('player', playerId);
  // Newest first from the player's index; replayed from the strongly consistent round items.
  const page = await ctx.store.listPlayerPositions(operatorId, playerId, {
    limit,
    ...(input.cursor !== undefined && { cursor: input.cursor }),
  });
  const session = new ReplaySession(ctx);
  const rounds = await mapBounded(page.items, CONCURRENCY, async (p): Promise<RoundReplay> => {
    const round = await ctx.store.get('round', { roundId: p.roundId });
    // A position whose round is gone is a broken record: say so rather than leave the round out.
    if (!round || round.operatorId !== operatorId)
      throw new Error(`round ${p.roundId} of a stored position is missing`);
    return session.replay(round, playerId);
  });
  rounds.reverse();
  return { playerId, operatorId, rounds, nextCursor: page.cursor ?? null };
}
