/**
 * The one step that makes a round DEALT, whatever drew its coup (resolve.ts pyb-shoe/2, deal-v3.ts
 * pyb-shoe/3): COUP_DEALT in the chain, the close deadline when the coup ends the shoe, then ONE
 * transaction — the shoe's claim on the cards (conditional on the state they were drawn from), the
 * round's coup, the event — conditional on the table not being locked meanwhile.
 */
import { dealtCards } from '@pyb/engine';
import type { Ctx, RoundCoup, RoundRecord, ShoeRecord, WriteOp } from '../shared';
import { tryTransact } from '../shared';
import { recordedBeacon, scheduleCloseDeadline } from '../shoes';
import { nextAudit, putAudit } from '../trail';

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
