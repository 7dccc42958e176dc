/**
 * pyb-shoe/3 in the core (docs/provably-fair.md §15): a coup's cards — or the cards a dealer-error
 * void burns — are drawn from the cards left, with the server seed, the shoe's entropy and the beacon
 * round "no va más" named for that round (BETTING_CLOSED), once that round is published and its
 * receipt signed. The draw is fairness's (pure); here it is fed and its state claimed, conditional
 * on the state it was drawn from, so two resolvers never draw the same cards twice.
 */
import {
  type BeaconRound,
  beaconRandomness,
  burnV3,
  type DrawBeacon,
  drawCoupV3,
  type ShoeStateV3,
  startShoeV3,
} from '@pyb/fairness';
import type { Ctx, RoundRecord, ShoeRecord, WriteOp } from '../shared';
import { verifiedRound } from './beacon-rounds';
import { decksOf } from './shoe-order';

/** A beacon round as the chain records it with the cards it drew (COUP_DEALT, ROUND_VOIDED). */
export const recordedBeacon = (round: BeaconRound) => ({
  round: round.round,
  signature: round.signature,
  randomness: beaconRandomness(round.signature),
});

/** The state the next draw starts from: as stored, or the shoe's start (its burn, its cut card) before its first. */
function stateBefore(shoe: ShoeRecord, serverSeed: Uint8Array): ShoeStateV3 {
  if (shoe.draw) return shoe.draw;
  if (!shoe.entropy) throw new Error(`shoe ${shoe.shoeId} has no entropy yet (beacon round not recorded)`);
  return startShoeV3({
    serverSeed,
    entropy: shoe.entropy,
    shoeId: shoe.shoeId,
    decks: shoe.config.decks,
    cutCard: shoe.config.cutCard,
    afterCutCard: shoe.config.afterCutCard,
  });
}

/** The round "no va más" named for `round`, published and verified; refused before its receipt is signed. */
async function namedRound(
  ctx: Ctx,
  shoe: ShoeRecord,
  round: RoundRecord,
  what: string,
): Promise<BeaconRound> {
  const betting = round.betting;
  if (!betting?.head) {
    throw new Error(
      `round ${round.roundId}: ${what} before "no va más" named its beacon round and signed it`,
    );
  }
  // Never from a round whose naming head has no outside time before it (shoes/anchor-heads.ts).
  if (!betting.anchor || !shoe.contributionsClosed?.anchor) {
    throw new Error(
      `round ${round.roundId}: ${what} before ${betting.anchor ? 'the close of contributions' : '"no va más"'} was time-stamped`,
    );
  }
  return verifiedRound(ctx, shoe.statement.beacon, betting.beaconRound, `${what} of round ${round.roundId}`);
}

/** The cards claimed: the shoe's draw state moves on, only from the state the draw started from. */
export const claimDraw = (
  shoe: ShoeRecord,
  before: ShoeStateV3,
  after: ShoeStateV3,
  set: Record<string, unknown>,
): WriteOp => ({
  kind: 'update',
  entity: 'shoe',
  key: { shoeId: shoe.shoeId },
  set: { draw: after, ...set },
  expect: { status: 'OPEN', ...(shoe.draw ? { 'draw.cursor': before.cursor } : { draw: null }) },
});

/**
 * `draw` (the coup, or a dealer-error burn) from the shoe's state with the round's named round.
 * `first`: the shoe's first use of its cards.
 */
async function drawFromNamedRound<T>(
  ctx: Ctx,
  shoe: ShoeRecord,
  round: RoundRecord,
  what: string,
  draw: (seed: Uint8Array, state: ShoeStateV3, step: { beacon: DrawBeacon }) => T,
) {
  const beacon = await namedRound(ctx, shoe, round, what);
  const seed = await decksOf(ctx).drawSeed(shoe);
  const before = stateBefore(shoe, seed);
  const drawn = draw(seed, before, {
    beacon: { round: beacon.round, randomness: beaconRandomness(beacon.signature) },
  });
  return { drawn, before, first: shoe.draw === undefined, beacon };
}

/** The round's coup, drawn from its named round. */
export async function drawRoundCoup(ctx: Ctx, shoe: ShoeRecord, round: RoundRecord) {
  const { drawn, ...rest } = await drawFromNamedRound(ctx, shoe, round, 'the coup', drawCoupV3);
  return { coup: drawn, ...rest };
}

/** The cards a dealer-error void burns in place of the round's coup, drawn from its named round. */
export async function drawRoundBurn(ctx: Ctx, shoe: ShoeRecord, round: RoundRecord) {
  const { drawn, ...rest } = await drawFromNamedRound(ctx, shoe, round, 'the burn', burnV3);
  return { burn: drawn, ...rest };
}

/** A pyb-shoe/3 shoe's cut-card position, for the close (from its start when nothing was drawn). */
export async function drawCutIndex(ctx: Ctx, shoe: ShoeRecord): Promise<number | undefined> {
  if (shoe.draw) return shoe.draw.cutIndex;
  if (!shoe.entropy) return undefined;
  return stateBefore(shoe, await decksOf(ctx).drawSeed(shoe)).cutIndex;
}
