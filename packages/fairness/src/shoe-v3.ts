/**
 * pyb-shoe/3 (docs/provably-fair.md §15): a coup's cards are drawn from the cards left when they are
 * needed, from a stream that takes the beacon round named when betting on that coup closed. The
 * shoe's start — the burn and the cut card — is fixed when the shoe opens, from the round named when
 * contributions closed (as in pyb-shoe/2). A dealer-error void burns cards drawn the same way from
 * its own round. Pure: every function takes a state and returns a new one; the state is plain JSON.
 *
 * pyb-shoe/2 (shoe.ts, dealShoe) is unchanged: its shoes still verify.
 */
import {
  type AfterCutCard,
  type Burn,
  burnValue,
  type Card,
  type CoupResult,
  cutIndexFor,
  isLastCoup,
  MAX_COUP_CARDS,
  NotEnoughCardsError,
  playCoupFrom,
} from '@pyb/engine';
import { hexToBytes, isHex, utf8ToBytes } from './bytes';
import { cardsLeft, drawCard, fullShoe, type IndexDraw, uniformIndex } from './draw';
import { FieldStream } from './field-stream';
import { type CutCardBounds, checkCutCard, totalCards } from './shoe';
import { ShoeStateV3Schema } from './shoe-v3-state';
import { commitmentOf } from './statement';
import { MAX_SHOE_ID_BYTES, textInput } from './stream';

export const SHOE_V3_SCHEME = 'pyb-shoe/3';
export const V3_TAGS = {
  open: 'pyb-shoe/3 open',
  coup: 'pyb-shoe/3 coup',
  burn: 'pyb-shoe/3 burn',
} as const;

/** A beacon round as a draw takes it: its number and randomness = hex(SHA-256(signature)). */
export interface DrawBeacon {
  round: number;
  randomness: string;
}

export interface ShoeInputsV3 {
  serverSeed: Uint8Array;
  /** shoeEntropyV3 (entropy.ts): contributions and the round named when they closed. */
  entropy: string;
  shoeId: string;
  decks: number;
  cutCard: CutCardBounds;
  afterCutCard: AfterCutCard;
}

/** Where a pyb-shoe/3 shoe stands between coups: all the core stores (no secret in it). */
export interface ShoeStateV3 {
  scheme: typeof SHOE_V3_SCHEME;
  shoeId: string;
  /** hex(SHA-256(server seed)): a draw refuses any other seed. */
  commitment: string;
  entropy: string;
  decks: number;
  afterCutCard: AfterCutCard;
  /** The cut card: `cardsBehind` cards stay behind it; it sits before card number cutIndex. */
  cardsBehind: number;
  cutIndex: number;
  /** The first card turned, how many it burns, and the burned cards in the order drawn. */
  burn: Burn & { cards: Card[] };
  /** Copies left of each card code 0..51. */
  left: number[];
  /** Cards out of the shoe so far (burn included): the next card's number. */
  cursor: number;
  /** Coups played (the next coup's index). */
  coups: number;
  /** Coups played that started past the cut card (engine `isLastCoup`). */
  coupsAfterCut: number;
  finished: boolean;
}

export interface ShoeCoupV3 {
  index: number;
  /** the number of its first card (cards out of the shoe before it) */
  start: number;
  cards: Card[];
  result: CoupResult;
  beacon: DrawBeacon;
  cutCardOut: boolean;
  last: boolean;
  state: ShoeStateV3;
}

export interface ShoeBurnV3 {
  start: number;
  /** the cards burned, as the tableau would have dealt them (4 to 6) */
  cards: Card[];
  beacon: DrawBeacon;
  cutCardOut: boolean;
  last: boolean;
  state: ShoeStateV3;
}

const ENTROPY = /^[0-9a-f]{64}$/;

function checkEntropy(entropy: string): Uint8Array {
  if (typeof entropy !== 'string' || !ENTROPY.test(entropy)) {
    throw new RangeError('entropy must be 64 lowercase hex characters');
  }
  return utf8ToBytes(entropy);
}

