/**
 * A closed shoe re-dealt from its revealed seed: the seed checked against the commitment and against
 * the seed SHOE_CLOSED put in the chain, the shoe entropy recomputed from what the chain recorded
 * (the contributed seeds, their committed digest, the beacon round and its verified signature), then
 * the whole shoe (burn, cut card, every coup) recomputed with fairness `dealShoe` and the engine's
 * shoe runner. Pure: no key service, nothing unsealed.
 */
import { type Burn, burnCoup, nextCoup, type ShoeCoup, type ShoeState, startShoe } from '@pyb/engine';
import {
  type BeaconRound,
  type Contribution,
  commitmentOf,
  contributionsDigest,
  dealShoe,
  hexToBytes,
  isHex,
  SHOE_SCHEME_V3,
  shoeEntropyFor,
  verifyBeaconRound,
} from '@pyb/fairness';
import type { ReplayProblem, ShoeRecord } from '../../shared';
import type { AuditLog } from '../../trail';
import { drawShoeV3, type RevealedBurn, type RevealedCoup } from './revealed-v3';

export interface RevealedShoe {
  serverSeed: string;
  /** The shoe entropy recomputed from the chain (contributions and beacon round). */
  entropy: string;
  order: Uint8Array;
  cutIndex: number;
  burn: Burn;
  /** Every coup the shoe deals, by index (pyb-shoe/3: the coups drawn — nothing else was ever fixed). */
  coups: RevealedCoup[];
  /** The coups burned by a dealer-error void, by round id (where the chain records them). */
  burns: Map<string, RevealedBurn>;
}

export type Reveal =
  | { status: 'PENDING' }
  /** `seed` = problems with the revealed seed itself; `deal` = problems re-dealing the shoe. */
  | { status: 'REVEALED'; seed: ReplayProblem[]; deal: ReplayProblem[]; shoe: RevealedShoe | undefined };

const problem = (code: string, detail: string, seq: number | null = null): ReplayProblem => ({
  code,
  detail,
  seq,
  playerId: null,
});

export async function revealShoe(shoe: ShoeRecord, log: AuditLog): Promise<Reveal> {
  if (shoe.status !== 'CLOSED') return { status: 'PENDING' };
  const seed: ReplayProblem[] = [];
  const deal: ReplayProblem[] = [];
  const revealed = shoe.serverSeed;
  const valid = typeof revealed === 'string' && isHex(revealed, 32);
  if (!valid) {
    seed.push(problem('SEED_COMMITMENT', 'the shoe is closed but its revealed seed is missing or malformed'));
  } else if (commitmentOf(hexToBytes(revealed)) !== shoe.commitment) {
    seed.push(
      problem(
        'SEED_COMMITMENT',
        `the revealed seed hashes to ${commitmentOf(hexToBytes(revealed))}, not to the commitment ${shoe.commitment} published before any bet`,
      ),
    );
  }
  const closed = log.events.findLast((p) => p.event?.type === 'SHOE_CLOSED');
  if (!closed?.event) {
    seed.push(problem('EVENT_MISSING', 'the shoe is closed but its chain has no SHOE_CLOSED event'));
  } else if (closed.event.data.serverSeed !== revealed) {
    seed.push(
      problem(
        'SEED_MISMATCH',
        'the seed stored with the shoe differs from the seed SHOE_CLOSED revealed in the audit chain',
        closed.record.seq,
      ),
    );
  }
  if (seed.length > 0 || !valid) return { status: 'REVEALED', seed, deal, shoe: undefined };

  const entropy = await entropyFromChain(shoe, log, deal);
  if (!entropy) return { status: 'REVEALED', seed, deal, shoe: undefined };
  if (shoe.statement.scheme === SHOE_SCHEME_V3) {
    const drawn = await drawShoeV3(shoe, log, revealed, entropy, deal);
    cutIndexProblem(shoe, drawn.cutIndex, deal);
    return { status: 'REVEALED', seed, deal, shoe: { serverSeed: revealed, entropy, ...drawn } };
  }
  const dealt = dealShoe({
    serverSeed: hexToBytes(revealed),
    clientSeed: entropy,
    shoeId: shoe.shoeId,
    decks: shoe.config.decks,
    cutCard: shoe.config.cutCard,
  });
  // The shoe in the chain's order: a coup for each COUP_DEALT, a burn for each ROUND_VOIDED that burned
  // its coup's cards (seed 004; the cards themselves are checked against these), then the coups left.
  const coups: ShoeCoup[] = [];
  const burns = new Map<string, RevealedBurn>();
  let state: ShoeState = startShoe(dealt.order);
  for (const { event } of log.events) {
    if (state.finished || !event) continue;
    if (event.type === 'COUP_DEALT') {
      const coup = nextCoup(shoe.config, dealt.order, dealt.cutIndex, state);
      coups.push(coup);
      state = coup.state;
    } else if (event.type === 'ROUND_VOIDED' && event.data.burned !== undefined && event.roundId) {
      const burned = burnCoup(shoe.config, dealt.order, dealt.cutIndex, state);
      burns.set(event.roundId, burned);
      state = burned.state;
    }
  }
  while (!state.finished) {
    const coup = nextCoup(shoe.config, dealt.order, dealt.cutIndex, state);
    coups.push(coup);
    state = coup.state;
  }
  cutIndexProblem(shoe, dealt.cutIndex, deal);
  return {
    status: 'REVEALED',
    seed,
    deal,
    shoe: {
      serverSeed: revealed,
      entropy,
      order: dealt.order,
      cutIndex: dealt.cutIndex,
      burn: dealt.burn,
      coups,
      burns,
    },
  };
}

