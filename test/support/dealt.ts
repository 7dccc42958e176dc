/**
 * A shoe that deals what a test needs, through the real dealing code (scheme pyb-shoe/2,
 * docs/provably-fair.md; the stack must open pyb-shoe/2 shoes — `PINNED_V2` — since under pyb-shoe/3
 * no client seed fixes a shoe's coups, each is drawn from the round its "no va más" names): the order follows from the server seed, the contributions and the beacon
 * round the close of contributions names. The test holds the local beacon's key, so it can compute
 * any round in advance (why the local beacon is never for production); it fixes the round by opening
 * the first round on a core whose clock stands still at a known instant (the Clock port), and it
 * chooses the operator's client seed — an ordinary input of openRound — by trying seeds until the
 * shoe they give deals what the test asks for. No product code knows about it.
 *
 * `openRoundDealing(stack, actor, { tableId, deals })` opens the shoe's first round; its `coups` are
 * the shoe's coups in order (voided rounds deal none), as the engine walks them.
 */
import { join } from 'node:path';
import { LocalBeacon } from '@pyb/beacon';
import type { Actor, Clock, Core, CoreDeps, KeyService, RoundView, ShoeRecord, Store } from '@pyb/core';
import { type ShoeCoup, ShoeRunner } from '@pyb/engine';
import {
  base64ToBytes,
  beaconRoundAfter,
  type Contribution,
  contributionsDigest,
  dealShoe,
  shoeEntropyFor,
} from '@pyb/fairness';

/**
 * The core settings of a stack whose shoes are dealt to order: pyb-shoe/2. The money, commission and
 * shoe-end rules these tests check do not depend on the scheme; pyb-shoe/3 has its own tests
 * (test/integration/fairness-v3.test.ts).
 */
export const PINNED_V2 = { shoeScheme: 'pyb-shoe/2' } as const;

/** What the helper needs of a stack: a TestStack (./stack) is one; e2e builds one (test/e2e/support/stack.ts). */
export interface DealingStack {
  store: Store;
  keys: KeyService;
  clock: Clock;
  /** The folder whose `beacon/` holds the local beacon's key. */
  keysDir: string;
  /** A core on the same store, keys and beacon, with these overrides (the clock). */
  coreWith(overrides: Partial<CoreDeps>): Core;
}

export interface Dealing {
  /** The table whose shoe is open and has no round yet. */
  tableId: string;
  /** What the test needs of the shoe's coups (in order). */
  deals: (coups: readonly ShoeCoup[]) => boolean;
  /** Seeds tried are `${label}-0`, `${label}-1`, … (default 'dealt'). */
  label?: string;
  /** The overrides the test's core was built with (ids, keys…): the round opens on the same core, its clock aside. */
  deps?: Partial<CoreDeps>;
  /** Give up after this many seeds (default 5,000): the predicate is too rare to be a test's need. */
  maxTries?: number;
}

export interface Dealt {
  round: RoundView;
  /** The operator's client seed that gave this deal. */
  clientSeed: string;
  beaconRound: number;
  coups: readonly ShoeCoup[];
}

/** The `at` of a stored audit event. */
const atOf = (event: string): string => (JSON.parse(event) as { at: string }).at;
const later = (a: string, b: string) => (Date.parse(b) > Date.parse(a) ? b : a);

/** The contributions the shoe recorded so far (SEED_CONTRIBUTED events of its chain). */
async function contributionsOf(stack: DealingStack, shoeId: string): Promise<Contribution[]> {
  const found: Contribution[] = [];
  for (const record of await stack.store.listAudit(shoeId)) {
    const event = JSON.parse(record.event) as { type: string; data?: Contribution };
    if (event.type === 'SEED_CONTRIBUTED' && event.data)
      found.push({ index: event.data.index, kind: event.data.kind, seed: event.data.seed });
  }
  return found;
}

/** The stack's beacon round `round`, signed now: the same key, read on a clock past every round. */
async function signedRound(stack: DealingStack, round: number) {
  const holder = new LocalBeacon({
    dir: join(stack.keysDir, 'beacon'),
    clock: { now: () => new Date(8.64e15) },
    env: {},
  });
  const answer = await holder.round(round);
  if (answer.status !== 'PUBLISHED') throw new Error(`beacon round ${round} could not be signed`);
  return answer.round;
}

