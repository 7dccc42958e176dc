/**
 * Runs the offline check docs/time-stamps.md gives, with OpenSSL, an implementation that shares
 * nothing with ours. Skipped where openssl is not installed (CI's image has it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certificateDer, fromHex, toHex, toPem } from '../src/der';
import { makeCertificate, makeKeyPair } from '../src/local';
import { timeStampRequest } from '../src/request';
import { verifyTimeStampToken } from '../src/verify';
import { FIXTURE } from './fixture-data';
import { digestOf, localTsa } from './helpers';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const fixtures = new URL('./fixtures/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'pyb-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `openssl ts -verify …`: exit status and what it printed. */
function verify(...args: string[]): { ok: boolean; output: string } {
  const run = spawnSync('openssl', ['ts', '-verify', ...args], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

describe.runIf(hasOpenssl)('openssl ts -verify, as docs/time-stamps.md gives it', () => {
  it('verifies the recorded reply and the recorded token against the pinned certificate', () => {
    const reply = verify(
      '-digest',
      FIXTURE.imprint,
      '-in',
      join(fixtures, 'token.tsr'),
      '-CAfile',
      join(fixtures, 'tsa.pem'),
    );
    expect(reply).toMatchObject({ ok: true, output: expect.stringContaining('Verification: OK') });
    const token = verify(
      '-digest',
      FIXTURE.imprint,
      '-token_in',
      '-in',
      join(fixtures, 'token.der'),
      '-CAfile',
      join(fixtures, 'tsa.pem'),
    );
    expect(token).toMatchObject({ ok: true, output: expect.stringContaining('Verification: OK') });
  });

  it('prints the pinned certificate fingerprint the verifier reports', async () => {
    const out = execFileSync(
      'openssl',
      ['x509', '-in', join(fixtures, 'tsa.pem'), '-noout', '-fingerprint', '-sha256'],
      {
        encoding: 'utf8',
      },
    );
    const pem = readFileSync(join(fixtures, 'tsa.pem'), 'utf8');
    const verified = await verifyTimeStampToken(new Uint8Array(readFileSync(join(fixtures, 'token.der'))), {
      imprint: fromHex(FIXTURE.imprint),
      trusted: [pem],
    });
    expect(out.trim().split('=')[1]!.replaceAll(':', '').toLowerCase()).toBe(verified.tsa.fingerprint);
  });

  it('refuses the recorded token for another digest, and under another TSA’s certificate', async () => {
    const other = `${FIXTURE.imprint.slice(0, -1)}${FIXTURE.imprint.endsWith('0') ? '1' : '0'}`;
    expect(
      verify('-digest', other, '-in', join(fixtures, 'token.tsr'), '-CAfile', join(fixtures, 'tsa.pem')).ok,
    ).toBe(false);
    const stranger = await localTsa('stranger');
    writeFileSync(join(dir, 'stranger.pem'), stranger.certificatePem());
    expect(
      verify(
        '-digest',
        FIXTURE.imprint,
        '-in',
        join(fixtures, 'token.tsr'),
        '-CAfile',
        join(dir, 'stranger.pem'),
      ).ok,
    ).toBe(false);
  });

  it('verifies a fresh reply of a TSA certified by a CA, with the CA as -CAfile', async () => {
    const keys = await makeKeyPair();
    const validity = {
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2049-12-31T00:00:00Z'),
    };
    const ca = {
      certificate: await makeCertificate(keys, { name: 'pyb test CA', ca: true, ...validity }),
      privateKey: keys.privateKey,
    };
    const tsa = await localTsa('pyb TSA under CA', { certificate: { issuer: ca, serial: 2n } });
    const imprint = digestOf(0x3c);
    writeFileSync(join(dir, 'ca.pem'), toPem(certificateDer(ca.certificate)));
    writeFileSync(join(dir, 'reply.tsr'), await tsa.respond(timeStampRequest(imprint, { nonce: 99n })));
    const result = verify(
      '-digest',
      toHex(imprint),
      '-in',
      join(dir, 'reply.tsr'),
      '-CAfile',
      join(dir, 'ca.pem'),
    );
    expect(result).toMatchObject({ ok: true, output: expect.stringContaining('Verification: OK') });
    // And OpenSSL reads the time and serial we wrote.
    const text = execFileSync('openssl', ['ts', '-reply', '-in', join(dir, 'reply.tsr'), '-text'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(text).toContain('Time stamp: Jun  1 12:00:00.25 2026 GMT');
    expect(text).toContain('Nonce: 0x63');
  });
});
