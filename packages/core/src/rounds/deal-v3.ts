/**
 * A pyb-shoe/3 deal: the round's cards drawn from the cards left, with the beacon round "no va más"
 * named (shoes/draw-v3.ts), then claimed and recorded in one transaction conditional on the shoe's
 * draw state — the same step as a pyb-shoe/2 deal (resolve.ts), on the new draw.
 */
import type { Ctx, RoundRecord } from '../shared';
import { claimDraw, drawRoundCoup, shoeWithOrder } from '../shoes';
import { underLockOut } from '../tables';
import { recordDeal } from './record-deal';

export async function dealV3(ctx: Ctx, round: RoundRecord): Promise<boolean> {
  // The beacon rounds, the unsealed seed: a key-service or randomness failure here locks the table.
  const { shoe, drawn } = await underLockOut(
    ctx,
    round.tableId,
    { phase: 'RESOLVE', shoeId: round.shoeId, roundId: round.roundId },
    async () => {
      const shoe = await shoeWithOrder(ctx, (await ctx.store.get('shoe', { shoeId: round.shoeId }))!);
      return { shoe, drawn: await drawRoundCoup(ctx, shoe, round) };
    },
  );
  const { coup, before, first, beacon } = drawn;
  const burn = { shown: before.burn.shown, burned: before.burn.burned };
  return recordDeal(
    ctx,
    round,
    shoe,
    {
      index: coup.index,
      start: coup.start,
      result: coup.result,
      cutCardOut: coup.cutCardOut,
      last: coup.last,
      beacon,
    },
    {
      burn: first ? before.burn : undefined,
      claim: (at) =>
        claimDraw(shoe, before, coup.state, {
          ...(first && { burn }),
          ...(coup.cutCardOut && { cutCardOut: true }),
          ...(coup.last && { status: 'ENDED', endedAt: at }),
        }),
      expect: { 'betting.head': 'exists', 'betting.anchor': 'exists' },
    },
  );
}
