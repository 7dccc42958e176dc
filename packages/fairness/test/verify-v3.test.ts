/** checkDealV3: a recorded pyb-shoe/3 deal against the replay, each wrong step named (docs §15.9). */
import { describe, expect, it } from 'vitest';
import { checkDealV3, type RecordedStepV3, replayShoeV3 } from '../src/index';
import { Report } from '../src/verify-report';
import { shoeInputs, stepOf } from './v3-shoes';

function recordedShoe() {
  const inputs = shoeInputs(4, 6, 14, 20);
  const plan = [];
  for (let k = 0; k === 0 || !replayShoeV3(inputs, plan).state.finished; k++) plan.push(stepOf(4, k));
  const replay = replayShoeV3(inputs, plan);
  const start = {
    shown: replay.start.burn.shown,
    burned: replay.start.burn.cards,
    cutIndex: replay.start.cutIndex,
  };
  const steps: RecordedStepV3[] = replay.steps.map((s, i) => ({
    id: `round.${i + 1}`,
    kind: s.kind,
    beacon: s.beacon,
    start: s.start,
    cards: [...s.cards],
    cutCardOut: s.cutCardOut,
    last: s.last,
  }));
  return { inputs, start, steps };
}

const failed = (report: Report) => report.checks.filter((c) => !c.ok).map((c) => c.id);

describe('checkDealV3', () => {
  it('a deal as recorded passes every check: the start, each step, the end', () => {
    const { inputs, start, steps } = recordedShoe();
    const report = new Report();
    checkDealV3(report, inputs, start, steps, true);
    expect(failed(report)).toEqual([]);
    expect(report.checks).toHaveLength(2 + 2 * steps.length);
    expect(steps.some((s) => s.kind === 'BURN')).toBe(true);
  });

  it('one card changed in one coup fails that coup only; a cut index moved fails the start', () => {
    const { inputs, start, steps } = recordedShoe();
    const third = steps[2]!;
    steps[2] = { ...third, cards: [(third.cards[0]! + 1) % 52, ...third.cards.slice(1)] };
    const report = new Report();
    checkDealV3(report, inputs, { ...start, cutIndex: start.cutIndex - 1 }, steps, true);
    expect(failed(report)).toEqual(['shoe.start', 'round.3.cards']);
  });

  it('another round for one step changes its cards (and, from the state on, the ones after it)', () => {
    const { inputs, start, steps } = recordedShoe();
    steps[5] = { ...steps[5]!, beacon: { ...steps[5]!.beacon, randomness: 'f'.repeat(64) } };
    const report = new Report();
    checkDealV3(report, inputs, start, steps, true);
    expect(failed(report)).toContain('round.6.cards');
    expect(failed(report).slice(0, 1)).toEqual(['round.6.cards']); // rounds 1-5 still pass
  });

  it('a shoe recorded as ended early, or a step after the end, fails by name', () => {
    const { inputs, start, steps } = recordedShoe();
    const early = new Report();
    checkDealV3(early, inputs, start, steps.slice(0, 10), true);
    expect(failed(early)).toEqual(['shoe.end']);
    const beyond = new Report();
    checkDealV3(beyond, inputs, start, [...steps, { ...steps.at(-1)!, id: 'round.999' }], true);
    expect(failed(beyond)).toEqual(['round.999.cards']);
  });
});
