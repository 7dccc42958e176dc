/**
 * `baccarat verify` over a pyb-shoe/3 bundle (docs/provably-fair.md §15.11): it prints the checks of
 * each coup's beacon round, and a close-betting receipt (--receipt) catches a shoe re-written, with the
 * platform's own keys, to name a later round for a coup.
 */
import type { ShoeBundle } from '@pyb/fairness';
import { demoBundleV3, testBeacon, testKey, testTsaPem } from '@pyb/fairness/test-helpers';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';
import { beaconPin, scratch } from './scratch';

const { write } = scratch('pyb-verify-v3-');

const BEACON = await testBeacon();
const N = BEACON.network;
const BEACON_PIN = beaconPin(N);
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');

let honest: ShoeBundle;
let trust: string[];
beforeAll(async () => {
  honest = await demoBundleV3({ keys: [GEN1], beacon: BEACON, rounds: 8 });
  trust = [
    '--public-key',
    write('gen1.pem', GEN1.pem),
    '--trust-beacon',
    BEACON_PIN,
    '--trust-tsa',
    write('tsa.pem', await testTsaPem()),
  ];
});

describe('baccarat verify, pyb-shoe/3', () => {
  it('prints each round’s beacon checks and the close-betting heads, and verifies', async () => {
    const { code, stdout } = await cli(['verify', write('v3.json', honest), ...trust]);
    expect(stdout).toMatch(/^PASS +round\.1\.beacon +BLS signature of round \d+/m);
    expect(stdout).toMatch(
      /^PASS +round\.1\.beacon-named +round \d+, published .*named when betting closed/m,
    );
    expect(stdout).toMatch(/^PASS +round\.5\.burn\.cards +burn of round \d+/m);
    expect(stdout).toMatch(/^PASS +heads\.round\.1\.betting +BETTING_CLOSED of round/m);
    expect(stdout).toMatch(/^PASS +shoe\.start /m);
    expect(stdout).toMatch(/VERIFIED: all \d+ checks passed/);
    expect(code).toBe(0);
  });

  it('a shoe re-written to close betting late on round 4 verifies alone; the receipt refuses it', async () => {
    const late = await demoBundleV3({
      keys: [GEN1],
      beacon: BEACON,
      rounds: 8,
      forge: { lateSeconds: (n) => (n === 4 ? 30 : 0) },
    });
    const receipt = honest.heads.find(
      (h) => h.statement.type === 'BETTING_CLOSED' && h.statement.roundId === honest.rounds[3]!.roundId,
    );
    const path = write('late.json', late);
    expect((await cli(['verify', path, ...trust])).code).toBe(0);
    const { code, stdout } = await cli([
      'verify',
      path,
      ...trust,
      '--receipt',
      write('receipt.json', receipt),
    ]);
    expect(stdout).toMatch(/^FAIL +receipt\.1 +.*the chain was rewritten after this head was signed/m);
    expect(code).toBe(1);
  });
});