function cutIndexProblem(shoe: ShoeRecord, cutIndex: number, deal: ReplayProblem[]) {
  if (shoe.cutIndex !== undefined && shoe.cutIndex !== null && shoe.cutIndex !== cutIndex) {
    deal.push(
      problem(
        'CUT_INDEX_MISMATCH',
        `the seeds put the cut card before card ${cutIndex}, the shoe records ${shoe.cutIndex}`,
      ),
    );
  }
}

/**
 * The entropy the chain fixed: the seeds SEED_CONTRIBUTED recorded, which must give the digest
 * CONTRIBUTIONS_CLOSED committed, and the round BEACON_RECORDED recorded, whose signature must verify
 * with the statement's beacon network and which must be the round the close named. Problems go to
 * `deal`; undefined when the shoe cannot be re-dealt.
 */
async function entropyFromChain(
  shoe: ShoeRecord,
  log: AuditLog,
  deal: ReplayProblem[],
): Promise<string | undefined> {
  const events = log.events.map((p) => p.event);
  const contributions = events
    .filter((e) => e?.type === 'SEED_CONTRIBUTED')
    .map((e) => e!.data as unknown as Contribution);
  const closed = log.events.find((p) => p.event?.type === 'CONTRIBUTIONS_CLOSED');
  const recorded = log.events.find((p) => p.event?.type === 'BEACON_RECORDED');
  if (!closed?.event || !recorded?.event) {
    // A shoe closed before any round has nothing to re-deal; one that opened a round must have both.
    const played =
      closed !== undefined ||
      shoe.burn !== undefined ||
      log.events.some((p) => p.event?.type === 'ROUND_OPENED' || p.event?.type === 'COUP_DEALT');
    if (!played) return undefined;
    deal.push(
      problem(
        'ENTROPY_MISSING',
        'the chain never closed the contributions or never recorded the beacon round: no card was ever dealt from this shoe',
      ),
    );
    return undefined;
  }
  let digest: string;
  try {
    digest = contributionsDigest(contributions);
  } catch (error) {
    deal.push(
      problem(
        'CONTRIBUTIONS_MISMATCH',
        `the contributed seeds are not numbered in order: ${(error as Error).message}`,
        closed.record.seq,
      ),
    );
    return undefined;
  }
  if (closed.event.data.digest !== digest) {
    deal.push(
      problem(
        'CONTRIBUTIONS_MISMATCH',
        `the seeds recorded give digest ${digest}, CONTRIBUTIONS_CLOSED committed ${String(closed.event.data.digest)}`,
        closed.record.seq,
      ),
    );
  }
  const round: BeaconRound = {
    round: recorded.event.data.round as number,
    signature: recorded.event.data.signature as string,
  };
  const network = shoe.statement.beacon;
  if (round.round !== closed.event.data.beaconRound || !(await verifyBeaconRound(network, round))) {
    deal.push(
      problem(
        'BEACON_MISMATCH',
        `the beacon round recorded (${round.round}) is not the one the close of contributions named (${String(closed.event.data.beaconRound)}), or its signature does not verify with network ${network.chainHash}`,
        recorded.record.seq,
      ),
    );
  }
  // The record's commitment, the one the revealed seed is checked against (a statement naming
  // another is STATEMENT_MISMATCH, shoe-checks.ts).
  const entropy = shoeEntropyFor({ ...shoe.statement, commitment: shoe.commitment }, digest, round);
  if (shoe.entropy !== entropy) {
    deal.push(
      problem(
        'ENTROPY_MISMATCH',
        `the shoe's stored entropy ${String(shoe.entropy)} is not the one its chain gives (${entropy})`,
        recorded.record.seq,
      ),
    );
  }
  return entropy;
}
