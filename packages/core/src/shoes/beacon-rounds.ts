/**
 * A beacon round a shoe's cards depend on, fetched and verified (docs/provably-fair.md §5): the round
 * the close of contributions named (the shoe's entropy), and under pyb-shoe/3 each round "no va más"
 * named (a coup's or a burn's cards). Until the round is published the step waits — in-process for up
 * to `beaconWaitMs`, then with a retryable BEACON_PENDING. A round whose BLS signature does not verify
 * with the statement's network is never used (BEACON_INVALID locks the table: lock-out.ts). There is
 * no fallback to entropy the house alone chose.
 */
import { type BeaconNetwork, type BeaconRound, roundTime, verifyBeaconRound } from '@pyb/fairness';
import type { BeaconAnswer } from '../shared';
import { type Ctx, RandomnessFailure, unavailable } from '../shared';

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** After a round's time, how often a relay that does not have it yet is asked again (at most). */
const POLL_AFTER_DUE_MS = 500;

/**
 * The round, waiting for it in-process (on the context's clock) as long as the wait budget allows:
 * until the round's own time (the network's genesis and period say when it is signed), then every
 * half second or the beacon's own `Retry-After`, whichever is sooner — not a whole `Retry-After`
 * rounded up to seconds, which would add up to a period to every coup's wait.
 */
async function awaitRound(ctx: Ctx, network: BeaconNetwork, round: number): Promise<BeaconAnswer> {
  const now = () => ctx.clock.now().getTime();
  const sleep = ctx.clock.sleep?.bind(ctx.clock) ?? timer;
  const deadline = now() + ctx.beaconWaitMs;
  const due = roundTime(network, round) * 1000;
  for (;;) {
    const answer = await ctx.beacon.round(round).catch((error: unknown) => {
      // A relay that is down answers PENDING: a rejection is a broken setup (ports/beacon.ts).
      throw new RandomnessFailure('BEACON_FAILED', `the beacon failed: ${(error as Error).message}`, {
        cause: error,
      });
    });
    if (answer.status === 'PUBLISHED') return answer;
    const asked = Math.max(50, answer.retryAfterSeconds * 1000);
    const wait = due > now() ? Math.min(asked, due - now() + 25) : Math.min(asked, POLL_AFTER_DUE_MS);
    if (now() + wait > deadline) return answer;
    await sleep(wait);
  }
}

/** Round `round` of `network`, published and verified; `waiting` says what waits for it (in the 503). */
export async function verifiedRound(
  ctx: Ctx,
  network: BeaconNetwork,
  round: number,
  waiting: string,
): Promise<BeaconRound> {
  const answer = await awaitRound(ctx, network, round);
  if (answer.status === 'PENDING') {
    throw unavailable(
      'BEACON_PENDING',
      `${waiting} waits for beacon round ${round} of network ${network.chainHash}: ${answer.reason}`,
      answer.retryAfterSeconds,
    );
  }
  const published = answer.round;
  if (published.round !== round || !(await verifyBeaconRound(network, published))) {
    // Never used, and never waited out: a forged or misrouted round needs a person (lock-out.ts).
    throw new RandomnessFailure(
      'BEACON_INVALID',
      `beacon round ${round} came back with a signature that does not verify with network ${network.chainHash}; it was not used`,
    );
  }
  return { round: published.round, signature: published.signature };
}
