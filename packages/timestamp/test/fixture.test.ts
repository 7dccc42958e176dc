import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromHex } from '../src/der';
import { parseTimeStampResponse } from '../src/response';
import { verifyTimeStampToken } from '../src/verify';
import { FIXTURE } from './fixture-data';
import { failure } from './helpers';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const pem = readFileSync(new URL('./fixtures/tsa.pem', import.meta.url), 'utf8');
const imprint = fromHex(FIXTURE.imprint);

/** The recorded token (make-fixture.ts): a change to the verifier that stops accepting it fails here. */
describe('the recorded token', () => {
  it('keeps verifying against its recorded certificate, with its recorded time, serial and signer', async () => {
    const token = fixture('token.der');
    expect(parseTimeStampResponse(fixture('token.tsr'))).toEqual(token);
    await expect(
      verifyTimeStampToken(token, { imprint, trusted: [pem], nonce: BigInt(FIXTURE.nonce) }),
    ).resolves.toEqual({
      genTime: FIXTURE.genTime,
      accuracyMs: 1,
      serialNumber: FIXTURE.serialNumber,
      policy: '1.3.6.1.4.1.99999.3161.1',
      tsa: {
        subject: 'CN=pyb fixture TSA',
        // `openssl x509 -in tsa.pem -noout -fingerprint -sha256`
        fingerprint: 'fd8fef3a67d06cc2e5fcbeec63fb7bfc1cb69ee392bf2775d5b9e7c0ed2c7111',
      },
    });
  });

  it('is refused for any other digest', async () => {
    const other = imprint.slice();
    other[0] = other[0]! ^ 1;
    expect(
      (await failure(verifyTimeStampToken(fixture('token.der'), { imprint: other, trusted: [pem] }))).code,
    ).toBe('IMPRINT_MISMATCH');
  });
});
