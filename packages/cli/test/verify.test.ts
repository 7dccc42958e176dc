import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tablePreset } from '@pyb/engine';
import {
  bytesToBase64,
  closeStatementBytes,
  eventHash,
  headStatementBytes,
  hexToBytes,
  QUICKNET,
  type ShoeBundle,
} from '@pyb/fairness';
import { buildDemoBundle } from '@pyb/fairness/test-helpers';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/in-process';
import { scratch } from './scratch';

const { dir, write } = scratch('pyb-verify-');

const examples = fileURLToPath(new URL('../../fairness/examples/', import.meta.url));
const BUNDLE = join(examples, 'shoe-bundle.json');
const PROOF = join(examples, 'shoe-proof.json');
const OPERATOR_KEY = join(examples, 'operator.pem');
const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as ShoeBundle;

/** The example shoe made again, the same way, under a key of the forger's own. */
let forged: ShoeBundle;
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const FORGER_PEM = key.publicKey.export({ format: 'pem', type: 'spki' }) as string;
const forgerSign = (m: Uint8Array) =>
  new Uint8Array(sign('sha256', m, { key: key.privateKey, dsaEncoding: 'der' }));
beforeAll(async () => {
  forged = await buildDemoBundle({
    serverSeed: hexToBytes('00'.repeat(32)),
    shoeId: 'shoe-example-1',
    tableId: 'table-midi-1',
    operatorId: 'op-example',
    table: tablePreset('midi'),
    createdAt: '2024-03-16T11:28:59.500Z',
    keys: [
      {
        keyId: 'local:example',
        publicKey: FORGER_PEM,
        sign: forgerSign,
        validFrom: '2024-03-01T00:00:00.000Z',
      },
    ],
    beacon: {
      network: QUICKNET,
      marginSeconds: 5,
      round: bundle.beacon.round,
      signature: bundle.beacon.signature,
    },
    rounds: 8,
  });
});

