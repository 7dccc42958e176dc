/**
 * The beacon against rounds drand's quicknet actually published (fixtures copied from public drand
 * clients' test suites and checked against the League of Entropy relays' answers), and the rule that
 * picks the round after the close of contributions.
 */
import { describe, expect, it } from 'vitest';
import {
  beaconMessage,
  beaconRandomness,
  beaconRoundAfter,
  beaconSigner,
  bytesToHex,
  localBeaconNetwork,
  QUICKNET,
  roundTime,
  verifyBeaconRound,
} from '../src/index';

/** Published quicknet rounds: number, signature and the randomness drand served with it. */
const PUBLISHED = [
  {
    round: 1000,
    signature:
      'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
    randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
  },
  {
    round: 657413,
    signature:
      'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
    randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
  },
  {
    round: 5928395,
    signature:
      'a5d07c0071b4e386b3ae09206522253c68fefe8490ad59ecc44a7dd0d0745be91da5779e2247a82403fbc0cb9a34cb61',
    randomness: '51722dab0761a1ba5b39f653fa87bef41b442d91fc926a4d727a6be87373fc58',
  },
];

describe('drand quicknet rounds as published', () => {
  it.each(PUBLISHED)(
    'round $round: the signature verifies and its SHA-256 is the published randomness',
    async (r) => {
      expect(await verifyBeaconRound(QUICKNET, { round: r.round, signature: r.signature })).toBe(true);
      expect(beaconRandomness(r.signature)).toBe(r.randomness);
    },
  );

  it('a signature is refused for another round, with a bit flipped, under another key, or malformed', async () => {
    const [a, b] = PUBLISHED;
    // Good, and so remembered (verifyBeaconRound keeps its successes): the rest must still be refused.
    expect(await verifyBeaconRound(QUICKNET, { round: a!.round, signature: a!.signature })).toBe(true);
    expect(await verifyBeaconRound(QUICKNET, { round: a!.round + 1, signature: a!.signature })).toBe(false);
    expect(await verifyBeaconRound(QUICKNET, { round: a!.round, signature: b!.signature })).toBe(false);
    const flipped = `${a!.signature.slice(0, 40)}${a!.signature[40] === '0' ? '1' : '0'}${a!.signature.slice(41)}`;
    expect(await verifyBeaconRound(QUICKNET, { round: a!.round, signature: flipped })).toBe(false);
    const other = localBeaconNetwork(
      (await beaconSigner(new Uint8Array(32).fill(9))).publicKey,
      QUICKNET.genesisTime,
      3,
    );
    expect(await verifyBeaconRound(other, { round: a!.round, signature: a!.signature })).toBe(false);
    expect(await verifyBeaconRound(QUICKNET, { round: a!.round, signature: 'zz' })).toBe(false);
    expect(await verifyBeaconRound(QUICKNET, { round: a!.round, signature: '00'.repeat(48) })).toBe(false);
  });

  it('the signed message is SHA-256 of the round as 8 big-endian bytes', () => {
    expect(bytesToHex(beaconMessage(1))).toBe(
      'cd2662154e6d76b2b2b92e70c0cac3ccf534f9b74eb5b89819ec509083d00a50',
    );
  });

  it('round times follow the genesis and the 3-second period', () => {
    expect(roundTime(QUICKNET, 1)).toBe(1692803367);
    expect(new Date(roundTime(QUICKNET, 5928395) * 1000).toISOString()).toBe('2024-03-16T11:29:09.000Z');
  });
});

describe('the round that fixes a shoe: the first published at least the margin after the close', () => {
  const at = (round: number, plusMs = 0) =>
    new Date(roundTime(QUICKNET, round) * 1000 + plusMs).toISOString();

  it('a close exactly on a round time, with a margin of one period, takes the next round', () => {
    expect(beaconRoundAfter(QUICKNET, at(1000), 3)).toBe(1001);
  });

  it('fractions of a second count: a millisecond later takes the one after', () => {
    expect(beaconRoundAfter(QUICKNET, at(1000, 1), 3)).toBe(1002);
    expect(beaconRoundAfter(QUICKNET, at(1000, -1), 3)).toBe(1001);
  });

  it('is published at or after close + margin, and the round before it is not', () => {
    for (const ms of [0, 1, 999, 1500, 2999]) {
      for (const margin of [0, 1, 5, 30]) {
        const close = at(5000, ms);
        const r = beaconRoundAfter(QUICKNET, close, margin);
        const target = Date.parse(close) / 1000 + margin;
        expect(roundTime(QUICKNET, r)).toBeGreaterThanOrEqual(target);
        expect(roundTime(QUICKNET, r - 1)).toBeLessThan(target);
      }
    }
  });
});

describe('a beacon of our own (dev and tests)', () => {
  it('signs rounds the quicknet way: verifiable with its public key only', async () => {
    const signer = await beaconSigner(new Uint8Array(32).fill(3));
    const network = localBeaconNetwork(signer.publicKey, 1_700_000_000, 3);
    const signature = signer.sign(42);
    expect(await verifyBeaconRound(network, { round: 42, signature })).toBe(true);
    expect(await verifyBeaconRound(network, { round: 43, signature })).toBe(false);
    expect(await verifyBeaconRound(QUICKNET, { round: 42, signature })).toBe(false);
    expect(network.chainHash).not.toBe(QUICKNET.chainHash);
  });
});
