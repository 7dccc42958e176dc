import type { PositionRecord, WalletRecord } from '../shared';
import type { WalletCtx } from './ctx';
import { type Movement, type MovementPlan, planMovement } from './wallet-ledger';

/**
 * Plans the wallet movement that pays or refunds a position, or returns undefined when the position
 * turns out to be done already.
 *
 * The position is read before the wallet. A concurrent settler or voider may commit in between: the
 * wallet then already shows the released reserve and the movement no longer fits it. Re-reading the
 * position (strongly consistent, after the wallet) tells a finished position from a real shortfall.
 */
export async function planPositionMovement(
  ctx: WalletCtx,
  key: { roundId: string; playerId: string },
  wallet: WalletRecord,
  movement: Movement,
): Promise<MovementPlan | undefined> {
  try {
    return planMovement(wallet, movement);
  } catch (error) {
    const now: PositionRecord | undefined = await ctx.store.get('position', key);
    if (!now || now.settledAt || now.refundedAt) return undefined;
    throw error;
  }
}
