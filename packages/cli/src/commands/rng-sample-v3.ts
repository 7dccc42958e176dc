/**
 * pyb-shoe/3 lab shoes (docs/rng.md §2): each sample is dealt the way production deals a shoe of the
 * scheme in force (docs/provably-fair.md §15) — the start (burn, cut card) from the shoe entropy of the
 * server seed, the operator's contribution and the beacon round named when contributions closed, then
 * every coup by `drawCoupV3` from a round of its own, until the shoe ends at the cut card.
 *
 * The beacon is one of the same scheme under a lab key (`beaconSigner`: BLS on BLS12-381, as drand's
 * quicknet signs); sample i takes rounds i·ROUNDS_PER_SAMPLE + 1 (contributions) and + 2, + 3, … (its
 * coups), so a sample is fixed by its seeds, its index and the lab key, and regenerates byte for byte.
 *
 * The cards behind the cut card are never dealt in play. The standards' tests need whole orders (their
 * null distributions are those of a whole shuffled shoe), so the sample draws them on with the same
 * draw: one step after another, each from the coup stream of the next coup number, cursor and round
 * (§15.4), up to six cards a step. `dealtInPlay` says where play stopped.
 */
import { type Card, MAX_COUP_CARDS } from '@pyb/engine';
import {
  type BeaconNetwork,
  beaconRandomness,
  beaconSigner,
  bytesToHex,
  type CutCardBounds,
  cardsLeft,
  commitmentOf,
  contributionsDigest,
  drawCard,
  drawCoupV3,
  FieldStream,
  localBeaconNetwork,
  type ShoeStateV3,
  shoeEntropyV3,
  startShoeV3,
  stepFields,
  uniformIndex,
} from '@pyb/fairness';

/** Rounds set aside for one sample: more than the steps of the largest shoe (8 decks: 416 cards). */
export const ROUNDS_PER_SAMPLE = 1000;
/** The lab beacon's clock (its rounds are numbers only: no draw reads the time). */
const LAB_GENESIS = 0;
const LAB_PERIOD = 3;

export interface LabBeacon {
  readonly network: BeaconNetwork;
  /** hex secret key: a lab key, published in the sample's manifest so anyone regenerates it. */
  readonly secretKey: string;
  signature(round: number): string;
}

export async function labBeacon(secretKey: Uint8Array): Promise<LabBeacon> {
  const signer = await beaconSigner(secretKey);
  return {
    network: localBeaconNetwork(signer.publicKey, LAB_GENESIS, LAB_PERIOD),
    secretKey: bytesToHex(secretKey),
    signature: (round) => signer.sign(round),
  };
}

export interface LabShoeV3 {
  /** Every card of the shoe (0..51) in the order drawn: the start, the coups, then the cards behind. */
  order: Uint8Array;
  cutIndex: number;
  /** Cards out of the shoe when play ended (the start and every coup). */
  dealtInPlay: number;
  coups: number;
}

export function dealLabShoeV3(input: {
  index: number;
  serverSeed: Uint8Array;
  clientSeed: string;
  shoeId: string;
  decks: number;
  cutCard: CutCardBounds;
  beacon: LabBeacon;
}): LabShoeV3 {
  const { serverSeed, shoeId, beacon } = input;
  let round = input.index * ROUNDS_PER_SAMPLE + 1;
  const commitment = commitmentOf(serverSeed);
  const entropy = shoeEntropyV3({
    shoeId,
    commitment,
    contributions: contributionsDigest([{ index: 0, kind: 'OPERATOR', seed: input.clientSeed }]),
    beacon: { chainHash: beacon.network.chainHash, round, signature: beacon.signature(round) },
  });
  const next = () => {
    round++;
    return { round, randomness: beaconRandomness(beacon.signature(round)) };
  };
  let state: ShoeStateV3 = startShoeV3({
    serverSeed,
    entropy,
    shoeId,
    decks: input.decks,
    cutCard: input.cutCard,
    afterCutCard: 'FINISH_COUP',
  });
  const order: Card[] = [state.burn.shown, ...state.burn.cards];
  while (!state.finished) {
    const coup = drawCoupV3(serverSeed, state, { beacon: next() });
    order.push(...coup.cards);
    state = coup.state;
  }
  const dealtInPlay = order.length;
  const left = [...state.left];
  for (let step = state.coups; cardsLeft(left) > 0; step++) {
    const fields = stepFields('coup', entropy, shoeId, step, order.length, next());
    const pick = uniformIndex(new FieldStream(serverSeed, fields));
    for (let n = Math.min(MAX_COUP_CARDS, cardsLeft(left)); n > 0; n--) order.push(drawCard(left, pick));
  }
  return { order: Uint8Array.from(order), cutIndex: state.cutIndex, dealtInPlay, coups: state.coups };
}