/** The open stream's fields: tag, entropy, shoe id. */
export function openFields(entropy: string, shoeId: string): Uint8Array[] {
  return [utf8ToBytes(V3_TAGS.open), checkEntropy(entropy), textInput('shoe id', shoeId, MAX_SHOE_ID_BYTES)];
}

/**
 * A coup's (or a burn's) stream fields: tag, entropy, shoe id, and 48 bytes
 * be32(coup) ‖ be32(start) ‖ be64(round) ‖ randomness.
 */
export function stepFields(
  kind: 'coup' | 'burn',
  entropy: string,
  shoeId: string,
  coup: number,
  start: number,
  beacon: DrawBeacon,
): Uint8Array[] {
  const { round, randomness } = beacon;
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`bad beacon round ${round}`);
  if (typeof randomness !== 'string' || !isHex(randomness, 32) || randomness !== randomness.toLowerCase()) {
    throw new RangeError('beacon randomness must be 64 lowercase hex characters');
  }
  for (const [name, n] of [
    ['coup', coup],
    ['start', start],
  ] as const) {
    if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) throw new RangeError(`bad ${name} ${n}`);
  }
  const params = new Uint8Array(48);
  const view = new DataView(params.buffer);
  view.setUint32(0, coup, false);
  view.setUint32(4, start, false);
  view.setUint32(8, Math.floor(round / 2 ** 32), false);
  view.setUint32(12, round % 2 ** 32, false);
  params.set(hexToBytes(randomness), 16);
  return [
    utf8ToBytes(V3_TAGS[kind]),
    checkEntropy(entropy),
    textInput('shoe id', shoeId, MAX_SHOE_ID_BYTES),
    params,
  ];
}

/**
 * The shoe's start from its open pick: the first card turned, the cards it burns, then the cut card
 * (cards behind = min + pick(max − min + 1)). Exported with `pick` so the tests can script it.
 */
export function startFrom(inputs: Omit<ShoeInputsV3, 'serverSeed'>, commitment: string, pick: IndexDraw) {
  const total = totalCards(inputs.decks);
  checkCutCard(total, inputs.cutCard);
  if (inputs.afterCutCard !== 'FINISH_COUP' && inputs.afterCutCard !== 'ONE_MORE_COUP') {
    throw new RangeError(`afterCutCard must be FINISH_COUP or ONE_MORE_COUP`);
  }
  // as the table config (engine config.ts): the coup after the cut coup must fit behind the cut card
  if (inputs.afterCutCard === 'ONE_MORE_COUP' && inputs.cutCard.minCardsBehind < 2 * MAX_COUP_CARDS) {
    throw new RangeError(`ONE_MORE_COUP needs at least ${2 * MAX_COUP_CARDS} cards behind the cut card`);
  }
  const left = fullShoe(inputs.decks);
  const shown = drawCard(left, pick);
  const burned = burnValue(shown);
  const cards = Array.from({ length: burned }, () => drawCard(left, pick));
  const { minCardsBehind: min, maxCardsBehind: max } = inputs.cutCard;
  const cardsBehind = min + pick(max - min + 1);
  const state: ShoeStateV3 = {
    scheme: SHOE_V3_SCHEME,
    shoeId: inputs.shoeId,
    commitment,
    entropy: inputs.entropy,
    decks: inputs.decks,
    afterCutCard: inputs.afterCutCard,
    cardsBehind,
    cutIndex: cutIndexFor(total, cardsBehind),
    burn: { shown, burned, cards },
    left,
    cursor: 1 + burned,
    coups: 0,
    coupsAfterCut: 0,
    finished: false,
  };
  return state;
}

/** Opens a pyb-shoe/3 shoe: the start, from the open stream. */
export function startShoeV3(inputs: ShoeInputsV3): ShoeStateV3 {
  const stream = new FieldStream(inputs.serverSeed, openFields(inputs.entropy, inputs.shoeId));
  const { serverSeed: _secret, ...rest } = inputs;
  return startFrom(rest, commitmentOf(inputs.serverSeed), uniformIndex(stream));
}

/**
 * The next coup's cards, asked by the engine's tableau one at a time and drawn with `pick` from the
 * cards left. Returns the coup and the state after it; `state` is not changed.
 */
