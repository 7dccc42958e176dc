/**
 * The player-token key on KMS: the exact Sign and GetPublicKey requests, KMS's DER signature turned
 * into the raw r||s of a JWS, and a token it signs verified by the core (jose) with the public key KMS
 * gives; the local key likewise.
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { signPlayerToken, verifyPlayerToken } from '@pyb/core';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { derToJose, KmsTokenSigner, LocalTokenSigner } from '../src/index';

const kms = mockClient(KMSClient);
beforeEach(() => kms.reset());
// The fast tier shares one module graph (vitest.config.ts): the class goes back unmocked.
afterAll(() => kms.restore());

const KEY = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const spki = new Uint8Array(pair.publicKey.export({ format: 'der', type: 'spki' }));
const at = new Date('2026-03-01T10:00:00.000Z');
const claims = {
  operatorId: 'op-a',
  scope: { playerId: 'p-1', sessionId: 'sess-1', tableId: 't-1' },
  now: at,
  expiresAt: new Date(at.getTime() + 300_000),
};

describe('KmsTokenSigner', () => {
  it('signs with Sign (RAW, ECDSA_SHA_256) and verifies with the key GetPublicKey gives, read once', async () => {
    kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => ({
      KeyId: KEY,
      // What KMS answers: a DER ECDSA-Sig-Value.
      Signature: new Uint8Array(sign('sha256', input.Message, pair.privateKey)),
    }));
    kms.on(GetPublicKeyCommand).resolves({
      KeyId: KEY,
      PublicKey: spki,
      KeySpec: 'ECC_NIST_P256',
      SigningAlgorithms: ['ECDSA_SHA_256'],
    });
    const signer = new KmsTokenSigner({ keyId: KEY, client: new KMSClient({ region: 'eu-west-1' }) });
    const token = await signPlayerToken(signer, claims);
    const [header, payload] = token.split('.') as [string, string];
    expect(kms.commandCalls(SignCommand).map((c) => c.args[0].input)).toEqual([
      {
        KeyId: KEY,
        Message: new TextEncoder().encode(`${header}.${payload}`),
        MessageType: 'RAW',
        SigningAlgorithm: 'ECDSA_SHA_256',
      },
    ]);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'ES256',
      typ: 'JWT',
      kid: KEY,
    });
    const clock = { now: () => at };
    const verified = await verifyPlayerToken(signer, clock, token);
    expect(verified.scope).toEqual(claims.scope);
    await verifyPlayerToken(signer, clock, token);
    expect(kms.commandCalls(GetPublicKeyCommand).map((c) => c.args[0].input)).toEqual([{ KeyId: KEY }]);
  });

  it('refuses a key that is not an ECC_NIST_P256 signing key, and asks again next time', async () => {
    kms.on(GetPublicKeyCommand).resolvesOnce({ KeyId: KEY, PublicKey: spki, KeySpec: 'RSA_2048' });
    const signer = new KmsTokenSigner({ keyId: KEY, client: new KMSClient({ region: 'eu-west-1' }) });
    await expect(signer.verifyingKey(KEY)).rejects.toThrow(/ECC_NIST_P256/);
    kms.on(GetPublicKeyCommand).resolves({
      KeyId: KEY,
      PublicKey: spki,
      KeySpec: 'ECC_NIST_P256',
      SigningAlgorithms: ['ECDSA_SHA_256'],
    });
    expect(await signer.verifyingKey(KEY)).toBeDefined();
    expect(await signer.verifyingKey('another-key')).toBeUndefined();
  });
});

describe('derToJose', () => {
  it('gives the IEEE P1363 form Node makes itself, for many signatures (leading zeros, short integers)', () => {
    for (let i = 0; i < 200; i++) {
      const message = Buffer.from(`message ${i}`);
      const der = sign('sha256', message, pair.privateKey);
      const raw = derToJose(der);
      expect(raw).toHaveLength(64);
      // Both forms verify the same (r, s): Node checks the raw one.
      expect(verify('sha256', message, { key: pair.publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
    }
  });
});

describe('LocalTokenSigner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-token-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps one key in the folder: a second signer verifies what the first signed', async () => {
    const first = new LocalTokenSigner({ dir, env: {} });
    const second = new LocalTokenSigner({ dir, env: {} });
    expect(second.keyId).toBe(first.keyId);
    const token = await signPlayerToken(first, claims);
    expect((await verifyPlayerToken(second, { now: () => at }, token)).operatorId).toBe('op-a');
  });

  it('refuses to run in production', () => {
    expect(() => new LocalTokenSigner({ dir, env: { NODE_ENV: 'production' } })).toThrow(/development only/);
  });
});
