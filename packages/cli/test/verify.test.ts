import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tablePreset } from '@pyb/engine';
import { buildDemoBundle, type ShoeBundle } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from './run-cli';

const dir = mkdtempSync(join(tmpdir(), 'pyb-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let bundle: ShoeBundle;
let pem: string;
beforeAll(async () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  pem = key.publicKey.export({ format: 'pem', type: 'spki' }) as string;
  bundle = await buildDemoBundle({
    serverSeed: new Uint8Array(32).fill(42),
    clientSeed: 'cli test',
    shoeId: 'shoe-cli',
    tableId: 'table-1',
    operatorId: 'op-1',
    table: tablePreset('midi'),
    createdAt: '2025-02-01T10:00:00.000Z',
    keyId: 'local:test',
    publicKey: pem,
    sign: (m) => new Uint8Array(sign('sha256', m, { key: key.privateKey, dsaEncoding: 'der' })),
    rounds: 12,
  });
});

const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

describe('baccarat verify', () => {
  it('prints every check and exits 0 for an honest bundle', async () => {
    const { code, stdout } = await cli(['verify', write('ok.json', bundle)]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS {2}statement\.signature {2,}ECDSA/m);
    expect(stdout).toMatch(/^PASS {2}round\.12\.player\.player-2\.payout/m);
    expect(stdout).not.toMatch(/^FAIL/m);
    expect(stdout).toMatch(/verified: all \d+ checks passed\n$/);
  });

  it('exits 1 and names the check when a payout was tampered with', async () => {
    const tampered = structuredClone(bundle);
    tampered.rounds[4]!.positions[1]!.settlement!.payout += 1;
    const { code, stdout } = await cli(['verify', write('payout.json', tampered)]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL {2}round\.5\.player\.player-2\.payout +payout: expected \d+, recorded \d+$/m,
    );
    expect(stdout).toMatch(
      /NOT VERIFIED: 2 of \d+ checks failed: round\.5\.player\.player-2\.payout, audit\.round\.5\.settlement\n$/,
    );
  });

  it('--json lists the failed checks; --public-key pins the operator key', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      format: 'pem',
      type: 'spki',
    });
    const path = write('ok2.json', bundle);
    const pinnedOk = await cli(['verify', path, '--public-key', write('good.pem', pem), '--json']);
    expect(pinnedOk.code).toBe(0);
    expect(JSON.parse(pinnedOk.stdout)).toMatchObject({ ok: true, failed: [] });
    const pinnedBad = await cli([
      'verify',
      path,
      '--public-key',
      write('other.pem', other as string),
      '--json',
    ]);
    expect(pinnedBad.code).toBe(1);
    expect(JSON.parse(pinnedBad.stdout)).toMatchObject({ ok: false, failed: ['statement.public-key'] });
  });

  it('takes one --public-key per key when the signing key was rotated during the shoe', async () => {
    const next = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const nextPem = next.publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const first = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signer = (key: typeof first) => (m: Uint8Array) =>
      new Uint8Array(sign('sha256', m, { key: key.privateKey, dsaEncoding: 'der' }));
    const firstPem = first.publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const rotated = await buildDemoBundle({
      serverSeed: new Uint8Array(32).fill(7),
      clientSeed: 'cli rotation',
      shoeId: 'shoe-cli-rotated',
      tableId: 'table-1',
      operatorId: 'op-1',
      table: tablePreset('midi'),
      createdAt: '2025-02-01T10:00:00.000Z',
      keyId: 'local:first',
      publicKey: firstPem,
      sign: signer(first),
      closeKey: { keyId: 'local:next', publicKey: nextPem, sign: signer(next) },
      rounds: 6,
    });
    const path = write('rotated.json', rotated);
    const keys = ['--public-key', write('first.pem', firstPem), '--public-key', write('next.pem', nextPem)];
    const both = await cli(['verify', path, ...keys]);
    expect(both.code).toBe(0);
    expect(both.stdout).toMatch(/^PASS {2}audit\.public-key +P-256 key local:next, SHA-256 \w+, matches/m);
    const one = await cli(['verify', path, ...keys.slice(0, 2), '--json']);
    expect(one.code).toBe(1);
    expect(JSON.parse(one.stdout)).toMatchObject({ ok: false, failed: ['audit.public-key'] });
  });

  it('reports a file that is not JSON as a failed bundle.format check', async () => {
    const { code, stdout } = await cli(['verify', write('junk.json', '{ nope')]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL {2}bundle\.format {2}not JSON/m);
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['verify'])).code).toBe(2);
    const missing = await cli(['verify', join(dir, 'does-not-exist.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read bundle/);
  });

  it('works through the installed bin, reading the bundle from stdin', async () => {
    const bin = fileURLToPath(new URL('../../../node_modules/.bin/baccarat', import.meta.url));
    const tampered = structuredClone(bundle);
    tampered.rounds[0]!.coup!.cards[0] = tampered.rounds[0]!.coup!.cards[0] === 'AS' ? 'KH' : 'AS';
    const child = promisify(execFile)(bin, ['verify', '-'], { encoding: 'utf8' });
    child.child.stdin!.end(JSON.stringify(tampered));
    const result = await child.then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}round\.1\.cards +card \d+ should be/m);
  });
});
