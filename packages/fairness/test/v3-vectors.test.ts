/**
 * pyb-shoe/3's vectors (docs/provably-fair.md §15.10) against the library, the independent
 * implementation written from the doc (independent-v3.ts) and the doc itself; then the two
 * implementations against each other on random shoes.
 */
import { readFileSync } from 'node:fs';
import { formatCard } from '@pyb/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  burnV3,
  bytesToHex,
  drawCoupV3,
  type ShoeInputsV3,
  type ShoeStateV3,
  type ShoeStepV3,
  shoeEntropyV3,
  startShoeV3,
} from '../src/index';
import { independentEntropyV3, independentShoeV3 } from './independent';
import {
  buildV3Fixture,
  computeV3Vector,
  renderV3Vector,
  type V3Vector,
  type V3VectorInput,
  v3Inputs,
} from './v3-vectors';

const fixture: { input: V3VectorInput; expected: V3Vector }[] = JSON.parse(
  readFileSync(new URL('./fixtures/shoe-v3-vectors.json', import.meta.url), 'utf8'),
);
const doc = readFileSync(new URL('../../../docs/provably-fair.md', import.meta.url), 'utf8');

const independentOf = (v: V3VectorInput, entropy: string, steps: readonly ShoeStepV3[]) =>
  independentShoeV3(
    v.serverSeed,
    entropy,
    v.shoeId,
    v.decks,
    v.cutCard.minCardsBehind,
    v.cutCard.maxCardsBehind,
    v.afterCutCard,
    steps,
  );

describe('pyb-shoe/3 vectors', () => {
  it('the fixture holds both vectors, as make-v3-vectors.ts writes them', () => {
    expect(fixture.map((v) => v.input.name)).toEqual(['vector 7', 'vector 8']);
    expect(fixture).toEqual(buildV3Fixture());
  });

  it.each(fixture)('$input.name: the library computes the fixture', ({ input, expected }) => {
    expect(computeV3Vector(input)).toEqual(expected);
  });

  it.each(fixture)('$input.name: the doc prints it (§15.10)', ({ expected }) => {
    expect(doc).toContain(renderV3Vector(expected));
  });

  it.each(fixture)('$input.name: the independent implementation agrees', ({ input, expected }) => {
    const shoe = independentOf(input, expected.entropy, input.steps.slice(0, expected.steps.length));
    expect(shoe).toEqual({
      shown: expected.open.shown,
      burned: expected.open.burned,
      cardsBehind: expected.open.cardsBehind,
      cutIndex: expected.open.cutIndex,
      steps: expected.steps,
      finished: expected.finished,
      cardsLeft: expected.cardsLeft,
    });
  });

  it('vector 7: the entropy of §15.1, by both implementations', () => {
    const { input, expected } = fixture[0]!;
    if ('text' in input.entropy) throw new Error('vector 7 derives its entropy');
    const args = [
      input.shoeId,
      expected.commitment,
      input.entropy.contributions,
      input.entropy.beacon,
    ] as const;
    expect(independentEntropyV3(...args)).toBe(expected.entropy);
    expect(
      shoeEntropyV3({
        shoeId: args[0],
        commitment: args[1],
        contributions: args[2],
        beacon: args[3],
      }),
    ).toBe(expected.entropy);
  });

  it('vector 7: block 0 of the open stream gives the first card as §15.3 says (j = draw mod 416)', () => {
    const { expected } = fixture[0]!;
    const j = expected.open.draws[0]! % 416; // 2^32 − (2^32 mod 416) is far above this draw: accepted
    expect(expected.open.draws[0]!).toBeLessThan(2 ** 32 - (2 ** 32 % 416));
    // 8 copies of each code: index j is card floor(j / 8)
    expect(formatCard(Math.floor(j / 8))).toBe(expected.open.shown);
  });
});

/** Steps the library deals until the shoe ends or the steps run out. */
function libraryShoe(inputs: ShoeInputsV3, steps: readonly ShoeStepV3[]) {
  let state: ShoeStateV3 = startShoeV3(inputs);
  const start = state;
  const out: unknown[] = [];
  for (const step of steps) {
    if (state.finished) break;
    if (step.kind === 'COUP') {
      const c = drawCoupV3(inputs.serverSeed, state, step);
      out.push({
        kind: 'COUP',
        index: c.index,
        start: c.start,
        cards: c.cards.map(formatCard),
        winner: c.result.winner,
        cutCardOut: c.cutCardOut,
        last: c.last,
      });
      state = c.state;
    } else {
      const b = burnV3(inputs.serverSeed, state, step);
      out.push({
        kind: 'BURN',
        index: null,
        start: b.start,
        cards: b.cards.map(formatCard),
        winner: null,
        cutCardOut: b.cutCardOut,
        last: b.last,
      });
      state = b.state;
    }
  }
  return {
    shown: formatCard(start.burn.shown),
    burned: start.burn.cards.map(formatCard),
    cardsBehind: start.cardsBehind,
    cutIndex: start.cutIndex,
    steps: out,
    finished: state.finished,
    cardsLeft: state.left.reduce((a, n) => a + n, 0),
  };
}

const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex);
const shoeArb = fc
  .record({
    serverSeed: hex32,
    entropy: hex32,
    shoeId: fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }), // at most 80 UTF-8 bytes
    decks: fc.integer({ min: 1, max: 8 }),
    afterCutCard: fc.constantFrom('FINISH_COUP' as const, 'ONE_MORE_COUP' as const),
    spread: fc.integer({ min: 0, max: 20 }),
    steps: fc.array(
      fc.record({
        burn: fc.integer({ min: 0, max: 9 }),
        round: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        randomness: hex32,
      }),
      { minLength: 1, maxLength: 90 },
    ),
  })
  .map((r) => {
    // ONE_MORE_COUP needs 12 cards behind (engine config); one deck leaves 35 at most (§7)
    const min = r.afterCutCard === 'ONE_MORE_COUP' ? 12 : 7;
    const max = Math.min(min + r.spread, r.decks * 52 - 17);
    const steps: ShoeStepV3[] = r.steps.map((s) => ({
      kind: s.burn === 0 ? 'BURN' : 'COUP',
      beacon: { round: s.round, randomness: s.randomness },
    }));
    return {
      name: 'random',
      serverSeed: r.serverSeed,
      shoeId: r.shoeId,
      decks: r.decks,
      cutCard: { minCardsBehind: min, maxCardsBehind: max },
      afterCutCard: r.afterCutCard,
      entropy: { text: r.entropy },
      steps,
    } satisfies V3VectorInput;
  });

describe('pyb-shoe/3: the library and the implementation written from the doc', () => {
  it('property: they deal the same start and the same coups and burns, to the end of the shoe', () => {
    fc.assert(
      fc.property(shoeArb, (v) => {
        const inputs = v3Inputs(v);
        const lib = libraryShoe(inputs, v.steps);
        const ind = independentOf(v, inputs.entropy, v.steps.slice(0, lib.steps.length));
        expect(ind).toEqual(lib);
      }),
      { numRuns: 150 },
    );
  });
});
