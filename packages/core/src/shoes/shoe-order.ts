/**
 * The beacon step (docs/provably-fair.md §5.3): before a shoe's first coup, the beacon round its
 * close of contributions named is fetched, its BLS signature verified with the network the statement
 * names, and recorded in the chain (BEACON_RECORDED) together with the shoe entropy it gives. Until the
 * round is published the first coup waits — in-process for up to `beaconWaitMs`, then with a
 * retryable BEACON_PENDING. There is no fallback to entropy the house alone chose.
 */
import { beaconRandomness, contributionsDigest, shoeEntropy, verifyBeaconRound } from '@pyb/fairness';
import type { BeaconAnswer, ShoeRecord } from '../shared';
import {
  attempts,
  backoff,
  CACHE_SIZES,
  type Ctx,
  RandomnessFailure,
  ShoeDecks,
  tooMuchContention,
  tryTransact,
  unavailable,
} from '../shared';
import { nextAudit, putAudit } from '../trail';
import { recordedContributions, signContributionsHead } from './contributions';

/** The context's dealt shoe orders (made on its first deal, then kept with the context). */
export const decksOf = (ctx: Ctx): ShoeDecks => {
  ctx.decks ??= new ShoeDecks(ctx.keys, CACHE_SIZES.shoeOrders);
  return ctx.decks;
};

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The round, waiting for it in-process (on the context's clock) as long as the wait budget allows. */
async function awaitRound(ctx: Ctx, round: number): Promise<BeaconAnswer> {
  const now = () => ctx.clock.now().getTime();
  const sleep = ctx.clock.sleep?.bind(ctx.clock) ?? timer;
  const deadline = now() + ctx.beaconWaitMs;
  for (;;) {
    const answer = await ctx.beacon.round(round).catch((error: unknown) => {
      // A relay that is down answers PENDING: a rejection is a broken setup (ports/beacon.ts).
      throw new RandomnessFailure('BEACON_FAILED', `the beacon failed: ${(error as Error).message}`, {
        cause: error,
      });
    });
    if (answer.status === 'PUBLISHED') return answer;
    const wait = Math.max(50, answer.retryAfterSeconds * 1000);
    if (now() + wait > deadline) return answer;
    await sleep(wait);
  }
}

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
    const answer = await awaitRound(ctx, closed.beaconRound);
    if (answer.status === 'PENDING') {
      throw unavailable(
        'BEACON_PENDING',
        `the first coup of shoe ${shoe.shoeId} waits for beacon round ${closed.beaconRound} of network ${network.chainHash}: ${answer.reason}`,
        answer.retryAfterSeconds,
      );
    }
    const round = answer.round;
    if (round.round !== closed.beaconRound || !(await verifyBeaconRound(network, round))) {
      // Never used, and never waited out: a forged or misrouted round needs a person (lock-out.ts).
      throw new RandomnessFailure(
        'BEACON_INVALID',
        `beacon round ${closed.beaconRound} came back with a signature that does not verify with network ${network.chainHash}; it was not used`,
      );
    }
    const recorded = await recordedContributions(ctx, shoe.shoeId);
    const digest = contributionsDigest(recorded);
    if (digest !== closed.digest) {
      throw new Error(
        `shoe ${shoe.shoeId}: the recorded contributions no longer give the digest committed at their close`,
      );
    }
    const entropy = shoeEntropy({
      shoeId: shoe.shoeId,
      commitment: shoe.commitment,
      contributions: digest,
      beacon: { chainHash: network.chainHash, round: round.round, signature: round.signature },
    });
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
  }
  throw tooMuchContention('recording the beacon round');
}
