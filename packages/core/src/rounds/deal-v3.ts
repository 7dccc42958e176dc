/**
 * A pyb-shoe/3 deal: the round's cards drawn from the cards left, with the beacon round "no va más"
 * named (shoes/draw-v3.ts), then claimed and recorded in one transaction conditional on the shoe's
 * draw state — the same step as a pyb-shoe/2 deal (resolve.ts), on the new draw.
 */
import { dealtCards } from '@pyb/engine';
import type { Ctx, RoundCoup, RoundRecord } from '../shared';
import { tryTransact } from '../shared';
import { claimDraw, drawRoundCoup, recordedBeacon, scheduleCloseDeadline, shoeWithOrder } from '../shoes';
import { underLockOut } from '../tables';
import { nextAudit, putAudit } from '../trail';

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
  const roundCoup: RoundCoup = {
    index: coup.index,
    start: coup.start,
    result: coup.result,
    cutCardOut: coup.cutCardOut,
    last: coup.last,
    beacon,
  };
  const at = ctx.now();
  const burn = { shown: before.burn.shown, burned: before.burn.burned };
  const record = await nextAudit(ctx.store, round.shoeId, 'COUP_DEALT', round.roundId, at, {
    index: coup.index,
    start: coup.start,
    cards: dealtCards(coup.result),
    coup: coup.result,
    cutCardOut: coup.cutCardOut,
    last: coup.last,
    beacon: recordedBeacon(beacon),
    ...(first && { burn: before.burn }),
  });
  if (coup.last) await scheduleCloseDeadline(ctx, shoe, at);
  return tryTransact(ctx.store, [
    claimDraw(shoe, before, coup.state, {
      ...(first && { burn }),
      ...(coup.cutCardOut && { cutCardOut: true }),
      ...(coup.last && { status: 'ENDED', endedAt: at }),
    }),
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'DEALT', coup: roundCoup, dealtAt: at, 'audit.dealt': record.seq },
      expect: { status: 'CLOSED', 'audit.bettingClosed': 'exists', 'betting.head': 'exists' },
    },
    putAudit(record),
    // Locked meanwhile (another call's failure): not dealt; the next attempt reads the lock.
    { kind: 'check', entity: 'table', key: { tableId: round.tableId }, expect: { lock: null } },
  ]);
}
