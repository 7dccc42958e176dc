/**
 * The one step that makes a round DEALT, whatever drew its coup (resolve.ts pyb-shoe/2, deal-v3.ts
 * pyb-shoe/3): COUP_DEALT in the chain, the close deadline when the coup ends the shoe, then ONE
 * transaction — the shoe's claim on the cards (conditional on the state they were drawn from), the
 * round's coup, the event — conditional on the table not being locked meanwhile.
 */
import { dealtCards } from '@pyb/engine';
import type { Ctx, RoundCoup, RoundRecord, ShoeRecord, WriteOp } from '../shared';
import { tryTransact } from '../shared';
import { recordedBeacon, scheduleCloseDeadline, shoeWithOrder } from '../shoes';
import { underLockOut } from '../tables';
import { nextAudit, putAudit } from '../trail';

/**
 * The round's shoe (with its order) and what `draw` makes of it, read under the resolve phase's
 * lock-out: a key-service or randomness failure here (the unsealed seed, a beacon round) locks the table.
 */
export function drawUnderLockOut<T>(
  ctx: Ctx,
  round: RoundRecord,
  draw: (shoe: ShoeRecord) => Promise<T>,
): Promise<{ shoe: ShoeRecord; drawn: T }> {
  return underLockOut(
    ctx,
    round.tableId,
    { phase: 'RESOLVE', shoeId: round.shoeId, roundId: round.roundId },
    async () => {
      const shoe = await shoeWithOrder(ctx, (await ctx.store.get('shoe', { shoeId: round.shoeId }))!);
      return { shoe, drawn: await draw(shoe) };
    },
  );
}

/** The round's coup as recorded, from what either scheme's draw answered. */
export const roundCoupOf = (coup: Omit<RoundCoup, 'beacon'>, beacon?: RoundCoup['beacon']): RoundCoup => ({
  index: coup.index,
  start: coup.start,
  result: coup.result,
  cutCardOut: coup.cutCardOut,
  last: coup.last,
  ...(beacon && { beacon }),
});

export async function recordDeal(
  ctx: Ctx,
  round: RoundRecord,
  shoe: ShoeRecord,
  coup: RoundCoup,
  o: {
    /** The shoe's start burn, recorded with its first use of cards (undefined after). */
    burn: object | undefined;
    /** The shoe's update claiming the coup's cards, dated `at`. */
    claim: (at: string) => WriteOp;
    /** What else the round must hold (pyb-shoe/3: its signed receipt). */
    expect?: Record<string, unknown>;
  },
): Promise<boolean> {
  const at = ctx.now();
  const record = await nextAudit(ctx.store, round.shoeId, 'COUP_DEALT', round.roundId, at, {
    index: coup.index,
    start: coup.start,
    cards: dealtCards(coup.result),
    coup: coup.result,
    cutCardOut: coup.cutCardOut,
    last: coup.last,
    ...(coup.beacon && { beacon: recordedBeacon(coup.beacon) }),
    ...(o.burn && { burn: o.burn }),
  });
  if (coup.last) await scheduleCloseDeadline(ctx, shoe, at);
  return tryTransact(ctx.store, [
    o.claim(at),
    {
      kind: 'update',
      entity: 'round',
      key: { roundId: round.roundId },
      set: { status: 'DEALT', coup, dealtAt: at, 'audit.dealt': record.seq },
      expect: { status: 'CLOSED', 'audit.bettingClosed': 'exists', ...o.expect },
    },
    putAudit(record),
    // Locked meanwhile (another call's failure): not dealt; the next attempt reads the lock.
    { kind: 'check', entity: 'table', key: { tableId: round.tableId }, expect: { lock: null } },
  ]);
}
