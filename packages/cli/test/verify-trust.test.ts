import { beaconSigner, localBeaconNetwork, QUICKNET, type ShoeBundle } from '@pyb/fairness';
import {
  demoBundle,
  demoKeyCertificates,
  QUICKNET_INFO,
  testBeacon,
  testKey,
  testTsaPem,
} from '@pyb/fairness/test-helpers';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';
import { beaconPin, scratch } from './scratch';

const { write } = scratch('pyb-verify-trust-');
const json = async (args: string[]) => {
  const { code, stdout } = await cli([...args, '--json']);
  const out = JSON.parse(stdout) as { verdict: string; failed: string[]; untrusted: string[] };
  return { code, verdict: out.verdict, failed: out.failed, untrusted: out.untrusted };
};

const BEACON = await testBeacon();
const N = BEACON.network;
/** The local beacon by its fields, as --trust-beacon takes it inline. */
const BEACON_PIN = beaconPin(N);
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');
const GEN2 = testKey('key-2', '2025-01-01T20:03:00.000Z');

let gen1Pem: string;
/** GET /v1/signing-key's answer, saved by the user: every generation's certificate. */
let service: string;
let serviceGen1: string;
let rotated: string;
/** The demo TSA's certificate, which stamped the rotation: --trust-tsa. */
let tsaPem: string;
beforeAll(async () => {
  tsaPem = write('tsa.pem', await testTsaPem());
  gen1Pem = write('gen1.pem', GEN1.pem);
  service = write('signing-key.json', {
    keyId: 'key-2',
    pem: GEN2.pem,
    certificates: await demoKeyCertificates([GEN1, GEN2]),
    beacon: N,
  });
  serviceGen1 = write('signing-key-1.json', { certificates: await demoKeyCertificates([GEN1]) });
  rotated = write('rotated.json', await demoBundle({ keys: [GEN1, GEN2], beacon: BEACON, rounds: 400 }));
});

describe('baccarat verify, pinned', () => {
  it('an honest rotation: verified with generation 1, the certificates and the beacon pinned (exit 0)', async () => {
    const pinned = [
      ...['--public-key', gen1Pem, '--key-certificates', service, '--trust-beacon', BEACON_PIN],
      ...['--trust-tsa', tsaPem],
    ];
    expect(await json(['verify', rotated, ...pinned])).toEqual({
      code: 0,
      verdict: 'verified',
      failed: [],
      untrusted: [],
    });
    // The beacon as a file: the saved GET /v1/signing-key answer names it.
    const byFile = [
      ...['--public-key', gen1Pem, '--key-certificates', service, '--trust-beacon', service],
      ...['--trust-tsa', tsaPem],
    ];
    expect((await json(['verify', rotated, ...byFile])).code).toBe(0);
  });

  it('nothing pinned: untrusted, exit 3', async () => {
    expect(await json(['verify', rotated])).toMatchObject({
      code: 3,
      untrusted: ['keys.stamped', 'statement.beacon', 'keys.trusted'],
    });
    // Everything but the TSA pinned: the rotation's time is the platform's word only.
    const pinned = ['--public-key', gen1Pem, '--key-certificates', service, '--trust-beacon', BEACON_PIN];
    expect(await json(['verify', rotated, ...pinned])).toMatchObject({
      code: 3,
      untrusted: ['keys.stamped'],
    });
  });

  it('F3: an offline key certified as generation 2, 1 ms after generation 1, found only in the bundle: exit 1', async () => {
    const offline = testKey('key-offline', '2024-06-01T00:00:00.001Z');
    const forged = write('f3.json', await demoBundle({ keys: [GEN1, offline], beacon: BEACON, rounds: 12 }));
    const base = ['verify', forged, '--public-key', gen1Pem, '--trust-beacon', BEACON_PIN];
    expect(await json([...base, '--key-certificates', serviceGen1])).toMatchObject({
      code: 1,
      failed: ['keys.certificates', 'keys.trusted'],
    });
    expect(await json(base)).toMatchObject({ code: 1, failed: ['keys.trusted'] });
    const { stdout } = await cli([...base, '--key-certificates', serviceGen1]);
    expect(stdout).toMatch(
      /^FAIL {3}keys\.certificates +generation 2 \(key-offline, valid from 2024-06-01T00:00:00\.001Z\) is certified only in the evidence/m,
    );
  });

  it("F4: a forger's BLS key under quicknet's chain hash, his own genesis and period: exit 1, statement.beacon", async () => {
    const signer = await beaconSigner(Uint8Array.from({ length: 32 }, (_, i) => (i * 31 + 11) & 0xff));
    const own = localBeaconNetwork(signer.publicKey, N.genesisTime, 1);
    const b: ShoeBundle = await demoBundle({
      keys: [GEN1],
      beacon: { network: { ...own, chainHash: QUICKNET.chainHash }, marginSeconds: 5, sign: signer.sign },
      rounds: 12,
    });
    const forged = write('f4.json', b);
    const quicknet = write('quicknet-info.json', QUICKNET_INFO);
    expect(await json(['verify', forged, '--public-key', gen1Pem])).toMatchObject({
      code: 1,
      failed: ['statement.beacon'],
    });
    expect(await json(['verify', forged, '--public-key', gen1Pem, '--trust-beacon', quicknet])).toMatchObject(
      {
        code: 1,
        failed: ['statement.beacon'],
      },
    );
    // Under the local beacon's chain hash the user pinned: the same.
    const local = write('f4-local.json', {
      ...(await demoBundle({
        keys: [GEN1],
        beacon: { network: { ...own, chainHash: N.chainHash }, marginSeconds: 5, sign: signer.sign },
        rounds: 12,
      })),
    });
    expect(
      await json(['verify', local, '--public-key', gen1Pem, '--trust-beacon', BEACON_PIN]),
    ).toMatchObject({
      code: 1,
      failed: ['statement.beacon'],
    });
  });

  it('F7: contributions closed 0 s before the beacon round: exit 1, statement.margin', async () => {
    const b = await demoBundle({ keys: [GEN1], beacon: await testBeacon(0), rounds: 12 });
    expect(
      await json(['verify', write('f7.json', b), '--public-key', gen1Pem, '--trust-beacon', BEACON_PIN]),
    ).toMatchObject({ code: 1, failed: ['statement.margin'] });
  });

  it('usage errors: a bare chain hash, a network whose fields do not hash to its claimed chain, certificates that are not', async () => {
    const bare = await cli(['verify', rotated, '--trust-beacon', N.chainHash]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/cannot read beacon network/);
    const lying = write('lying.json', { ...N, period: 30 });
    const lie = await cli(['verify', rotated, '--trust-beacon', lying]);
    expect(lie.code).toBe(2);
    expect(lie.stderr).toMatch(/hash to/);
    const certs = await cli(['verify', rotated, '--key-certificates', write('no-certs.json', { pem: 'x' })]);
    expect(certs.code).toBe(2);
    expect(certs.stderr).toMatch(/--key-certificates .*not the certificates GET \/v1\/signing-key lists/);
  });
});
