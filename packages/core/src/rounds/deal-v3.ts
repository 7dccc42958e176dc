/**
 * A pyb-shoe/3 deal: the round's cards drawn from the cards left, with the beacon round "no va más"
 * named (shoes/draw-v3.ts), then claimed and recorded in one transaction conditional on the shoe's
 * draw state — the same step as a pyb-shoe/2 deal (resolve.ts), on the new draw.
 */
import type { Ctx, RoundRecord } from '../shared';
import { claimDraw, drawRoundCoup } from '../shoes';
import { drawUnderLockOut, recordDeal, roundCoupOf } from './record-deal';

export async function dealV3(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  const { shoe, drawn } = await drawUnderLockOut(ctx, round, (shoe) => drawRoundCoup(ctx, shoe, round));
  const { coup, before, first, beacon } = drawn;
  const burn = { shown: before.burn.shown, burned: before.burn.burned };
  return recordDeal(ctx, round, shoe, roundCoupOf(coup, beacon), {
    burn: first ? before.burn : undefined,
    claim: (at) =>
      claimDraw(shoe, before, coup.state, {
        ...(first && { burn }),
        ...(coup.cutCardOut && { cutCardOut: true }),
        ...(coup.last && { status: 'ENDED', endedAt: at }),
      }),
    expect: { 'betting.head': 'exists', 'betting.anchor': 'exists' },
  });
}
