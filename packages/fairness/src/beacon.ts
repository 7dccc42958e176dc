/**
 * The public randomness beacon a shoe's order depends on (docs/provably-fair.md §5): a drand network
 * of the `bls-unchained-g1-rfc9380` scheme (quicknet): round r is published at
 * genesisTime + (r − 1) · period, its signature is a BLS12-381 signature on G1 of SHA-256(be64(r))
 * under the network's public key on G2 (hash-to-curve RFC 9380, DST
 * BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_), and its randomness is SHA-256(signature).
 * Nobody can compute a round's signature before the network's threshold of nodes publishes it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { onFirstUse } from '@pyb/engine';
import { bytesToHex, hexToBytes, isHex } from './bytes';

export const BEACON_SCHEME = 'bls-unchained-g1-rfc9380';

/** What a statement names: the network, and how long after the close of contributions its round comes. */
export interface BeaconNetwork {
  scheme: typeof BEACON_SCHEME;
  /** hex: the network's chain hash (drand's id of the chain). */
  chainHash: string;
  /** hex: 96-byte compressed G2 public key. */
  publicKey: string;
  /** Unix seconds of round 1. */
  genesisTime: number;
  /** Seconds between rounds. */
  period: number;
}

/** drand quicknet on the League of Entropy mainnet (https://api.drand.sh/<chainHash>/info). */
export const QUICKNET: BeaconNetwork = {
  scheme: BEACON_SCHEME,
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTime: 1692803367,
  period: 3,
};

/** A round as published: its number and its signature (hex, 48-byte compressed G1 point). */
export interface BeaconRound {
  round: number;
  signature: string;
}

/**
 * The BLS12-381 curve, loaded on first use: computing its fields and constants takes several
 * milliseconds of CPU, which every Lambda bundle holding this file would otherwise pay at load
 * (docs/benchmarks.md, "Lambda bundles"). Loading a package is not I/O: the library stays pure and
 * runs in a browser.
 */
const bls = /* @__PURE__ */ onFirstUse(() =>
  import('@noble/curves/bls12-381.js').then((m) => m.bls12_381.shortSignatures),
);

/** Unix seconds at which round `round` (≥ 1) is published. */
export function roundTime(network: BeaconNetwork, round: number): number {
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`bad beacon round ${round}`);
  return network.genesisTime + (round - 1) * network.period;
}

/**
 * The first round published at or after `at` (ISO 8601) plus `marginSeconds`: the round that fixes a
 * shoe's order once its contributions closed at `at`. Fractions of a second count: a close at
 * 12:00:00.400 with a margin of 5 s needs a round published at 12:00:05.400 or later.
 */
export function beaconRoundAfter(network: BeaconNetwork, at: string, marginSeconds: number): number {
  const ms = Date.parse(at);
  if (!Number.isFinite(ms)) throw new RangeError(`bad time ${at}`);
  const target = ms / 1000 + marginSeconds;
  if (target <= network.genesisTime) return 1;
  return Math.ceil((target - network.genesisTime) / network.period) + 1;
}

/** The message a round's signature signs: SHA-256 of the round number as 8 big-endian bytes. */
export function beaconMessage(round: number): Uint8Array {
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`bad beacon round ${round}`);
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round), false);
  return sha256(bytes);
}

/**
 * Rounds already found good, by public key, round and signature: a BLS check is a pairing (tens of
 * milliseconds), and every replay, recall and audit export of a shoe checks the same round again — a
 * warm Lambda (or a test run) pays for it once. Only a success is kept, under everything it depends
 * on, so a changed signature, round or key is checked afresh; the oldest go first past the bound.
 */
const verifiedRounds = new Set<string>();
const VERIFIED_ROUNDS_KEPT = 1024;

/**
 * Resolves true when `signature` (hex) is the network's signature of round `round`, false when it is
 * not or is malformed; rejects only if the curve's code cannot be loaded (a broken install, never a
 * verdict on the round). Asynchronous because the curve is loaded on first use (`bls`).
 */
export async function verifyBeaconRound(network: BeaconNetwork, round: BeaconRound): Promise<boolean> {
  if (network.scheme !== BEACON_SCHEME) return false;
  if (!isHex(round.signature, 48) || !isHex(network.publicKey, 96)) return false;
  const key = `${network.publicKey}|${round.round}|${round.signature}`;
  if (verifiedRounds.has(key)) return true;
  const curve = await bls();
  let ok: boolean;
  try {
    ok = curve.verify(
      hexToBytes(round.signature),
      curve.hash(beaconMessage(round.round)),
      hexToBytes(network.publicKey),
    );
  } catch {
    return false;
  }
  if (ok) {
    if (verifiedRounds.size >= VERIFIED_ROUNDS_KEPT)
      verifiedRounds.delete(verifiedRounds.values().next().value!);
    verifiedRounds.add(key);
  }
  return ok;
}

/** hex(SHA-256(signature)): the round's randomness, as drand defines it. */
export const beaconRandomness = (signature: string): string => bytesToHex(sha256(hexToBytes(signature)));

/** Whether the network is drand quicknet exactly (every field). */
export const isQuicknet = (network: BeaconNetwork): boolean =>
  network.scheme === QUICKNET.scheme &&
  network.chainHash === QUICKNET.chainHash &&
  network.publicKey === QUICKNET.publicKey &&
  network.genesisTime === QUICKNET.genesisTime &&
  network.period === QUICKNET.period;

/** Signs rounds of a beacon of our own; made by `beaconSigner`. */
export interface BeaconSigner {
  /** hex: 96-byte compressed G2 public key. */
  publicKey: string;
  /** hex: the 48-byte compressed G1 signature of round `round`. */
  sign(round: number): string;
}

/**
 * A beacon of the same scheme under a key of its own (the local beacon of dev and tests, and the
 * demo bundles): the secret key signs rounds exactly as drand's nodes do together. Asynchronous
 * once, to load the curve (`bls`); its `sign` is synchronous.
 */
export async function beaconSigner(secretKey: Uint8Array): Promise<BeaconSigner> {
  const curve = await bls();
  return {
    publicKey: bytesToHex(curve.getPublicKey(secretKey).toBytes(true)),
    sign: (round) => bytesToHex(curve.sign(curve.hash(beaconMessage(round)), secretKey).toBytes(true)),
  };
}

/**
 * The network of a beacon of our own: its chain hash is hex(SHA-256(UTF-8 of
 * `scheme|publicKey|genesisTime|period`)), so the same key and clock always name the same chain.
 */
export function localBeaconNetwork(publicKey: string, genesisTime: number, period: number): BeaconNetwork {
  const text = `${BEACON_SCHEME}|${publicKey}|${genesisTime}|${period}`;
  return {
    scheme: BEACON_SCHEME,
    chainHash: bytesToHex(sha256(new TextEncoder().encode(text))),
    publicKey,
    genesisTime,
    period,
  };
}
