/** A round reconstructed step by step, with its verification (regulators and the operator). */

import { loadRound } from '../rounds';
import type { Actor, RoundReplay } from '../shared';
import type { AuditCtx } from './ctx';
import { ReplaySession } from './replay/session';

export async function replayRound(
  ctx: AuditCtx,
  actor: Actor,
  input: { roundId: string },
): Promise<RoundReplay> {
  const round = await loadRound(ctx, actor, input.roundId, 'read');
  return new ReplaySession(ctx).replay(round);
}
