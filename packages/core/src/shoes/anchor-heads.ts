/**
 * The outside witness of a head that names a beacon round (docs/time-stamps.md §5, docs/provably-fair.md
 * §15.12): right after the CONTRIBUTIONS_CLOSED head (naming R₀) and each BETTING_CLOSED head (naming
 * Rₖ) is signed, its digest is anchored by the configured TSAs and the anchor kept with the head. It is
 * never skipped:
 *
 * - no TSA answers (all down, rejecting, or signing with a key not pinned) while the round is not yet
 *   published: 503 TIME_STAMP_PENDING — the head is stored, nothing is drawn, the next call retries;
 * - the round is published before any anchor exists (or the only tokens are dated at or after it): it
 *   can never be shown that the head came first, so the round must not fix any card. The table locks
 *   (TIME_STAMP, cause TIME_STAMP_TOO_LATE): the coup is not dealt; it is voided, its bets refunded.
 */
import { headDigest, roundTime, SHOE_SCHEME_V3, type SignedHead } from '@pyb/fairness';
import type { Ctx, RoundRecord, ShoeRecord, StoredAnchor, TableLock } from '../shared';
import { TimeStampFailure, unavailable, writeOnce } from '../shared';
import { underLockOut } from '../tables';

/** Seconds before a TIME_STAMP_PENDING call is worth retrying (a window of the stamper plus a reply). */
const TIME_STAMP_RETRY_SECONDS = 1;

async function anchorHead(
  ctx: Ctx,
  shoe: ShoeRecord,
  where: Pick<TableLock, 'phase' | 'roundId'>,
  head: SignedHead,
  beaconRound: number,
): Promise<StoredAnchor> {
  const published = roundTime(shoe.statement.beacon, beaconRound) * 1000;
  const what = `the ${head.statement.type} head (event ${head.statement.seq}) naming beacon round ${beaconRound}`;
  const answer = await ctx.timeStamper.anchor(headDigest(head));
  const late =
    answer.status === 'ANCHORED'
      ? Date.parse(answer.anchor.existedBy) >= published &&
        `its only time-stamps vouch for ${answer.anchor.existedBy}, not before the round was published (${new Date(published).toISOString()})`
      : ctx.clock.now().getTime() >= published &&
        `no time-stamp authority anchored it before the round was published (${new Date(published).toISOString()}): ${answer.reason}`;
  if (late) {
    await underLockOut(ctx, shoe.tableId, { ...where, shoeId: shoe.shoeId }, () => {
      throw new TimeStampFailure('TIME_STAMP_TOO_LATE', `${what}: ${late}`);
    });
  }
  if (answer.status === 'UNAVAILABLE') {
    throw unavailable(
      'TIME_STAMP_PENDING',
      `${what} waits for a time-stamp: ${answer.reason}`,
      TIME_STAMP_RETRY_SECONDS,
    );
  }
  return answer.anchor;
}

/** pyb-shoe/3: the BETTING_CLOSED head anchored once (a no-op once it is). */
export async function anchorBettingHead(ctx: Ctx, round: RoundRecord): Promise<RoundRecord> {
  const betting = round.betting;
  const seq = round.audit.bettingClosed;
  if (!betting?.head || betting.anchor || seq === undefined) return round;
  const shoe = (await ctx.store.get('shoe', { shoeId: round.shoeId }))!;
  const anchor = await anchorHead(
    ctx,
    shoe,
    { phase: 'RESOLVE', roundId: round.roundId },
    betting.head,
    betting.beaconRound,
  );
  const stored = await writeOnce(ctx, 'time-stamping "no va más"', {
    entity: 'round',
    key: { roundId: round.roundId },
    path: 'betting.anchor',
    value: anchor,
    expect: { 'audit.bettingClosed': seq },
  });
  return { ...round, betting: { ...betting, anchor: stored } };
}

/** pyb-shoe/3: the CONTRIBUTIONS_CLOSED head (naming R₀, which fixes the shoe's start) anchored once. */
export async function anchorContributionsHead(ctx: Ctx, shoe: ShoeRecord): Promise<StoredAnchor | undefined> {
  const closed = shoe.contributionsClosed;
  if (!closed?.head || shoe.statement.scheme !== SHOE_SCHEME_V3) return undefined;
  if (closed.anchor) return closed.anchor;
  const anchor = await anchorHead(ctx, shoe, { phase: 'OPEN_SHOE' }, closed.head, closed.beaconRound);
  // The round must never open on a shoe whose start has no outside time (written until it holds).
  return writeOnce(ctx, 'time-stamping the close of contributions', {
    entity: 'shoe',
    key: { shoeId: shoe.shoeId },
    path: 'contributionsClosed.anchor',
    value: anchor,
    expect: { 'contributionsClosed.seq': closed.seq },
  });
}
