import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../src/der';
import { leafHash, merkleRoot, merkleTree, nodeHash, verifyInclusion } from '../src/merkle';
import { digestOf } from './helpers';

/** A second implementation, written from docs/time-stamps.md alone (node:crypto, recursive). */
function independentRoot(digests: readonly Uint8Array[]): string {
  const h = (...parts: Uint8Array[]) => {
    const hash = createHash('sha256');
    for (const p of parts) hash.update(p);
    return new Uint8Array(hash.digest());
  };
  let level: Uint8Array[] = digests.map((d) => h(new Uint8Array([0]), d));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let j = 0; j < level.length; j += 2) {
      next.push(j + 1 < level.length ? h(new Uint8Array([1]), level[j]!, level[j + 1]!) : level[j]!);
    }
    level = next;
  }
  return toHex(level[0]!);
}

const digest = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('the Merkle tree', () => {
  it('has the documented vectors (digests 0x00…, 0x01…, 0x02… each 32 times that byte)', () => {
    const d = [0, 1, 2].map(digestOf);
    expect(toHex(leafHash(d[0]!))).toBe(
      toHex(new Uint8Array(createHash('sha256').update(new Uint8Array(33)).digest())),
    );
    expect({
      one: toHex(merkleRoot(d.slice(0, 1))),
      two: toHex(merkleRoot(d.slice(0, 2))),
      three: toHex(merkleRoot(d)),
    }).toEqual({
      one: '7f9c9e31ac8256ca2f258583df262dbc7d6f68f2a03043d5c99a4ae5a7396ce9',
      two: '28fb81e496897e0ce886f08602392e9239b65c659041e5202163e58ad898f444',
      three: 'ba8d94b7fbcecae7b81c4c80574fe24734a6917bf9c1ecd66ff3e0c34ead4620',
    });
  });

  it('a three-leaf tree promotes the third leaf: root = node(node(l0, l1), l2)', () => {
    const d = [0, 1, 2].map(digestOf);
    const [l0, l1, l2] = d.map(leafHash) as [Uint8Array, Uint8Array, Uint8Array];
    expect(merkleRoot(d)).toEqual(nodeHash(nodeHash(l0, l1), l2));
    expect(merkleTree(d).proof(2).siblings).toEqual([nodeHash(l0, l1)]);
  });

  it('for each size 1..9: the proof of every leaf verifies and the root is the independent one', () => {
    for (let n = 1; n <= 9; n++) {
      const digests = Array.from({ length: n }, (_, i) => digestOf(i + 1));
      const tree = merkleTree(digests);
      expect(toHex(tree.root)).toBe(independentRoot(digests));
      digests.forEach((d, i) => {
        const proof = tree.proof(i);
        expect(proof.siblings.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(verifyInclusion(d, proof, tree.root)).toBe(true);
        expect(verifyInclusion(d, proof, merkleRoot([...digests, digestOf(0xee)]))).toBe(false);
      });
    }
  });

  it('for 1..9 digests: the root is the independent one, every proof verifies, and no altered proof does', () => {
    fc.assert(
      fc.property(fc.array(digest, { minLength: 1, maxLength: 9 }), fc.nat(), (digests, pick) => {
        const tree = merkleTree(digests);
        expect(toHex(tree.root)).toBe(independentRoot(digests));
        digests.forEach((d, i) => {
          expect(verifyInclusion(d, tree.proof(i), tree.root)).toBe(true);
        });
        const i = pick % digests.length;
        const proof = tree.proof(i);
        const other = digests[i]!.slice();
        other[0] = other[0]! ^ 1;
        expect(verifyInclusion(other, proof, tree.root)).toBe(false);
        const root = tree.root.slice();
        root[31] = root[31]! ^ 1;
        expect(verifyInclusion(digests[i]!, proof, root)).toBe(false);
        if (proof.siblings.length > 0) {
          const k = pick % proof.siblings.length;
          const siblings = proof.siblings.map((s, j) =>
            j === k ? s.map((b, x) => (x === 0 ? b ^ 1 : b)) : s,
          );
          expect(verifyInclusion(digests[i]!, { ...proof, siblings }, tree.root)).toBe(false);
          expect(
            verifyInclusion(
              digests[i]!,
              { ...proof, siblings: [...proof.siblings, proof.siblings[0]!] },
              tree.root,
            ),
          ).toBe(false);
          expect(
            verifyInclusion(digests[i]!, { ...proof, siblings: proof.siblings.slice(1) }, tree.root),
          ).toBe(false);
        }
        // The same digests at another position do not pass for this one, unless they are equal.
        const j = (i + 1) % digests.length;
        if (toHex(digests[j]!) !== toHex(digests[i]!)) {
          expect(verifyInclusion(digests[i]!, tree.proof(j), tree.root)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an empty tree, a digest that is not 32 bytes, and an index outside the tree', () => {
    expect(() => merkleRoot([])).toThrow('at least one');
    expect(() => merkleRoot([new Uint8Array(31)])).toThrow('32 bytes');
    expect(() => merkleTree([digestOf(1)]).proof(1)).toThrow(RangeError);
    const tree = merkleTree([digestOf(1)]);
    expect(verifyInclusion(digestOf(1), { index: 1, size: 1, siblings: [] }, tree.root)).toBe(false);
    expect(verifyInclusion(digestOf(1), { index: 0, size: 1, siblings: [] }, tree.root)).toBe(true);
  });
});
