import { describe, expect, it } from 'vitest';
import { OID, toPem } from '../src/der';
import { makeCertificate, makeKeyPair } from '../src/local';
import { timeStampRequest } from '../src/request';
import { parseTimeStampResponse } from '../src/response';
import { verifyTimeStampToken } from '../src/verify';
import { AT, digestOf, failure, fixedClock, localTsa } from './helpers';

const imprint = digestOf(0x42);

describe('verifyTimeStampToken', () => {
  it('verifies a good token against the pinned certificate and gives its genTime, serial, policy and signer', async () => {
    const tsa = await localTsa('TSA A', { firstSerial: 41n });
    const token = await tsa.stamp(imprint);
    const verified = await verifyTimeStampToken(token, { imprint, trusted: [tsa.certificatePem()] });
    expect(verified).toMatchObject({
      genTime: AT.toISOString(),
      accuracyMs: 1,
      serialNumber: '41',
      policy: '1.3.6.1.4.1.99999.3161.1',
      tsa: { subject: 'CN=TSA A' },
    });
    expect(verified.tsa.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // DER pins work as PEM ones do; the next token takes the next serial.
    const next = await verifyTimeStampToken(await tsa.stamp(imprint), {
      imprint,
      trusted: [tsa.certificateDer()],
    });
    expect(next.serialNumber).toBe('42');
  });

  it('refuses a token over another digest: IMPRINT_MISMATCH', async () => {
    const tsa = await localTsa('TSA A');
    const token = await tsa.stamp(digestOf(0x43));
    expect(
      (await failure(verifyTimeStampToken(token, { imprint, trusted: [tsa.certificatePem()] }))).code,
    ).toBe('IMPRINT_MISMATCH');
  });

  it('refuses a token of a TSA the user did not pin, even though its certificate rides in the token: UNTRUSTED_TSA', async () => {
    const [a, b] = [await localTsa('TSA A'), await localTsa('TSA B')];
    const token = await a.stamp(imprint);
    const refused = await failure(verifyTimeStampToken(token, { imprint, trusted: [b.certificatePem()] }));
    expect(refused.code).toBe('UNTRUSTED_TSA');
    expect(refused.message).toContain('CN=TSA A');
    expect((await failure(verifyTimeStampToken(token, { imprint, trusted: [] }))).code).toBe('UNTRUSTED_TSA');
  });

  it('refuses a token of a look-alike TSA (same name and serial as the pinned one, its own key): UNTRUSTED_TSA', async () => {
    const [real, fake] = [await localTsa('TSA A'), await localTsa('TSA A')];
    const token = await fake.stamp(imprint);
    expect(
      (await failure(verifyTimeStampToken(token, { imprint, trusted: [real.certificatePem()] }))).code,
    ).toBe('UNTRUSTED_TSA');
  });

  it('refuses a token whose certificate is not in it and not pinned: UNTRUSTED_TSA', async () => {
    const [a, b] = [await localTsa('TSA A'), await localTsa('TSA B')];
    const reply = await a.respond(timeStampRequest(imprint, { certReq: false }));
    const token = parseTimeStampResponse(reply);
    expect(
      (await failure(verifyTimeStampToken(token, { imprint, trusted: [b.certificatePem()] }))).code,
    ).toBe('UNTRUSTED_TSA');
    // Without certReq the token carries no certificate; the pinned one is enough.
    await expect(
      verifyTimeStampToken(token, { imprint, trusted: [a.certificatePem()] }),
    ).resolves.toMatchObject({
      tsa: { subject: 'CN=TSA A' },
    });
  });

  it('refuses a token whose genTime was changed by one second: BAD_SIGNATURE', async () => {
    const tsa = await localTsa('TSA A');
    const token = await tsa.stamp(imprint);
    const text = new TextDecoder('latin1').decode(token);
    const at = text.indexOf('20260601120000.25Z');
    expect(at).toBeGreaterThan(0);
    const tampered = token.slice();
    tampered[at + 13] = '1'.charCodeAt(0); // …12:00:01.25Z, still a well-formed GeneralizedTime
    const refused = await failure(
      verifyTimeStampToken(tampered, { imprint, trusted: [tsa.certificatePem()] }),
    );
    expect(refused.code).toBe('BAD_SIGNATURE');
    // Back-dated before the certificate's validity: still the signature that fails, first.
    const backDated = token.slice();
    backDated[at + 2] = '1'.charCodeAt(0); // 2016-06-01
    const early = await failure(
      verifyTimeStampToken(backDated, { imprint, trusted: [tsa.certificatePem()] }),
    );
    expect(early.code).toBe('BAD_SIGNATURE');
  });

  it('refuses a token whose signature bytes were changed: BAD_SIGNATURE', async () => {
    const tsa = await localTsa('TSA A');
    const token = await tsa.stamp(imprint);
    const tampered = token.slice();
    tampered[tampered.length - 5] = tampered[tampered.length - 5]! ^ 0x01; // inside the ECDSA signature, the token's last field
    expect(
      (await failure(verifyTimeStampToken(tampered, { imprint, trusted: [tsa.certificatePem()] }))).code,
    ).toBe('BAD_SIGNATURE');
  });

  it.each([
    ['none', 'extended key usage extensions'],
    ['non-critical', 'not critical'],
  ] as const)(
    'refuses a certificate whose timeStamping usage is %s: NOT_A_TSA_CERTIFICATE',
    async (usage, reason) => {
      const tsa = await localTsa('TSA A', { certificate: { timeStampingUsage: usage } });
      const token = await tsa.stamp(imprint);
      const refused = await failure(
        verifyTimeStampToken(token, { imprint, trusted: [tsa.certificatePem()] }),
      );
      expect(refused.code).toBe('NOT_A_TSA_CERTIFICATE');
      expect(refused.message).toContain(reason);
    },
  );

  it('refuses a token whose signed attributes name another certificate, or none: SIGNING_CERTIFICATE_MISMATCH', async () => {
    const [a, b] = [await localTsa('TSA A'), await localTsa('TSA B')];
    const trusted = [a.certificatePem()];
    for (const signingCertificate of [b.certificateDer(), 'none' as const]) {
      const token = await a.issue({
        hashAlgorithm: OID.sha256,
        hashedMessage: imprint,
        certReq: true,
        signingCertificate,
      });
      expect((await failure(verifyTimeStampToken(token, { imprint, trusted }))).code).toBe(
        'SIGNING_CERTIFICATE_MISMATCH',
      );
    }
  });

  it('refuses a digest made with another hash than SHA-256: WRONG_HASH_ALGORITHM', async () => {
    const tsa = await localTsa('TSA A');
    const token = await tsa.issue({
      hashAlgorithm: OID.sha384,
      hashedMessage: new Uint8Array(48),
      certReq: true,
    });
    expect(
      (await failure(verifyTimeStampToken(token, { imprint, trusted: [tsa.certificatePem()] }))).code,
    ).toBe('WRONG_HASH_ALGORITHM');
  });

  it('refuses what is not a token: NOT_A_TOKEN', async () => {
    const tsa = await localTsa('TSA A');
    const reply = await tsa.respond(timeStampRequest(imprint));
    for (const bytes of [new Uint8Array(0), new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]), reply]) {
      expect(
        (await failure(verifyTimeStampToken(bytes, { imprint, trusted: [tsa.certificatePem()] }))).code,
      ).toBe('NOT_A_TOKEN');
    }
  });

  it('refuses a token whose nonce is not the one asked for: NONCE_MISMATCH', async () => {
    const tsa = await localTsa('TSA A');
    const token = parseTimeStampResponse(await tsa.respond(timeStampRequest(imprint, { nonce: 7n })));
    const trusted = [tsa.certificatePem()];
    await expect(verifyTimeStampToken(token, { imprint, trusted, nonce: 7n })).resolves.toBeDefined();
    expect((await failure(verifyTimeStampToken(token, { imprint, trusted, nonce: 8n }))).code).toBe(
      'NONCE_MISMATCH',
    );
  });

  it('refuses a token made outside its certificate validity: CERTIFICATE_NOT_VALID_AT_GENTIME', async () => {
    const tsa = await localTsa('TSA A', { clock: fixedClock(new Date('2019-12-31T23:59:59Z')) });
    const token = await tsa.stamp(imprint);
    expect(
      (await failure(verifyTimeStampToken(token, { imprint, trusted: [tsa.certificatePem()] }))).code,
    ).toBe('CERTIFICATE_NOT_VALID_AT_GENTIME');
  });

  describe('a TSA certified by a CA the user pins', () => {
    const validity = {
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2049-12-31T00:00:00Z'),
    };
    async function ca(name: string) {
      const keys = await makeKeyPair();
      const certificate = await makeCertificate(keys, { name, ca: true, ...validity });
      return { certificate, privateKey: keys.privateKey };
    }

    it('verifies through the chain the token carries, and refuses it under another CA', async () => {
      const [root, other] = [await ca('Root CA'), await ca('Other CA')];
      const tsa = await localTsa('TSA C', { certificate: { issuer: root, serial: 2n } });
      const token = await tsa.stamp(imprint);
      const rootPem = toPem(new Uint8Array(root.certificate.toSchema(true).toBER()));
      await expect(verifyTimeStampToken(token, { imprint, trusted: [rootPem] })).resolves.toMatchObject({
        tsa: { subject: 'CN=TSA C' },
      });
      const otherDer = new Uint8Array(other.certificate.toSchema(true).toBER());
      expect((await failure(verifyTimeStampToken(token, { imprint, trusted: [otherDer] }))).code).toBe(
        'UNTRUSTED_TSA',
      );
    });

    it('refuses a TSA whose certificate a pinned TSA (not a CA) issued with its own key: UNTRUSTED_TSA', async () => {
      const keys = await makeKeyPair();
      const leaf = await makeCertificate(keys, { name: 'TSA A', ...validity });
      const sub = await localTsa('TSA A minted', {
        certificate: { issuer: { certificate: leaf, privateKey: keys.privateKey }, serial: 9n },
      });
      const token = await sub.stamp(imprint);
      const leafDer = new Uint8Array(leaf.toSchema(true).toBER());
      expect((await failure(verifyTimeStampToken(token, { imprint, trusted: [leafDer] }))).code).toBe(
        'UNTRUSTED_TSA',
      );
    });

    it('refuses a certificate the pinned CA issued without the timeStamping usage: NOT_A_TSA_CERTIFICATE', async () => {
      const root = await ca('Root CA');
      const tsa = await localTsa('Mail signer', {
        certificate: { issuer: root, serial: 3n, timeStampingUsage: 'none' },
      });
      const token = await tsa.stamp(imprint);
      const rootDer = new Uint8Array(root.certificate.toSchema(true).toBER());
      expect((await failure(verifyTimeStampToken(token, { imprint, trusted: [rootDer] }))).code).toBe(
        'NOT_A_TSA_CERTIFICATE',
      );
    });
  });
});
