/**
 * The library against the documented test vectors and against an independent implementation of the
 * document (independent.ts), on the vectors and on random inputs.
 */
import { readFileSync } from 'node:fs';
import { formatCard } from '@pyb/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitmentOf, dealShoe, hexToBytes, type ShoeBundle, verifyBundle } from '../src/index';
import {
  independentCommitment,
  independentEventHash,
  independentShoe,
  independentSignatureOk,
  jcs,
} from './independent';

interface Vector {
  seed: string;
  client: string;
  shoe: string;
  decks: number;
  min: number;
  max: number;
  commitment: string;
  first20: string;
  last5: string;
  burn: string;
  burned: number;
  cut: number;
}

/** docs/provably-fair.md §9, copied by hand. */
const VECTORS: Vector[] = [
  {
    seed: '00'.repeat(32),
    client: 'client',
    shoe: 'shoe-1',
    decks: 8,
    min: 14,
    max: 20,
    commitment: '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925',
    first20: 'AD 3S KD TC QS QC 4C 8S 3S JD 6S JH 9C KD AS 6S 4S 3D 6C 7H',
    last5: '5D TC AD TS 4H',
    burn: 'AD',
    burned: 1,
    cut: 400,
  },
  {
    seed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    client: 'ñandú 🂡',
    shoe: 'shoe_2024-06-01#7',
    decks: 6,
    min: 14,
    max: 20,
    commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
    first20: '4C QD 7C 3S 2H 6D AS AH AD 8H 3C 8S JH 9S QS QS 9H KD KD 2D',
    last5: 'KS JD 3D JS 9S',
    burn: '4C',
    burned: 4,
    cut: 295,
  },
  {
    seed: 'ff'.repeat(32),
    client: 'a',
    shoe: 'b',
    decks: 1,
    min: 7,
    max: 35,
    commitment: 'af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051',
    first20: 'AH 4S 5D 7H KH 5H KC 8H 3S 5S 4C 8S TD 3C TS 9H TC JD 4H QS',
    last5: '6C 7S KS QC 9D',
    burn: 'AH',
    burned: 1,
    cut: 27,
  },
  {
    seed: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    client: '4e1c6a2b',
    shoe: 'shoe-000042',
    decks: 8,
    min: 7,
    max: 399,
    commitment: '954d5a49fd70d9b8bcdb35d252267829957f7ef7fa6c74f88419bdc5e82209f4',
    first20: '6C 4S QS 2H 4D 3C 4C 6S KC QC TH 9D JC 9H 8D 3D 8H 4H JC JD',
    last5: 'TD 7S 7H QC 6S',
    burn: '6C',
    burned: 6,
    cut: 39,
  },
];

const library = (seed: string, client: string, shoe: string, decks: number, min: number, max: number) => {
  const s = dealShoe({
    serverSeed: hexToBytes(seed),
    clientSeed: client,
    shoeId: shoe,
    decks,
    cutCard: { minCardsBehind: min, maxCardsBehind: max },
  });
  return {
    order: Array.from(s.order, formatCard),
    cutIndex: s.cutIndex,
    burn: { shown: formatCard(s.burn.shown), burned: s.burn.burned },
    firstCoupAt: s.firstCoupAt,
  };
};

describe.each(VECTORS)('test vector (shoe id $shoe)', (v) => {
  it.each([
    [
      'the library',
      () => library(v.seed, v.client, v.shoe, v.decks, v.min, v.max),
      () => commitmentOf(hexToBytes(v.seed)),
    ],
    [
      'the independent implementation',
      () => independentShoe(v.seed, v.client, v.shoe, v.decks, v.min, v.max),
      () => independentCommitment(v.seed),
    ],
  ])('%s gives the documented cards, burn, cut index and commitment', (_who, deal, commit) => {
    const shoe = deal();
    expect(shoe.order.slice(0, 20).join(' ')).toBe(v.first20);
    expect(shoe.order.slice(-5).join(' ')).toBe(v.last5);
    expect(shoe.order).toHaveLength(52 * v.decks);
    expect(shoe.burn).toEqual({ shown: v.burn, burned: v.burned });
    expect(shoe.firstCoupAt).toBe(1 + v.burned);
    expect(shoe.cutIndex).toBe(v.cut);
    expect(commit()).toBe(v.commitment);
  });
});

describe('the library and the independent implementation agree', () => {
  it('on random seeds, client seeds (any Unicode), shoe ids, deck counts and cut-card bounds', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 7, max: 60 }),
        fc.integer({ min: 0, max: 400 }),
        (seedBytes, client, shoeId, decks, min, spread) => {
          const max = Math.min(min + spread, 52 * decks - 17);
          fc.pre(max >= min);
          const seed = Buffer.from(seedBytes).toString('hex');
          expect(library(seed, client, shoeId, decks, min, max)).toEqual(
            independentShoe(seed, client, shoeId, decks, min, max),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the example bundle', () => {
  const bundle = JSON.parse(
    readFileSync(new URL('../examples/shoe-bundle.json', import.meta.url), 'utf8'),
  ) as ShoeBundle;

  it('passes every check of the library verifier', () => {
    const checks = verifyBundle(bundle);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.length).toBeGreaterThan(500);
  });

  it('checks out with the independent implementation too: commitment, statement and head signatures, chain, every coup card', () => {
    const { statement, audit } = bundle;
    expect(independentCommitment(bundle.serverSeed)).toBe(statement.commitment);
    expect(independentSignatureOk(statement, bundle.signature, bundle.publicKey)).toBe(true);
    expect(independentSignatureOk(audit.close, audit.signature, bundle.publicKey)).toBe(true);
    expect(independentSignatureOk({ ...statement, decks: 7 }, bundle.signature, bundle.publicKey)).toBe(
      false,
    );
    let prev = statement.commitment;
    for (const e of audit.events) {
      expect(e.prevHash).toBe(prev);
      expect(independentEventHash(prev, e.event)).toBe(e.hash);
      prev = e.hash;
    }
    expect(audit.close.head).toBe(prev);
    const shoe = independentShoe(
      bundle.serverSeed,
      bundle.clientSeed,
      statement.shoeId,
      statement.decks,
      statement.cutCard.minCardsBehind,
      statement.cutCard.maxCardsBehind,
    );
    expect(shoe.cutIndex).toBe(bundle.cutIndex);
    expect(shoe.burn).toEqual(bundle.burn);
    for (const round of bundle.rounds) {
      if (!round.coup) continue;
      expect(round.coup.cards).toEqual(
        shoe.order.slice(round.coup.start, round.coup.start + round.coup.cards.length),
      );
    }
  });

  it('the independent JCS agrees with the library on the statement bytes', async () => {
    const { canonicalJson } = await import('../src/index');
    expect(jcs(bundle.statement)).toBe(canonicalJson(bundle.statement));
    expect(jcs(bundle.audit.events[10]!.event)).toBe(canonicalJson(bundle.audit.events[10]!.event));
  });
});
