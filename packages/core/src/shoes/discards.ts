/**
 * Discards (D1, docs/provably-fair.md §10): what the platform throws away once a published beacon
 * round has fixed it — a round voided after the round that fixes its cards is out (pyb-shoe/3: the
 * round its "no va más" named; pyb-shoe/2: the shoe's round, once recorded, fixes every card), or a
 * shoe closed early once its own round is out. Not prevented (a void or an early close may be
 * honest) but never quiet: each is recorded on the round or shoe, counted (`DiscardsAfterBeacon`, an
 * alarm) and shown per table and day in the GGR report and the regulator feed.
 */
import { roundTime, SHOE_V3_SCHEME } from '@pyb/fairness';
import type { Ctx, Discard, RoundRecord, ShoeRecord } from '../shared';

function discardOf(ctx: Ctx, shoe: ShoeRecord, beaconRound: number | undefined): Discard | undefined {
  if (beaconRound === undefined) return undefined;
  const published = roundTime(shoe.statement.beacon, beaconRound) * 1000;
  const now = ctx.now();
  if (Date.parse(now) < published) return undefined;
  return { beaconRound, publishedAt: new Date(published).toISOString(), at: now };
}

/**
 * A void decided now, of `round` in `shoe`. A pyb-shoe/3 dealer-error burn whose betting the void
 * call itself closed (`closedByVoid`) is not one: it named a round not yet out, before anyone could
 * see the cards it burns. (A void call retried after BEACON_PENDING no longer knows that, and counts.)
 */
export function voidDiscard(
  ctx: Ctx,
  shoe: ShoeRecord,
  round: RoundRecord,
  closedByVoid: boolean,
): Discard | undefined {
  if (shoe.statement.scheme === SHOE_V3_SCHEME)
    return closedByVoid ? undefined : discardOf(ctx, shoe, round.betting?.beaconRound);
  return discardOf(ctx, shoe, shoe.beacon?.round);
}

/** An early close decided now: the shoe's own round (the start in pyb-shoe/3, the order in pyb-shoe/2) is out. */
export const earlyCloseDiscard = (ctx: Ctx, shoe: ShoeRecord): Discard | undefined =>
  discardOf(ctx, shoe, shoe.beacon?.round ?? shoe.contributionsClosed?.beaconRound);

/** Counted once, when the void or the close that discards is recorded: it pages someone. */
export function countDiscard(ctx: Ctx, discard: Discard | undefined): void {
  if (discard) ctx.metrics.count('DiscardsAfterBeacon', 1);
}
