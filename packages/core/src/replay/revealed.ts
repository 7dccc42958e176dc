/**
 * A closed shoe re-dealt from its revealed seed: the seed checked against the commitment and against
 * the seed SHOE_CLOSED put in the chain, then the whole shoe (burn, cut card, every coup) recomputed
 * with fairness `dealShoe` and the engine's shoe runner. Pure: no key service, nothing unsealed.
 */
import { type Burn, nextCoup, type ShoeCoup, type ShoeState, startShoe } from '@pyb/engine';
import { commitmentOf, dealShoe, hexToBytes, isHex } from '@pyb/fairness';
import type { ShoeRecord } from '../model';
import type { AuditLog } from './audit-log';
import type { ReplayProblem } from './types';

export interface RevealedShoe {
  serverSeed: string;
  clientSeed: string;
  order: Uint8Array;
  cutIndex: number;
  burn: Burn;
  /** Every coup the shoe deals, by index. */
  coups: ShoeCoup[];
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

export function revealShoe(shoe: ShoeRecord, log: AuditLog): Reveal {
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

  const fixedAt = log.events.find((p) => typeof p.event?.data.clientSeed === 'string');
  const clientSeed = shoe.clientSeed;
  if (!clientSeed) {
    // A shoe closed before any round has nothing to re-deal; one that opened a round must have a seed.
    const played =
      fixedAt !== undefined ||
      shoe.burn !== undefined ||
      log.events.some((p) => p.event?.type === 'ROUND_OPENED' || p.event?.type === 'COUP_DEALT');
    if (played)
      deal.push(
        problem('CLIENT_SEED_MISSING', 'the shoe has no client seed: no card was ever dealt from it'),
      );
    return { status: 'REVEALED', seed, deal, shoe: undefined };
  }
  if (fixedAt?.event?.data.clientSeed !== clientSeed) {
    deal.push(
      problem(
        'CLIENT_SEED_MISMATCH',
        `the shoe's client seed ${JSON.stringify(clientSeed)} is not the one the chain fixed before the first card (${JSON.stringify(fixedAt?.event?.data.clientSeed ?? null)})`,
        fixedAt?.record.seq ?? null,
      ),
    );
  }
  const dealt = dealShoe({
    serverSeed: hexToBytes(revealed),
    clientSeed,
    shoeId: shoe.shoeId,
    decks: shoe.config.decks,
    cutCard: shoe.config.cutCard,
  });
  const coups: ShoeCoup[] = [];
  let state: ShoeState = startShoe(dealt.order);
  while (!state.finished) {
    const coup = nextCoup(shoe.config, dealt.order, dealt.cutIndex, state);
    coups.push(coup);
    state = coup.state;
  }
  if (shoe.cutIndex !== undefined && shoe.cutIndex !== null && shoe.cutIndex !== dealt.cutIndex) {
    deal.push(
      problem(
        'CUT_INDEX_MISMATCH',
        `the seeds put the cut card before card ${dealt.cutIndex}, the shoe records ${shoe.cutIndex}`,
      ),
    );
  }
  return {
    status: 'REVEALED',
    seed,
    deal,
    shoe: {
      serverSeed: revealed,
      clientSeed,
      order: dealt.order,
      cutIndex: dealt.cutIndex,
      burn: dealt.burn,
      coups,
    },
  };
}
