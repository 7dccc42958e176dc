/**
 * pyb-shoe/3's shoe course (docs/provably-fair.md §15.4–§15.6, §15.9): the burn, the cut card and the
 * end of the shoe are the engine's, the state is plain JSON the core can store, a draw is pure.
 */
import { type Card, NotEnoughCardsError, ShoeRunner } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import {
  burnV3,
  drawCoupV3,
  replayShoeV3,
  type ShoeInputsV3,
  type ShoeStateV3,
  ShoeStateV3Schema,
  type ShoeStepV3,
  startShoeV3,
} from '../src/index';
import { shoeInputs, stepOf } from './v3-shoes';

/** Steps until the shoe ends (a burn every 10th). */
function wholeShoe(i: number, inputs: ShoeInputsV3) {
  const steps: ShoeStepV3[] = [];
  let state = startShoeV3(inputs);
  const states: ShoeStateV3[] = [state];
  for (let k = 0; !state.finished; k++) {
    const step = stepOf(i, k);
    state = (step.kind === 'COUP' ? drawCoupV3 : burnV3)(inputs.serverSeed, state, step).state;
    steps.push(step);
    states.push(state);
  }
  return { steps, states, replay: replayShoeV3(inputs, steps) };
}

/** The cards left, in code order: only to fill a fixed order past the end of the shoe. */
const rest = (left: readonly number[]): Card[] => left.flatMap((n, card) => new Array<number>(n).fill(card));

describe('pyb-shoe/3 shoe course', () => {
  it.each([
    ['FINISH_COUP', 1, 7, 35],
    ['FINISH_COUP', 8, 14, 20],
    ['ONE_MORE_COUP', 6, 12, 60],
    ['ONE_MORE_COUP', 1, 12, 35],
  ] as const)(
    '%s, %i deck(s), (%i, %i): the engine, fed the same cards in a fixed order, plays the same course',
    (rule, decks, min, max) => {
      for (let i = 0; i < 20; i++) {
        const inputs = { ...shoeInputs(i, decks, min, max), afterCutCard: rule };
        const { replay } = wholeShoe(i, inputs);
        const { start, steps, state } = replay;
        const order = [
          start.burn.shown,
          ...start.burn.cards,
          ...steps.flatMap((s) => s.cards),
          ...rest(state.left),
        ];
        expect(order).toHaveLength(decks * 52);
        const runner = new ShoeRunner({ afterCutCard: rule }, order, start.cutIndex);
        expect(runner.burn).toEqual({ shown: start.burn.shown, burned: start.burn.burned });
        for (const step of steps) {
          const engine = step.kind === 'COUP' ? runner.next()! : runner.burnNext()!;
          expect(engine.start).toBe(step.start);
          expect(engine.cutCardOut).toBe(step.cutCardOut);
          expect(engine.last).toBe(step.last);
          if (step.kind === 'COUP' && 'result' in engine) {
            expect(engine.index).toBe(step.index);
            expect(engine.result).toEqual(step.result);
          }
          expect(runner.state).toMatchObject({
            cursor: step.state.cursor,
            coups: step.state.coups,
            coupsAfterCut: step.state.coupsAfterCut,
            finished: step.state.finished,
          });
        }
        expect(runner.finished).toBe(true);
        expect(start.cutIndex).toBe(decks * 52 - start.cardsBehind);
        expect(start.cardsBehind).toBeGreaterThanOrEqual(min);
        expect(start.cardsBehind).toBeLessThanOrEqual(max);
      }
    },
  );

  it('the state is plain JSON, parses at every step, and a draw leaves the state it was given unchanged', () => {
    const inputs = shoeInputs(3, 8, 14, 20);
    const { states, steps } = wholeShoe(3, inputs);
    for (const s of states) {
      expect(JSON.parse(JSON.stringify(s))).toEqual(s);
      expect(ShoeStateV3Schema().parse(JSON.parse(JSON.stringify(s)))).toEqual(s);
    }
    const before = structuredClone(states[5]!);
    drawCoupV3(inputs.serverSeed, states[5]!, steps[5]!);
    burnV3(inputs.serverSeed, states[5]!, steps[5]!);
    expect(states[5]).toEqual(before);
  });

  it('a stored state that does not add up is refused by the schema, and nothing is dealt from it', () => {
    const state = startShoeV3(shoeInputs(0, 8, 14, 20));
    const moreKings = { ...state, left: state.left.map((n, c) => (c === 51 ? n + 1 : n)) };
    expect(ShoeStateV3Schema().safeParse(moreKings).success).toBe(false);
    expect(ShoeStateV3Schema().safeParse({ ...state, cutIndex: state.cutIndex + 1 }).success).toBe(false);
    expect(ShoeStateV3Schema().safeParse({ ...state, extra: 1 }).success).toBe(false);
    expect(ShoeStateV3Schema().safeParse(state).success).toBe(true);
    const seed = shoeInputs(0, 8, 14, 20).serverSeed;
    expect(() => drawCoupV3(seed, moreKings, stepOf(0, 0))).toThrow(/not a pyb-shoe\/3 state: cards left/);
    expect(() => burnV3(seed, moreKings, stepOf(0, 0))).toThrow(/not a pyb-shoe\/3 state/);
  });

  it('a draw refuses a server seed other than the committed one and a finished shoe; the start, bounds the table would refuse', () => {
    const inputs = shoeInputs(0, 1, 7, 7);
    const { states, steps } = wholeShoe(0, inputs);
    const other = new Uint8Array(32).fill(9);
    expect(() => drawCoupV3(other, states[0]!, steps[0]!)).toThrow(/server seed/);
    expect(() => drawCoupV3(inputs.serverSeed, states.at(-1)!, steps[0]!)).toThrow(/finished/);
    expect(() => drawCoupV3(inputs.serverSeed, states[1]!, { ...steps[1]!, coup: 0 })).toThrow(
      /state is at coup 1, not 0/,
    );
    expect(drawCoupV3(inputs.serverSeed, states[1]!, { ...steps[1]!, coup: 1 }).index).toBe(1);
    expect(() => startShoeV3({ ...shoeInputs(0, 8, 11, 20), afterCutCard: 'ONE_MORE_COUP' })).toThrow(
      /ONE_MORE_COUP needs at least 12/,
    );
    expect(() => startShoeV3(shoeInputs(0, 8, 6, 20))).toThrow(/cut card bounds/);
    expect(() => startShoeV3({ ...shoeInputs(0, 8, 14, 20), entropy: 'E'.repeat(64) })).toThrow(/entropy/);
  });

  it('a coup that runs out of cards is NOT_ENOUGH_CARDS, as with a fixed order', () => {
    const state = startShoeV3(shoeInputs(0, 1, 7, 7));
    const three = { ...state, left: state.left.map((_, c) => (c < 3 ? 1 : 0)), cursor: 49 };
    expect(() => drawCoupV3(shoeInputs(0, 1, 7, 7).serverSeed, three, stepOf(0, 0))).toThrow(
      NotEnoughCardsError,
    );
  });

  it('a coup and a burn of the same round and place draw from different streams', () => {
    const inputs = shoeInputs(0, 8, 14, 20);
    const state = startShoeV3(inputs);
    let same = 0;
    for (let k = 0; k < 100; k++) {
      const beacon = stepOf(7, k).beacon;
      const coup = drawCoupV3(inputs.serverSeed, state, { beacon }).cards.join();
      if (coup === burnV3(inputs.serverSeed, state, { beacon }).cards.join()) same++;
    }
    expect(same).toBe(0);
  });
});