describe('baccarat verify', () => {
  it('verifies the example bundle with the operator key: exit 0, every check printed', async () => {
    const { code, stdout } = await cli(['verify', BUNDLE, '--public-key', OPERATOR_KEY]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS {3}statement\.signature {2,}ECDSA/m);
    expect(stdout).toMatch(/^PASS {3}beacon\.signature {2,}BLS signature of round 5928395/m);
    expect(stdout).toMatch(/^PASS {3}statement\.beacon {2,}drand quicknet/m);
    expect(stdout).toMatch(
      /^PASS {3}audit\.round\.5\.order {2,}ROUND_OPENED < BETTING_CLOSED < COUP_DEALT < ROUND_SETTLED$/m,
    );
    expect(stdout).toMatch(/^PASS {3}round\.12\.player\.player-2\.payout/m);
    expect(stdout).not.toMatch(/^(FAIL|TRUST)/m);
    expect(stdout).toMatch(/\nVERIFIED: all \d+ checks passed, signed by keys you trust\n$/);
  });

  it('takes the key as GET /v1/signing-key answers it (JSON with a pem)', async () => {
    const json = write('signing-key.json', {
      keyId: 'local:example',
      pem: readFileSync(OPERATOR_KEY, 'utf8'),
    });
    expect((await cli(['verify', BUNDLE, '--public-key', json])).code).toBe(0);
  });

  it('verifies the public proof the same way', async () => {
    const { code, stdout } = await cli(['verify', PROOF, '--public-key', OPERATOR_KEY]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS {3}format {2,}pyb-shoe-proof\/1, shoe shoe-example-1/m);
    expect(stdout).not.toMatch(/payout/);
  });

  it('without a trusted key: UNTRUSTED, exit 3, never "verified"', async () => {
    const { code, stdout } = await cli(['verify', BUNDLE]);
    expect(code).toBe(3);
    expect(stdout).toMatch(/^TRUST {2}keys\.trusted {2,}no trusted key was given/m);
    expect(stdout).toMatch(
      /\nUNTRUSTED: all \d+ checks passed, but keys\.trusted rest on keys, a beacon or time-stamps you did not say to trust/,
    );
    expect(stdout).not.toMatch(/VERIFIED/);
  });

  it('a self-signed forgery: untrusted alone, refused against the operator key', async () => {
    const path = write('forged.json', forged);
    expect((await cli(['verify', path])).code).toBe(3);
    const pinned = await cli(['verify', path, '--public-key', OPERATOR_KEY, '--json']);
    expect(pinned.code).toBe(1);
    expect(JSON.parse(pinned.stdout)).toMatchObject({ verdict: 'failed', failed: ['keys.trusted'] });
  });

  it('a bet taken after the deal (BETTING_CLOSED moved after COUP_DEALT), relinked and re-signed with the key: exit 1, the order named', async () => {
    // The insider holds the signing key (here: the forger's shoe, trusted as if it were the operator's).
    const b = structuredClone(forged);
    const round = b.rounds[2]!;
    const events = b.audit.events;
    const at = (type: string) =>
      events.findIndex((e) => e.event.roundId === round.roundId && e.event.type === type);
    const [closed, dealt] = [at('BETTING_CLOSED'), at('COUP_DEALT')];
    [events[closed], events[dealt]] = [events[dealt]!, events[closed]!];
    for (const [i, e] of events.entries()) e.event.seq = i;
    [events[closed]!.event.at, events[dealt]!.event.at] = [events[dealt]!.event.at, events[closed]!.event.at];
    let prev = b.statement.commitment;
    for (const e of events) {
      e.prevHash = prev;
      e.hash = eventHash(prev, e.event);
      prev = e.hash;
    }
    for (const h of b.heads) {
      h.statement.head = events[h.statement.seq]!.hash;
      h.signature = bytesToBase64(forgerSign(headStatementBytes(h.statement)));
    }
    b.audit.close.head = prev;
    b.audit.signature = bytesToBase64(forgerSign(closeStatementBytes(b.audit.close)));
    const { code, stdout } = await cli([
      'verify',
      write('reordered.json', b),
      '--public-key',
      write('forger.pem', FORGER_PEM),
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(`^FAIL {3}audit\\.round\\.${round.number}\\.order +.*COUP_DEALT < BETTING_CLOSED`, 'm'),
    );
    expect(stdout).toMatch(/^PASS {3}audit\.chain /m);
    expect(stdout).toMatch(/^PASS {3}audit\.close\.signature /m);
    expect(stdout).toMatch(/\nNOT VERIFIED: /);
  });

  it('exits 1 and names the checks when a payout was tampered with', async () => {
    const tampered = structuredClone(bundle);
    tampered.rounds[4]!.positions[1]!.settlement!.payout += 1;
    const { code, stdout } = await cli([
      'verify',
      write('payout.json', tampered),
      '--public-key',
      OPERATOR_KEY,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL {3}round\.5\.player\.player-2\.payout +payout: expected \d+, recorded \d+$/m,
    );
    expect(stdout).toMatch(
      /\nNOT VERIFIED: 2 of \d+ checks failed: round\.5\.player\.player-2\.payout, audit\.round\.5\.settlement\n$/,
    );
  });

  it('--receipt checks a kept round head against the chain', async () => {
    const head = bundle.heads.find((h) => h.statement.roundId === bundle.rounds[6]!.roundId)!;
    const ok = await cli([
      'verify',
      BUNDLE,
      '--public-key',
      OPERATOR_KEY,
      '--receipt',
      write('head.json', head),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^PASS {3}receipt\.1 /m);
    const other = structuredClone(head);
    other.statement.head = bundle.audit.events[3]!.hash;
    const bad = await cli([
      'verify',
      BUNDLE,
      '--public-key',
      OPERATOR_KEY,
      '--receipt',
      write('bad.json', other),
      '--json',
    ]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).failed).toEqual(['receipt.1']);
  });

  it('reports a file that is not JSON as a failed format check', async () => {
    const { code, stdout } = await cli(['verify', write('junk.json', '{ nope')]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL {3}format {2}not JSON/m);
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['verify'])).code).toBe(2);
    const missing = await cli(['verify', join(dir, 'does-not-exist.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read bundle/);
    const badKey = await cli(['verify', BUNDLE, '--public-key', write('bad.pem', 'not a key')]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/--public-key/);
    expect((await cli(['verify', BUNDLE, '--trust-beacon', 'quicknet'])).code).toBe(2);
  });

  it('works through the installed bin, reading the bundle from stdin', async () => {
    const bin = fileURLToPath(new URL('../../../node_modules/.bin/baccarat', import.meta.url));
    const tampered = structuredClone(bundle);
    tampered.rounds[0]!.coup!.cards[0] = tampered.rounds[0]!.coup!.cards[0] === 'AS' ? 'KH' : 'AS';
    const child = promisify(execFile)(bin, ['verify', '-', '--public-key', OPERATOR_KEY], {
      encoding: 'utf8',
    });
    child.child.stdin!.end(JSON.stringify(tampered));
    const result = await child.then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {3}round\.1\.cards +card \d+ should be/m);
  });
});
