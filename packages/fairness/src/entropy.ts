/**
 * What the shoe order depends on besides the server seed (docs/provably-fair.md §5–§6): the seed
 * contributions (players' seeds and the operator's client seed, in the order they were recorded),
 * closed and committed by their digest before the beacon round that fixes the order is published,
 * and that round's signature. They are mixed into the shoe entropy, which is the text the random
 * stream of §7 takes as its client input.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { beaconRandomness } from './beacon';
import { bytesToHex, utf8ToBytes } from './bytes';
import { canonicalJson } from './canonical';

export const SHOE_ENTROPY_SCHEME = 'pyb-shoe/2';
/** statement.ts SHOE_SCHEME_V3 (which imports this module). */
const SHOE_SCHEME_V3_NAME = 'pyb-shoe/3';

/** Who gave a seed: a player (through the operator's front end) or the operator (its client seed). */
export const CONTRIBUTION_KINDS = ['PLAYER', 'OPERATOR'] as const;
export type ContributionKind = (typeof CONTRIBUTION_KINDS)[number];

export interface Contribution {
  /** 0-based, in the order the chain recorded them. */
  index: number;
  kind: ContributionKind;
  /** The seed as given: 1..256 UTF-8 bytes of clean text, text.ts clientSeedProblem (public in the proof). */
  seed: string;
}

/** Contributions one shoe takes at most (each is an audit event). */
export const MAX_CONTRIBUTIONS = 1000;

/** hex(SHA-256(UTF-8(JCS(contributions)))), the contributions in index order 0, 1, 2, … */
export function contributionsDigest(contributions: readonly Contribution[]): string {
  contributions.forEach((c, i) => {
    if (c.index !== i) throw new RangeError(`contribution ${i} is numbered ${c.index}`);
  });
  const list = contributions.map((c) => ({ index: c.index, kind: c.kind, seed: c.seed }));
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(list))));
}

export interface EntropyInputs {
  shoeId: string;
  commitment: string;
  /** contributionsDigest of the closed contributions. */
  contributions: string;
  /** The beacon round that fixes the order: the network's chain hash, its number and signature (hex). */
  beacon: { chainHash: string; round: number; signature: string };
}

/**
 * The shoe entropy: hex(SHA-256(UTF-8(JCS({ scheme, shoeId, commitment, contributions,
 * beacon: { chainHash, round, randomness } })))), randomness = SHA-256(signature). Changing any
 * contribution, the beacon round or its signature changes it, and with it the whole order.
 */
export function shoeEntropy(inputs: EntropyInputs): string {
  return entropyOf(SHOE_ENTROPY_SCHEME, inputs);
}

/**
 * pyb-shoe/3's shoe entropy (docs/provably-fair.md §15.1): the same object with scheme "pyb-shoe/3",
 * the beacon being the round named when contributions closed. It fixes the shoe's start (the burn and
 * the cut card) and is the client input of every coup's stream, which adds the coup's own round.
 */
export function shoeEntropyV3(inputs: EntropyInputs): string {
  return entropyOf(SHOE_SCHEME_V3_NAME, inputs);
}

/** What of a statement the entropy takes: its scheme picks the function, the rest is mixed in. */
export interface EntropyStatement {
  scheme: string;
  shoeId: string;
  commitment: string;
  beacon: { chainHash: string };
}

/**
 * The shoe entropy of a statement's scheme (shoeEntropyV3 for pyb-shoe/3, shoeEntropy otherwise)
 * from the contributions' digest and the beacon round that fixes it: the one way the platform, its
 * audit and the verifier compute it.
 */
export function shoeEntropyFor(
  statement: EntropyStatement,
  contributions: string,
  beacon: { round: number; signature: string },
): string {
  const inputs: EntropyInputs = {
    shoeId: statement.shoeId,
    commitment: statement.commitment,
    contributions,
    beacon: { chainHash: statement.beacon.chainHash, round: beacon.round, signature: beacon.signature },
  };
  return statement.scheme === SHOE_SCHEME_V3_NAME ? shoeEntropyV3(inputs) : shoeEntropy(inputs);
}

function entropyOf(scheme: string, inputs: EntropyInputs): string {
  const mixed = {
    scheme,
    shoeId: inputs.shoeId,
    commitment: inputs.commitment,
    contributions: inputs.contributions,
    beacon: {
      chainHash: inputs.beacon.chainHash,
      round: inputs.beacon.round,
      randomness: beaconRandomness(inputs.beacon.signature),
    },
  };
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(mixed))));
}