export function coupFrom(state: ShoeStateV3, pick: IndexDraw): Omit<ShoeCoupV3, 'beacon'> {
  if (state.finished) throw new RangeError('the shoe is finished');
  const left = [...state.left];
  const cards: Card[] = [];
  const result = playCoupFrom({
    card(n) {
      const available = cardsLeft(left);
      if (available === 0) throw new NotEnoughCardsError(n + 1, n + available);
      const card = drawCard(left, pick);
      cards.push(card);
      return card;
    },
  });
  const start = state.cursor;
  const last = isLastCoup(state, state.cutIndex, start, result.cardsUsed, state.coupsAfterCut);
  return {
    index: state.coups,
    start,
    cards,
    result,
    cutCardOut: start <= state.cutIndex && state.cutIndex < start + result.cardsUsed,
    last,
    state: {
      ...state,
      burn: { ...state.burn, cards: [...state.burn.cards] },
      left,
      cursor: start + result.cardsUsed,
      coups: state.coups + 1,
      coupsAfterCut: state.coupsAfterCut + (start > state.cutIndex ? 1 : 0),
      finished: last,
    },
  };
}

function streamFor(kind: 'coup' | 'burn', serverSeed: Uint8Array, state: ShoeStateV3, beacon: DrawBeacon) {
  // a state read back from storage is dealt from only if it adds up (the verifier replays anyway)
  const parsed = ShoeStateV3Schema().safeParse(state);
  if (!parsed.success) {
    throw new RangeError(`not a pyb-shoe/3 state: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (commitmentOf(serverSeed) !== state.commitment) {
    throw new RangeError("the server seed is not the one this shoe's state commits to");
  }
  const fields = stepFields(kind, state.entropy, state.shoeId, state.coups, state.cursor, beacon);
  return uniformIndex(new FieldStream(serverSeed, fields));
}

/**
 * Deals the next coup from the round named when betting on it closed. `coup`, when given, is the
 * index the caller expects to deal (the round's coup): a state that moved on (or not) is refused.
 */
export function drawCoupV3(
  serverSeed: Uint8Array,
  state: ShoeStateV3,
  step: { beacon: DrawBeacon; coup?: number },
): ShoeCoupV3 {
  if (step.coup !== undefined && step.coup !== state.coups) {
    throw new RangeError(`the state is at coup ${state.coups}, not ${step.coup}`);
  }
  const coup = coupFrom(state, streamFor('coup', serverSeed, state, step.beacon));
  return { ...coup, beacon: { ...step.beacon } };
}

/**
 * Burns the next coup (a dealer-error void, seed 004): the cards the tableau would have dealt, drawn
 * from the void's own round. Like the engine's `burnCoup`, it takes a coup's place for the cut card
 * but not its number.
 */
export function burnV3(serverSeed: Uint8Array, state: ShoeStateV3, step: { beacon: DrawBeacon }): ShoeBurnV3 {
  const coup = coupFrom(state, streamFor('burn', serverSeed, state, step.beacon));
  return {
    start: coup.start,
    cards: coup.cards,
    beacon: { ...step.beacon },
    cutCardOut: coup.cutCardOut,
    last: coup.last,
    state: { ...coup.state, coups: state.coups },
  };
}

export type ShoeStepV3 = { kind: 'COUP' | 'BURN'; beacon: DrawBeacon };

/** The verifier's walk: the start, then each coup or burn in the chain's order, with its round. */
export function replayShoeV3(inputs: ShoeInputsV3, steps: readonly ShoeStepV3[]) {
  const start = startShoeV3(inputs);
  let state = start;
  const out: (({ kind: 'COUP' } & ShoeCoupV3) | ({ kind: 'BURN' } & ShoeBurnV3))[] = [];
  for (const step of steps) {
    if (step.kind === 'COUP') {
      const coup = drawCoupV3(inputs.serverSeed, state, step);
      out.push({ kind: 'COUP', ...coup });
      state = coup.state;
    } else {
      const burn = burnV3(inputs.serverSeed, state, step);
      out.push({ kind: 'BURN', ...burn });
      state = burn.state;
    }
  }
  return { start, steps: out, state };
}
