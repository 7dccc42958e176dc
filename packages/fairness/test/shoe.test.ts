import { burnValue, canonicalShoe } from '@pyb/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockMessage,
  dealShoe,
  hexToBytes,
  type ShoeInputs,
  ShoeStream,
  shufflePermutation,
  type U32Source,
  uniformInt,
} from '../src/index';

const seed = (byte: number) => new Uint8Array(32).fill(byte);
const inputs = (over: Partial<ShoeInputs> = {}): ShoeInputs => ({
  serverSeed: seed(7),
  clientSeed: 'player-chosen text',
  shoeId: 'shoe-0001',
  decks: 8,
  cutCard: { minCardsBehind: 14, maxCardsBehind: 80 },
  ...over,
});

const scripted = (values: number[]): U32Source & { taken: number } => {
  const src = {
    taken: 0,
    nextU32() {
      const v = values[src.taken++];
      if (v === undefined) throw new Error('script exhausted');
      return v;
    },
  };
  return src;
};

describe('the stream', () => {
  it('builds each HMAC message as be32 length, client seed, be32 length, shoe id, be32 counter', () => {
    expect(Array.from(blockMessage('ñ', 'S1', 258))).toEqual([
      0, 0, 0, 2, 0xc3, 0xb1, 0, 0, 0, 2, 0x53, 0x31, 0, 0, 1, 2,
    ]);
  });

  it('reads the stream as big-endian u32s across block boundaries', () => {
    const stream = new ShoeStream(seed(1), 'c', 's');
    const words = Array.from({ length: 9 }, () => stream.nextU32());
    expect(stream.blocks).toBe(2);
    expect(stream.bytesUsed).toBe(36);
    expect(words.every((w) => Number.isInteger(w) && w >= 0 && w < 2 ** 32)).toBe(true);
  });

  it('refuses seeds of the wrong size and empty, oversized or ill-formed texts', () => {
    expect(() => new ShoeStream(new Uint8Array(31), 'c', 's')).toThrow(/32 bytes/);
    expect(() => new ShoeStream(seed(0), '', 's')).toThrow(/client seed/);
    expect(() => new ShoeStream(seed(0), 'x'.repeat(257), 's')).toThrow(/client seed/);
    expect(() => new ShoeStream(seed(0), 'c', 'x'.repeat(129))).toThrow(/shoe id/);
    expect(() => new ShoeStream(seed(0), 'bad \uD800 surrogate', 's')).toThrow(/well-formed/);
  });
});

describe('uniformInt', () => {
  it('rejects draws at or above the largest multiple of n and keeps the next one', () => {
    // n = 3: 2^32 mod 3 = 1, so the limit is 2^32 - 1 and 0xFFFFFFFF is the single rejected value.
    const src = scripted([0xffffffff, 0xfffffffe]);
    expect(uniformInt(src, 3)).toBe(0xfffffffe % 3);
    expect(src.taken).toBe(2);
  });

  it('accepts everything below the limit, including the last accepted value', () => {
    // n = 416: 2^32 mod 416 = 256 -> limit 2^32 - 256.
    const limit = 2 ** 32 - 256;
    expect(uniformInt(scripted([limit - 1]), 416)).toBe((limit - 1) % 416);
    const src = scripted([limit, limit + 255, 5]);
    expect(uniformInt(src, 416)).toBe(5);
    expect(src.taken).toBe(3);
  });

  it('gives every residue the same number of accepted preimages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (n) => {
        const limit = 2 ** 32 - (2 ** 32 % n);
        expect(limit % n).toBe(0);
      }),
    );
  });
});

describe('dealShoe', () => {
  it('shuffles the canonical order (index i holds card i % 52): the permutation maps back to it', () => {
    const canonical = canonicalShoe(2);
    const stream = new ShoeStream(seed(3), 'c', 's');
    const perm = shufflePermutation(stream, 104);
    const shoe = dealShoe(
      inputs({
        serverSeed: seed(3),
        clientSeed: 'c',
        shoeId: 's',
        decks: 2,
        cutCard: { minCardsBehind: 7, maxCardsBehind: 40 },
      }),
    );
    expect(Array.from(perm, (i) => canonical[i])).toEqual(Array.from(shoe.order));
    expect([...perm].sort((a, b) => a - b)).toEqual(Array.from({ length: 104 }, (_, i) => i));
  });

  it('is the same shoe for the same inputs', () => {
    const a = dealShoe(inputs());
    const b = dealShoe(inputs({ serverSeed: hexToBytes('07'.repeat(32)) }));
    expect(b.order).toEqual(a.order);
    expect(b.cutIndex).toBe(a.cutIndex);
  });

  it('is always a permutation of the full card set with the cut card inside its bounds', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 7, max: 30 }),
        fc.integer({ min: 0, max: 40 }),
        (serverSeed, clientSeed, decks, min, spread) => {
          const total = decks * 52;
          const max = Math.min(min + spread, total - 17);
          fc.pre(max >= min);
          const shoe = dealShoe(
            inputs({ serverSeed, clientSeed, decks, cutCard: { minCardsBehind: min, maxCardsBehind: max } }),
          );
          const counts = new Array(52).fill(0);
          for (const card of shoe.order) counts[card]++;
          expect(counts).toEqual(new Array(52).fill(decks));
          const behind = total - shoe.cutIndex;
          expect(behind).toBeGreaterThanOrEqual(Math.max(7, min));
          expect(behind).toBeLessThanOrEqual(max);
          expect(shoe.burn).toEqual({ shown: shoe.order[0], burned: burnValue(shoe.order[0]!) });
          expect(shoe.firstCoupAt).toBe(1 + shoe.burn.burned);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('changes when the server seed, the client seed or the shoe id changes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 255 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        (serverSeed, bit, clientSeed, shoeId) => {
          const base = dealShoe(inputs({ serverSeed, clientSeed, shoeId }));
          const flipped = serverSeed.slice();
          flipped[bit % 32]! ^= 1 << (bit % 8);
          expect(dealShoe(inputs({ serverSeed: flipped, clientSeed, shoeId })).order).not.toEqual(base.order);
          expect(dealShoe(inputs({ serverSeed, clientSeed: clientSeed + '.', shoeId })).order).not.toEqual(
            base.order,
          );
          expect(dealShoe(inputs({ serverSeed, clientSeed, shoeId: shoeId + '.' })).order).not.toEqual(
            base.order,
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps client seed and shoe id apart (moving a character across them changes the shoe)', () => {
    const a = dealShoe(inputs({ clientSeed: 'ab', shoeId: 'c' }));
    const b = dealShoe(inputs({ clientSeed: 'a', shoeId: 'bc' }));
    expect(b.order).not.toEqual(a.order);
  });

  it('refuses cut-card bounds that leave fewer than 7 cards or crowd the burn', () => {
    expect(() => dealShoe(inputs({ cutCard: { minCardsBehind: 6, maxCardsBehind: 20 } }))).toThrow(
      /cut card/,
    );
    expect(() => dealShoe(inputs({ cutCard: { minCardsBehind: 20, maxCardsBehind: 19 } }))).toThrow(
      /cut card/,
    );
    expect(() => dealShoe(inputs({ decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 36 } }))).toThrow(
      /before the cut/,
    );
    expect(() => dealShoe(inputs({ decks: 9 }))).toThrow(/decks/);
  });
});
