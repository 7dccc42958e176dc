/**
 * The order of a pyb-shoe/2 shoe depends on every contributed seed and on the beacon round: change any
 * one of them and the whole order changes.
 */
import { formatCard } from '@pyb/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  beaconSigner,
  type Contribution,
  clientSeedProblem,
  contributionsDigest,
  dealShoe,
  hexToBytes,
  shoeEntropy,
  shoeEntropyFor,
  shoeEntropyV3,
} from '../src/index';

const signer = await beaconSigner(new Uint8Array(32).fill(5));
const SEED = hexToBytes('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
const COMMITMENT = '954d5a49fd70d9b8bcdb35d252267829957f7ef7fa6c74f88419bdc5e82209f4';
const CHAIN = 'ab'.repeat(32);

const seeds: Contribution[] = [
  { index: 0, kind: 'PLAYER', seed: 'alice: 31415' },
  { index: 1, kind: 'PLAYER', seed: 'bob' },
  { index: 2, kind: 'PLAYER', seed: 'carol ♣' },
  { index: 3, kind: 'OPERATOR', seed: 'op-session-88' },
];

function order(
  contributions: readonly Contribution[],
  round: number,
  signature = signer.sign(round),
): string {
  const entropy = shoeEntropy({
    shoeId: 'shoe-000042',
    commitment: COMMITMENT,
    contributions: contributionsDigest(contributions),
    beacon: { chainHash: CHAIN, round, signature },
  });
  const shoe = dealShoe({
    serverSeed: SEED,
    clientSeed: entropy,
    shoeId: 'shoe-000042',
    decks: 8,
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
  });
  return `${Array.from(shoe.order, formatCard).join(' ')} | ${shoe.cutIndex}`;
}

describe('the shoe order', () => {
  const base = order(seeds, 100);

  it.each(seeds.map((c) => [c.index, c.seed]))(
    'changes when contribution %i (%s) changes by one character',
    (i) => {
      const edited = seeds.map((c) => (c.index === i ? { ...c, seed: `${c.seed}.` } : c));
      expect(order(edited, 100)).not.toBe(base);
    },
  );

  it('changes when a contribution is dropped, added or two swap places', () => {
    expect(order(seeds.slice(0, 3), 100)).not.toBe(base);
    expect(order([...seeds, { index: 4, kind: 'PLAYER', seed: 'dave' }], 100)).not.toBe(base);
    const swapped = [seeds[1]!, seeds[0]!, seeds[2]!, seeds[3]!].map((c, index) => ({ ...c, index }));
    expect(order(swapped, 100)).not.toBe(base);
  });

  it('changes with the beacon round, and with its signature', () => {
    expect(order(seeds, 101)).not.toBe(base);
    expect(order(seeds, 100, signer.sign(101))).not.toBe(base);
  });

  it('is the same for the same inputs', () => {
    expect(order(seeds, 100)).toBe(base);
  });

  it('any one changed seed changes it (random seeds)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.nat(),
        (texts, pick) => {
          const list = texts.map((seed, index) => ({ index, kind: 'PLAYER' as const, seed }));
          const i = pick % list.length;
          const edited = list.map((c) => (c.index === i ? { ...c, seed: `${c.seed}x` } : c));
          expect(contributionsDigest(edited)).not.toBe(contributionsDigest(list));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('contributions', () => {
  it('are numbered 0, 1, 2, … in the order recorded', () => {
    expect(() => contributionsDigest([{ index: 1, kind: 'PLAYER', seed: 'x' }])).toThrow(/numbered/);
    expect(contributionsDigest([])).toBe('4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945');
  });

  it('seeds are 1..256 UTF-8 bytes of well-formed text without control or bidi characters', () => {
    expect(clientSeedProblem('ñandú 🂡')).toBeUndefined();
    expect(clientSeedProblem('x'.repeat(256))).toBeUndefined();
    expect(clientSeedProblem('')).toMatch(/1-256 UTF-8 bytes/);
    expect(clientSeedProblem('é'.repeat(129))).toMatch(/1-256 UTF-8 bytes \(got 258\)/);
    expect(clientSeedProblem('a\uD800b')).toMatch(/well-formed/);
    expect(clientSeedProblem('tab\there')).toMatch(/control/);
    expect(clientSeedProblem('abc\u202Edcb')).toMatch(/bidirectional/);
    expect(clientSeedProblem(7)).toBe('must be a string');
  });
});

describe('shoeEntropyFor', () => {
  const digest = contributionsDigest(seeds);
  const beacon = { round: 100, signature: signer.sign(100) };
  const inputs = {
    shoeId: 'shoe-000042',
    commitment: COMMITMENT,
    contributions: digest,
    beacon: { chainHash: CHAIN, ...beacon },
  };
  const statement = (scheme: string) => ({
    scheme,
    shoeId: 'shoe-000042',
    commitment: COMMITMENT,
    beacon: { chainHash: CHAIN },
  });

  it("takes the statement's scheme: pyb-shoe/2's entropy, or pyb-shoe/3's", () => {
    expect(shoeEntropyFor(statement('pyb-shoe/2'), digest, beacon)).toBe(shoeEntropy(inputs));
    expect(shoeEntropyFor(statement('pyb-shoe/3'), digest, beacon)).toBe(shoeEntropyV3(inputs));
    expect(shoeEntropyV3(inputs)).not.toBe(shoeEntropy(inputs));
  });
});
