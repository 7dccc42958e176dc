/**
 * The deal checks of a pyb-shoe/3 shoe (docs/provably-fair.md §15.9), for the verifier to run once
 * a bundle carries the rounds' beacons: the recorded start and every recorded coup or burn against
 * the same walk as `replayShoeV3`, step by step. The caller has already checked each round's BLS signature and that it is the round
 * named when its betting closed; it passes the randomness (SHA-256 of the signature).
 */
import { type Card, formatCard } from '@pyb/engine';
import {
  burnV3,
  type DrawBeacon,
  drawCoupV3,
  type ShoeBurnV3,
  type ShoeCoupV3,
  type ShoeInputsV3,
  type ShoeStateV3,
  startShoeV3,
} from './shoe-v3';
import type { Report } from './verify-report';

export interface RecordedStartV3 {
  shown: Card;
  /** the cards the first card burned, in the order drawn */
  burned: Card[];
  cutIndex: number;
  /** how many the shown card burns, when the evidence states it besides the cards */
  count?: number;
}

export interface RecordedStepV3 {
  /** the check id's prefix, e.g. `round.4` */
  id: string;
  kind: 'COUP' | 'BURN';
  beacon: DrawBeacon;
  /** a coup's number in the shoe, when recorded (a burn takes none) */
  index?: number;
  start: number;
  cards: Card[];
  cutCardOut: boolean;
  last: boolean;
}

const cardsText = (cards: readonly Card[]) => cards.map(formatCard).join(' ');

/**
 * Adds `shoe.start`, then per step `<id>.cards` (start and cards) and `<id>.shoe-end` (cut card out,
 * last), and `shoe.end` (the recorded shoe ends where the replay does, or is still open when the
 * replay is). The replay runs on the seeds and rounds alone, so a wrong recorded step does not hide
 * the ones after it; a step the replay cannot deal (past the end, no card left) fails by its id.
 */
export function checkDealV3(
  report: Report,
  inputs: ShoeInputsV3,
  start: RecordedStartV3,
  steps: readonly RecordedStepV3[],
  recordedEnded: boolean,
): void {
  let state: ShoeStateV3;
  try {
    state = startShoeV3(inputs);
  } catch (error) {
    report.add('shoe.start', false, message(error));
    return;
  }
  report.add(
    'shoe.start',
    state.burn.shown === start.shown &&
      cardsText(state.burn.cards) === cardsText(start.burned) &&
      (start.count === undefined || start.count === state.burn.burned) &&
      state.cutIndex === start.cutIndex,
    `expected ${formatCard(state.burn.shown)} shown, burning ${cardsText(state.burn.cards)}, cut index ` +
      `${state.cutIndex} (${state.cardsBehind} behind); recorded ${formatCard(start.shown)}, ` +
      `${start.count === undefined ? '' : `${start.count} burned: `}${cardsText(start.burned)}, ${start.cutIndex}`,
  );
  for (const recorded of steps) {
    let dealt: ShoeCoupV3 | ShoeBurnV3;
    try {
      const deal = recorded.kind === 'COUP' ? drawCoupV3 : burnV3;
      dealt = deal(inputs.serverSeed, state, { beacon: recorded.beacon });
    } catch (error) {
      report.add(`${recorded.id}.cards`, false, message(error));
      continue;
    }
    const index = 'index' in dealt ? dealt.index : undefined;
    const numbered = recorded.index === undefined || recorded.index === index;
    report.add(
      `${recorded.id}.cards`,
      numbered && dealt.start === recorded.start && cardsText(dealt.cards) === cardsText(recorded.cards),
      `${recorded.kind === 'COUP' ? `coup ${index}` : 'burn'} of round ${recorded.beacon.round}: expected ` +
        `${cardsText(dealt.cards)} from card ${dealt.start}, recorded ${numbered ? '' : `as coup ${recorded.index}, `}` +
        `${cardsText(recorded.cards)} from ${recorded.start}`,
    );
    report.add(
      `${recorded.id}.shoe-end`,
      dealt.cutCardOut === recorded.cutCardOut && dealt.last === recorded.last,
      `cut card out ${dealt.cutCardOut}, last ${dealt.last}; recorded ${recorded.cutCardOut}, ${recorded.last}`,
    );
    state = dealt.state;
  }
  report.add(
    'shoe.end',
    state.finished === recordedEnded,
    `the replay ${state.finished ? 'ended' : 'had not ended'} after ${steps.length} step(s); recorded ${
      recordedEnded ? 'ended' : 'not ended'
    }`,
  );
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
