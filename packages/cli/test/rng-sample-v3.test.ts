import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CARDS_PER_DECK } from '@pyb/engine';
import {
  beaconRandomness,
  beaconSigner,
  commitmentOf,
  contributionsDigest,
  hexToBytes,
  localBeaconNetwork,
  replayShoeV3,
  type ShoeStepV3,
  shoeEntropyV3,
} from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';

const seed = '5e'.repeat(32);
const beaconKey = '3c'.repeat(32);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pyb-rng-sample-v3-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sample = (out: string, extra: string[] = []) =>
  cli(['rng-sample', '--kind', 'shoes', '--out', out, '--decks', '1', '--beacon-key', beaconKey, ...extra]);

/** Shoe i of a sample as a verifier deals it (replayShoeV3): rounds i·1000+1 (contributions), +2, +3, … */
async function replayed(i: number, deal = true) {
  const signer = await beaconSigner(hexToBytes(beaconKey));
  const network = localBeaconNetwork(signer.publicKey, 0, 3);
  const base = i * 1000 + 1;
  const serverSeed = hexToBytes(seed);
  const entropy = shoeEntropyV3({
    shoeId: `lab-${i}`,
    commitment: commitmentOf(serverSeed),
    contributions: contributionsDigest([{ index: 0, kind: 'OPERATOR', seed: 'lab-sample' }]),
    beacon: { chainHash: network.chainHash, round: base, signature: signer.sign(base) },
  });
  const inputs = {
    serverSeed,
    entropy,
    shoeId: `lab-${i}`,
    decks: 1,
    cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    afterCutCard: 'FINISH_COUP' as const,
  };
  // the verifier's walk, one coup step at a time until the shoe ends
  const steps: ShoeStepV3[] = [];
  for (;;) {
    const walk = replayShoeV3(inputs, steps);
    if (walk.state.finished || !deal) return { network, walk };
    const round = base + 1 + steps.length;
    steps.push({ kind: 'COUP', beacon: { round, randomness: beaconRandomness(signer.sign(round)) } });
  }
}

describe('baccarat rng-sample --kind shoes (pyb-shoe/3, the scheme in force)', () => {
  it('deals each shoe as the verifier replays it, coup by coup from its own beacon round, then the cards behind', async () => {
    const out = join(dir, 'v3.csv');
    const { code } = await sample(out, ['--count', '2', '--server-seed', seed]);
    expect(code).toBe(0);
    const [header, ...rows] = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(header!.split(',').slice(0, 4)).toEqual(['shoe', 'cut_index', 'dealt_in_play', 'p0']);
    expect(rows).toHaveLength(2);
    for (const [i, row] of rows.entries()) {
      const [index, cutIndex, dealtInPlay, ...order] = row.split(',').map(Number);
      expect(index).toBe(i);
      // a whole shoe: every card of the deck once
      expect(order).toHaveLength(CARDS_PER_DECK);
      expect([...order].sort((a, b) => a! - b!)).toEqual(Array.from({ length: CARDS_PER_DECK }, (_, c) => c));
      // what play dealt is what the verifier's walk deals: the start, then each coup
      const { walk } = await replayed(i);
      const dealt = [walk.start.burn.shown, ...walk.start.burn.cards, ...walk.steps.flatMap((s) => s.cards)];
      expect(dealtInPlay).toBe(dealt.length);
      expect(order.slice(0, dealt.length)).toEqual(dealt);
      expect(cutIndex).toBe(walk.start.cutIndex);
    }
    // shoe 1 is not shoe 0 (own shoe id and rounds)
    expect(rows[1]!.split(',').slice(3)).not.toEqual(rows[0]!.split(',').slice(3));
  });

  it('writes the lab beacon to the manifest and regenerates byte for byte from --seeds and --beacon-key', async () => {
    const first = join(dir, 'first.csv');
    const again = join(dir, 'again.csv');
    expect((await sample(first, ['--count', '3', '--format', 'bin', '--json'])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(`${first}.json`, 'utf8'));
    const { network } = await replayed(0, false);
    expect(manifest).toMatchObject({
      scheme: 'pyb-shoe/3',
      shoes: 3,
      beacon: { chainHash: network.chainHash, publicKey: network.publicKey, secretKey: beaconKey },
    });
    expect(readFileSync(first)).toHaveLength(3 * CARDS_PER_DECK);
    expect((await sample(again, ['--format', 'bin', '--seeds', `${first}.seeds.csv`])).code).toBe(0);
    expect(readFileSync(again)).toEqual(readFileSync(first));
    expect(JSON.parse(readFileSync(`${again}.json`, 'utf8')).sha256).toBe(manifest.sha256);
  });

  it('runs the standards’ tests over whole pyb-shoe/3 orders', async () => {
    const out = join(dir, 'tested.bin');
    const { code, stdout } = await sample(out, [
      '--count',
      '30',
      '--server-seed',
      seed,
      '--format',
      'bin',
      '--test',
      '--json',
    ]);
    const manifest = JSON.parse(stdout);
    expect(manifest.tests.map((t: { test: string }) => t.test)).toEqual([
      'frequency.table',
      'frequency.positions',
      'frequency.worst-position',
      'runs.colour',
      'runs.high-low',
      'serial.lag-1',
      'serial.inter-shoe',
    ]);
    // fixed seeds and key: the verdicts are fixed too
    expect(code).toBe(manifest.tests.every((t: { pass: boolean }) => t.pass) ? 0 : 1);
  });
});
