import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockMessage, dealShoe, hexToBytes } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';

const seed = '5e'.repeat(32);
let dir: string;
const saved = { KEY_SERVICE: process.env.KEY_SERVICE, LOCAL_KEYS_DIR: process.env.LOCAL_KEYS_DIR };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pyb-rng-sample-'));
  process.env.KEY_SERVICE = 'local';
  process.env.LOCAL_KEYS_DIR = join(dir, 'keys');
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('baccarat rng-sample', () => {
  it('--kind stream writes the HMAC-SHA256 stream bytes of each seed, in order, and a manifest', async () => {
    const out = join(dir, 'stream.bin');
    const { code, stdout } = await cli([
      'rng-sample',
      '--kind',
      'stream',
      '--out',
      out,
      '--count',
      '2',
      '--bytes-per-seed',
      '80',
      '--server-seed',
      seed,
      '--client-seed',
      'lab',
      '--shoe-id-prefix',
      'S',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('160 bytes');
    const bytes = new Uint8Array(readFileSync(out));
    expect(bytes).toHaveLength(160);
    // block(k) = HMAC-SHA256(seed, msg(k)) for shoe ids S-0 then S-1 (Node's HMAC, not the library's).
    const block = (shoeId: string, k: number) =>
      createHmac('sha256', hexToBytes(seed))
        .update(blockMessage('lab', shoeId, k))
        .digest();
    const expected = (shoeId: string) =>
      new Uint8Array([...block(shoeId, 0), ...block(shoeId, 1), ...block(shoeId, 2)]).subarray(0, 80);
    expect(bytes.subarray(0, 80)).toEqual(expected('S-0'));
    expect(bytes.subarray(80)).toEqual(expected('S-1'));
    const manifest = JSON.parse(readFileSync(`${out}.json`, 'utf8'));
    expect(manifest).toMatchObject({
      kind: 'stream',
      seeds: 2,
      bytesPerSeed: 80,
      bytes: 160,
      sha256: sha(bytes),
    });
    expect(readFileSync(`${out}.seeds.csv`, 'utf8')).toBe(
      `index,server_seed,client_seed,shoe_id\n0,${seed},lab,S-0\n1,${seed},lab,S-1\n`,
    );
  });

  it('--kind shoes --scheme pyb-shoe/2 (csv): one row per shoe, the cut index and the order the library deals', async () => {
    const out = join(dir, 'shoes.csv');
    const { code } = await cli([
      'rng-sample',
      '--kind',
      'shoes',
      '--out',
      out,
      '--count',
      '3',
      '--server-seed',
      seed,
      '--decks',
      '6',
      '--scheme',
      'pyb-shoe/2',
    ]);
    expect(code).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const header = lines[0]!.split(',');
    expect(header.slice(0, 3)).toEqual(['shoe', 'cut_index', 'p0']);
    expect(header).toHaveLength(2 + 312);
    const shoe = dealShoe({
      serverSeed: hexToBytes(seed),
      clientSeed: 'lab-sample',
      shoeId: 'lab-2',
      decks: 6,
      cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    });
    expect(lines[3]).toBe(`2,${shoe.cutIndex},${shoe.order.join(',')}`);
  });

  it('fresh seeds from the key service, binary shoes, and the standards’ tests with --test', async () => {
    const out = join(dir, 'shoes.bin');
    const { code, stdout } = await cli([
      'rng-sample',
      '--kind',
      'shoes',
      '--out',
      out,
      '--count',
      '40',
      '--format',
      'bin',
      '--test',
      '--json',
      '--scheme',
      'pyb-shoe/2',
    ]);
    const manifest = JSON.parse(stdout);
    expect(manifest.seedSource).toMatch(/^local key service/);
    expect(readFileSync(out)).toHaveLength(40 * 416);
    const seeds = readFileSync(`${out}.seeds.csv`, 'utf8').trimEnd().split('\n').slice(1);
    expect(new Set(seeds.map((l) => l.split(',')[1])).size).toBe(40);
    // The first shoe's bytes are the deal of its listed seed.
    const [, first] = seeds[0]!.split(',');
    const shoe = dealShoe({
      serverSeed: hexToBytes(first!),
      clientSeed: 'lab-sample',
      shoeId: 'lab-0',
      decks: 8,
      cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
    });
    expect(new Uint8Array(readFileSync(out)).subarray(0, 416)).toEqual(shoe.order);
    expect(manifest.tests.map((t: { test: string }) => t.test)).toContain('serial.inter-shoe');
    expect(code).toBe(manifest.tests.every((t: { pass: boolean }) => t.pass) ? 0 : 1);
  });

  it('--seeds replays a published sample byte for byte (seeds, client seeds and shoe ids of each row)', async () => {
    const first = join(dir, 'first.bin');
    const again = join(dir, 'again.bin');
    const base = ['rng-sample', '--kind', 'stream', '--bytes-per-seed', '40'];
    expect(
      (await cli([...base, '--out', first, '--count', '3', '--client-seed', 'a "quoted", seed'])).code,
    ).toBe(0);
    expect((await cli([...base, '--out', again, '--seeds', `${first}.seeds.csv`])).code).toBe(0);
    expect(readFileSync(again)).toEqual(readFileSync(first));
    expect(readFileSync(`${again}.seeds.csv`, 'utf8')).toBe(readFileSync(`${first}.seeds.csv`, 'utf8'));
    expect(JSON.parse(readFileSync(`${again}.json`, 'utf8')).sha256).toBe(
      JSON.parse(readFileSync(`${first}.json`, 'utf8')).sha256,
    );
    const { code, stderr } = await cli([
      ...base,
      '--out',
      again,
      '--seeds',
      `${first}.seeds.csv`,
      '--count',
      '2',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('--seeds fixes the seeds and the count');
  });

  it('refuses bad options with the usage (exit 2)', async () => {
    for (const args of [
      ['--kind', 'dice', '--out', join(dir, 'x')],
      ['--kind', 'stream'],
      ['--kind', 'stream', '--out', join(dir, 'x'), '--bytes-per-seed', '6'],
      ['--kind', 'stream', '--out', join(dir, 'x'), '--test'],
      ['--kind', 'shoes', '--out', join(dir, 'x'), '--server-seed', 'abc'],
      ['--kind', 'shoes', '--out', join(dir, 'x'), '--scheme', 'pyb-shoe/1'],
      ['--kind', 'stream', '--out', join(dir, 'x'), '--scheme', 'pyb-shoe/3'],
      ['--kind', 'shoes', '--out', join(dir, 'x'), '--scheme', 'pyb-shoe/2', '--beacon-key', '11'.repeat(32)],
      ['--kind', 'shoes', '--out', join(dir, 'x'), '--beacon-key', '11'],
      ['--kind', 'shoes', '--out', join(dir, 'x'), '--beacon-key', '00'.repeat(32)],
    ]) {
      const { code, stderr } = await cli(['rng-sample', ...args]);
      expect(code).toBe(2);
      expect(stderr).toContain('usage: baccarat rng-sample');
    }
  });
});
