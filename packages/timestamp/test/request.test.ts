import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../src/der';
import { timeStampRejection } from '../src/local';
import { parseTimeStampRequest, timeStampRequest } from '../src/request';
import { parseTimeStampResponse } from '../src/response';
import { failure } from './helpers';

const imprint = Uint8Array.from({ length: 32 }, (_, i) => i);
const IMPRINT_HEX = toHex(imprint);

/** The vector docs/time-stamps.md gives, byte for byte. */
const REQUEST_HEX =
  '3043' + // TimeStampReq SEQUENCE (67 bytes)
  '020101' + // version 1
  '3031' + // MessageImprint
  '300d0609608648016503040201' + // AlgorithmIdentifier: SHA-256 (2.16.840.1.101.3.4.2.1)
  '0500' + // NULL parameters
  `0420${IMPRINT_HEX}` + // hashedMessage
  '02080102030405060708' + // nonce
  '0101ff'; // certReq TRUE

function openssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('timeStampRequest', () => {
  it('builds the documented bytes: version 1, SHA-256 with NULL parameters, the imprint, the nonce, certReq', () => {
    const der = timeStampRequest(imprint, { nonce: 0x0102030405060708n, certReq: true });
    expect(toHex(der)).toBe(REQUEST_HEX);
    expect(parseTimeStampRequest(der)).toEqual({
      version: 1,
      hashAlgorithm: '2.16.840.1.101.3.4.2.1',
      hashName: 'SHA-256',
      imprint,
      nonce: 0x0102030405060708n,
      certReq: true,
      reqPolicy: undefined,
    });
  });

  it('omits certReq when false (DER leaves out a DEFAULT) and keeps a nonce with its top bit set positive', () => {
    expect(toHex(timeStampRequest(imprint, { certReq: false }))).toBe(
      REQUEST_HEX.replace('3043', '3036').slice(0, -26),
    );
    const der = timeStampRequest(imprint, { nonce: 0x80n });
    expect(toHex(der)).toContain('0202008001');
    expect(parseTimeStampRequest(der).nonce).toBe(0x80n);
  });

  it('refuses an imprint that is not 32 bytes', () => {
    expect(() => timeStampRequest(new Uint8Array(20))).toThrow('32 bytes');
  });

  it.runIf(openssl())('is the request `openssl ts -query` makes for the same digest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyb-tsq-'));
    try {
      const out = join(dir, 'request.tsq');
      execFileSync(
        'openssl',
        ['ts', '-query', '-digest', IMPRINT_HEX, '-sha256', '-cert', '-no_nonce', '-out', out],
        {
          stdio: 'ignore',
        },
      );
      expect(toHex(readFileSync(out))).toBe(toHex(timeStampRequest(imprint, { certReq: true })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parseTimeStampResponse', () => {
  it('names a rejection: TSA_REJECTED with the status, the failure and the TSA text', async () => {
    const refused = await failure(
      Promise.resolve().then(() =>
        parseTimeStampResponse(timeStampRejection('systemFailure', 'HSM offline')),
      ),
    );
    expect(refused.code).toBe('TSA_REJECTED');
    expect(refused.message).toContain('rejection (systemFailure): HSM offline');
    const badAlg = await failure(
      Promise.resolve().then(() => parseTimeStampResponse(timeStampRejection('badAlg', 'x'))),
    );
    expect(badAlg.message).toContain('(badAlg)');
  });

  it('refuses bytes that are no response: NOT_A_RESPONSE', async () => {
    for (const bytes of [new Uint8Array(0), fromHex('0500'), fromHex('3003020101ff')]) {
      expect((await failure(Promise.resolve().then(() => parseTimeStampResponse(bytes)))).code).toBe(
        'NOT_A_RESPONSE',
      );
    }
  });
});
