/**
 * The Merkle tree one time-stamp covers (many head digests, one TSA call). Exactly:
 *
 *   leaf(d)    = SHA-256(0x00 ‖ d)            d: a 32-byte head digest
 *   node(l, r) = SHA-256(0x01 ‖ l ‖ r)
 *
 * Level 0 is the leaves in the order the digests were added. Each next level pairs nodes 2j and
 * 2j+1 left to right; when a level has an odd count its last node is promoted unchanged (never paired
 * with itself, so no two different lists share a root by duplication). The root is the one node of
 * the last level; for one digest it is leaf(d). The prefixes keep a leaf from passing for a node.
 *
 * A proof is the leaf's index, the tree's size and the siblings from the leaf up; the side of each
 * sibling follows from index and size, so a proof fits one position in one tree only.
 * Pure and synchronous (@noble/hashes): runs in a browser.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { sameBytes } from './der';

export interface InclusionProof {
  readonly index: number;
  readonly size: number;
  readonly siblings: readonly Uint8Array[];
}

function checkDigest(digest: Uint8Array): void {
  if (digest.length !== 32) throw new Error(`a head digest is 32 bytes (got ${digest.length})`);
}

export function leafHash(digest: Uint8Array): Uint8Array {
  checkDigest(digest);
  const input = new Uint8Array(33);
  input.set(digest, 1);
  return sha256(input);
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(65);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 33);
  return sha256(input);
}

/** Every level, leaves first, root last. */
function levels(digests: readonly Uint8Array[]): Uint8Array[][] {
  if (digests.length === 0) throw new Error('a Merkle tree needs at least one digest');
  const all = [digests.map(leafHash)];
  for (let level = all[0]!; level.length > 1; ) {
    const next: Uint8Array[] = [];
    for (let j = 0; j + 1 < level.length; j += 2) next.push(nodeHash(level[j]!, level[j + 1]!));
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    all.push(next);
    level = next;
  }
  return all;
}

export interface MerkleTree {
  readonly root: Uint8Array;
  proof(index: number): InclusionProof;
}

export function merkleTree(digests: readonly Uint8Array[]): MerkleTree {
  const tree = levels(digests);
  const size = digests.length;
  return {
    root: tree[tree.length - 1]![0]!,
    proof(index: number): InclusionProof {
      if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`no leaf ${index}`);
      const siblings: Uint8Array[] = [];
      let position = index;
      for (const level of tree.slice(0, -1)) {
        const sibling = position % 2 === 1 ? position - 1 : position + 1;
        if (sibling < level.length) siblings.push(level[sibling]!);
        position >>= 1;
      }
      return { index, size, siblings };
    },
  };
}

export function merkleRoot(digests: readonly Uint8Array[]): Uint8Array {
  return merkleTree(digests).root;
}

/** Does `proof` put `digest` at its index in a tree of its size whose root is `root`? */
export function verifyInclusion(digest: Uint8Array, proof: InclusionProof, root: Uint8Array): boolean {
  const { index, size, siblings } = proof;
  if (digest.length !== 32 || !Number.isInteger(size) || size < 1) return false;
  if (!Number.isInteger(index) || index < 0 || index >= size) return false;
  let hash = leafHash(digest);
  let position = index;
  let count = size;
  let used = 0;
  while (count > 1) {
    if (position % 2 === 1) {
      const left = siblings[used++];
      if (!left) return false;
      hash = nodeHash(left, hash);
    } else if (position + 1 < count) {
      const right = siblings[used++];
      if (!right) return false;
      hash = nodeHash(hash, right);
    } // else: the last node of an odd level, promoted.
    position >>= 1;
    count = Math.ceil(count / 2);
  }
  return used === siblings.length && sameBytes(hash, root);
}
