/** A round reconstructed step by step, with its verification (regulators and the operator). */
import type { Actor } from '../actor';
import { ReplaySession } from '../replay/session';
import type { RoundReplay } from '../replay/types';
import type { Ctx } from './context';
import { loadRound } from './rounds';

export async function replayRound(ctx: Ctx, actor: Actor, input: { roundId: string }): Promise<RoundReplay> {
  const round = await loadRound(ctx, actor, input.roundId, 'read');
  return new ReplaySession(ctx).replay(round);
}