/** Opens the first round of the table's shoe with a client seed whose shoe deals what `deals` asks. */
export async function openRoundDealing(stack: DealingStack, actor: Actor, o: Dealing): Promise<Dealt> {
  const table = await stack.store.get('table', { tableId: o.tableId });
  if (!table?.currentShoeId) throw new Error(`table ${o.tableId} has no shoe open`);
  const shoe = (await stack.store.get('shoe', { shoeId: table.currentShoeId })) as ShoeRecord;
  if (shoe.contributionsClosed) throw new Error(`shoe ${shoe.shoeId} already has its seeds`);
  if (shoe.statement.scheme !== 'pyb-shoe/2') {
    // pyb-shoe/3 draws each coup from the round its "no va más" names: no client seed fixes the shoe.
    throw new Error(
      `shoe ${shoe.shoeId} deals by ${shoe.statement.scheme}: a shoe dealt to order needs a stack opening pyb-shoe/2 shoes (shoeScheme, or SHOE_SCHEME=pyb-shoe/2 on the e2e stack)`,
    );
  }
  const head = await stack.store.auditHead(shoe.shoeId);
  if (!head) throw new Error(`shoe ${shoe.shoeId} has no audit chain`);
  // The close is dated max(clock, chain head) (contributions.ts): standing still there, the beacon
  // round it names is known before the call.
  const at = later(stack.clock.now().toISOString(), atOf(head.event));
  const network = shoe.statement.beacon;
  const beaconRound = beaconRoundAfter(network, at, network.marginSeconds);
  const signed = await signedRound(stack, beaconRound);
  const serverSeed = await stack.keys.unsealSeed(base64ToBytes(shoe.sealedSeed), {
    shoeId: shoe.shoeId,
    operatorId: shoe.operatorId,
  });
  const recorded = await contributionsOf(stack, shoe.shoeId);
  const label = o.label ?? 'dealt';
  const tries = o.maxTries ?? 5_000;
  for (let i = 0; i < tries; i++) {
    const clientSeed = `${label}-${i}`;
    const digest = contributionsDigest([
      ...recorded,
      { index: recorded.length, kind: 'OPERATOR', seed: clientSeed },
    ]);
    const entropy = shoeEntropyFor(shoe.statement, digest, {
      round: beaconRound,
      signature: signed.signature,
    });
    const deck = dealShoe({
      serverSeed,
      clientSeed: entropy,
      shoeId: shoe.shoeId,
      decks: shoe.config.decks,
      cutCard: shoe.config.cutCard,
    });
    const coups = new ShoeRunner(shoe.config, deck.order, deck.cutIndex).all();
    if (!o.deals(coups)) continue;
    const standing = { now: () => new Date(at) };
    const round = await stack
      .coreWith({ ...o.deps, clock: standing })
      .openRound(actor, { tableId: o.tableId, clientSeed });
    const closed = (await stack.store.get('shoe', { shoeId: shoe.shoeId }))?.contributionsClosed;
    if (closed?.beaconRound !== beaconRound || closed.digest !== digest)
      throw new Error(
        `shoe ${shoe.shoeId} closed on round ${closed?.beaconRound} (digest ${closed?.digest}), not the ${beaconRound} (${digest}) searched`,
      );
    return { round, clientSeed, beaconRound, coups };
  }
  throw new Error(`no client seed of ${tries} gives shoe ${shoe.shoeId} a deal the test asks for`);
}

/** What a coup's Banca bet did: WIN, LOSE (Punto won) or PUSH (a tie). */
export const bancaResult = (c: ShoeCoup): 'WIN' | 'LOSE' | 'PUSH' =>
  c.result.winner === 'BANKER' ? 'WIN' : c.result.winner === 'PLAYER' ? 'LOSE' : 'PUSH';

/** A shoe whose first coup is a Banca win and not its last: a DEFERRED table's Banca bettors owe commission after it. */
export const bancaWinsFirst = (coups: readonly ShoeCoup[]): boolean =>
  coups.length > 1 && bancaResult(coups[0]!) === 'WIN';
