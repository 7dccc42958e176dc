/**
 * The beacon step (docs/provably-fair.md §5.3): before a shoe's first coup, the beacon round its
 * close of contributions named is fetched, its BLS signature verified with the network the statement
 * names, and recorded in the chain (BEACON_RECORDED) together with the shoe entropy it gives. Until the
 * round is published the first coup waits — in-process for up to `beaconWaitMs`, then with a
 * retryable BEACON_PENDING. There is no fallback to entropy the house alone chose.
 */
import { beaconRandomness, contributionsDigest, shoeEntropyFor } from '@pyb/fairness';
import type { ShoeRecord } from '../shared';
import {
  attempts,
  backoff,
  CACHE_SIZES,
  type Ctx,
  ShoeDecks,
  tooMuchContention,
  tryTransact,
} from '../shared';
import { nextAudit, putAudit } from '../trail';
import { verifiedRound } from './beacon-rounds';
import { recordedContributions, signContributionsHead } from './contributions';

/** The context's dealt shoe orders (made on its first deal, then kept with the context). */
export const decksOf = (ctx: Ctx): ShoeDecks => {
  ctx.decks ??= new ShoeDecks(ctx.keys, CACHE_SIZES.shoeOrders);
  return ctx.decks;
};

/**
 * The shoe with its order fixed: its entropy recorded, waiting for the beacon round if needed. The
 * shoe given is the one just read; the one returned is as stored after the step.
 */
export async function shoeWithOrder(ctx: Ctx, shoe: ShoeRecord): Promise<ShoeRecord> {
  for (const attempt of attempts(ctx)) {
    if (shoe.entropy) return shoe;
    const closed = shoe.contributionsClosed;
    if (!closed) throw new Error(`shoe ${shoe.shoeId}: a coup before its contributions closed`);
    // The receipt of the close is signed before anything depends on the order.
    await signContributionsHead(ctx, shoe);
    const network = shoe.statement.beacon;
    const round = await verifiedRound(
      ctx,
      network,
      closed.beaconRound,
      `the first coup of shoe ${shoe.shoeId}`,
    );
    const recorded = await recordedContributions(ctx, shoe.shoeId);
    const digest = contributionsDigest(recorded);
    if (digest !== closed.digest) {
      throw new Error(
        `shoe ${shoe.shoeId}: the recorded contributions no longer give the digest committed at their close`,
      );
    }
    const entropy = shoeEntropyFor(shoe.statement, digest, round);
    const record = await nextAudit(ctx.store, shoe.shoeId, 'BEACON_RECORDED', undefined, ctx.now(), {
      chainHash: network.chainHash,
      round: round.round,
      signature: round.signature,
      randomness: beaconRandomness(round.signature),
    });
    const done = await tryTransact(ctx.store, [
      {
        kind: 'update',
        entity: 'shoe',
        key: { shoeId: shoe.shoeId },
        set: { beacon: { round: round.round, signature: round.signature, seq: record.seq }, entropy },
        // Before the first coup, or at the close of a shoe whose every round was voided.
        expect: { status: { in: ['OPEN', 'CLOSING'] }, entropy: null },
      },
      putAudit(record),
    ]);
    if (!done) await backoff(attempt);
    shoe = (await ctx.store.get('shoe', { shoeId: shoe.shoeId }))!;
    // Recorded (here or by a concurrent deal): done now, not after asking the loop for another
    // attempt — the wait for the round may have taken longer than the request has left, and a
    // finished step is no collision to give up on.
    if (shoe.entropy) return shoe;
  }
  throw tooMuchContention('recording the beacon round');
}
