import { shoeProof } from '@pyb/fairness';
import { demoBundle, testBeacon, testKey } from '@pyb/fairness/test-helpers';
import { describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';
import { beaconPin, scratch } from './scratch';

const { write } = scratch('pyb-verify-salted-');

const BEACON = await testBeacon();
const N = BEACON.network;
const KEY = testKey('key-salted', '2024-06-01T00:00:00.000Z');
const bundle = await demoBundle({
  keys: [KEY],
  beacon: BEACON,
  rounds: 6,
  voided: [2],
  voidNote: 'seat 3 saw the card',
  digestSalt: '3c'.repeat(32),
  leaving: { afterRound: 3, playerId: 'player-1042', commission: 1375, ledgerSeq: 88 },
});
const pinned = () => ['--public-key', write('key.pem', KEY.pem), '--trust-beacon', beaconPin(N)];

describe('baccarat verify, salted digests', () => {
  it('the proof: verified, and its digests are left to the regulator bundle', async () => {
    const { code, stdout } = await cli(['verify', write('proof.json', shoeProof(bundle)), ...pinned()]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/PASS\s+digests\.salt\s+.*only the regulator bundle/);
    expect(stdout).not.toContain('audit.commission');
  });

  it('the bundle: every digest checked with its salt; another salt fails digests.salt', async () => {
    const good = await cli(['verify', write('bundle.json', bundle), ...pinned()]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/PASS\s+audit\.commission/);
    expect(good.stdout).toMatch(/PASS\s+audit\.round\.2\.note/);
    const forged = await cli([
      'verify',
      write('forged.json', { ...bundle, digestSalt: '00'.repeat(32) }),
      ...pinned(),
      '--json',
    ]);
    expect(forged.code).toBe(1);
    expect((JSON.parse(forged.stdout) as { failed: string[] }).failed).toContain('digests.salt');
  });
});
