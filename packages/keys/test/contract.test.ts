/**
 * The KeyService port contract, run against both adapters: the KMS adapter (through a mocked client
 * that answers with real cryptography, see fake-kms.ts) and the local Node-crypto adapter.
 */
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyService } from '@pyb/core';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyServiceError, KmsKeyService, LocalKeyService } from '../src/index';
import { fakeKms, SEAL_ALIAS, SIGN_ALIAS } from './fake-kms';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Each adapter, and how its signing key is rotated: `rotate()` makes a new key current and returns
 * the service that signs with it (for KMS, a new instance, as a deploy starts new functions).
 */
interface Rotatable {
  keys: KeyService;
  rotate(): KeyService;
}

const adapters: [string, () => Rotatable][] = [
  [
    'KmsKeyService',
    () => {
      const kms = fakeKms();
      const make = () =>
        new KmsKeyService({ sealKeyId: SEAL_ALIAS, signKeyId: SIGN_ALIAS, client: kms.client });
      return {
        keys: make(),
        rotate: () => {
          kms.rotate();
          return make();
        },
      };
    },
  ],
  [
    'LocalKeyService',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'pyb-keys-'));
      dirs.push(dir);
      const keys = new LocalKeyService({ dir, env: {} });
      return {
        keys,
        rotate: () => {
          keys.rotateSigningKey();
          return keys;
        },
      };
    },
  ],
];

const ctx = { shoeId: 'shoe-1', operatorId: 'op-1' };

const rejectsWith = async (promise: Promise<unknown>, code: string) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyServiceError);
  expect((error as KeyServiceError).code).toBe(code);
};

describe.each(adapters)('%s honours the KeyService port', (_name, rotatable) => {
  const make = () => rotatable().keys;
  it('generates 32 fresh random bytes each time', async () => {
    const keys = make();
    const a = await keys.generateSeed();
    const b = await keys.generateSeed();
    expect(a).toBeInstanceOf(Uint8Array);
    expect(a.length).toBe(32);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it('seals a seed so that only the same context opens it', async () => {
    const keys = make();
    const seed = await keys.generateSeed();
    const sealed = await keys.sealSeed(seed, ctx);
    expect(Buffer.from(sealed).includes(Buffer.from(seed))).toBe(false);
    expect(Buffer.from(await keys.unsealSeed(sealed, { ...ctx })).equals(Buffer.from(seed))).toBe(true);
    await rejectsWith(keys.unsealSeed(sealed, { ...ctx, shoeId: 'shoe-2' }), 'SEALED_SEED_INVALID');
    await rejectsWith(keys.unsealSeed(sealed, { ...ctx, operatorId: 'op-2' }), 'SEALED_SEED_INVALID');
  });

  it('refuses a sealed seed that was altered', async () => {
    const keys = make();
    const sealed = await keys.sealSeed(await keys.generateSeed(), ctx);
    const tampered = sealed.slice();
    tampered[tampered.length - 20]! ^= 0x01;
    await rejectsWith(keys.unsealSeed(tampered, ctx), 'SEALED_SEED_INVALID');
  });

  it('seals the same seed differently each time (no ciphertext equality leaks)', async () => {
    const keys = make();
    const seed = await keys.generateSeed();
    const a = await keys.sealSeed(seed, ctx);
    const b = await keys.sealSeed(seed, ctx);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it('signs with ECDSA P-256 over SHA-256, DER-encoded, verifiable with its public key', async () => {
    const keys = make();
    const message = new TextEncoder().encode('{"commitment":"ab","shoeId":"shoe-1"}');
    const { signature, keyId } = await keys.sign(message);
    const pub = await keys.publicKey();
    expect(keyId).toBe(pub.keyId);
    expect(signature[0]).toBe(0x30); // DER SEQUENCE
    const key = createPublicKey({ key: Buffer.from(pub.spki), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(
      createPublicKey(pub.pem).export({ format: 'der', type: 'spki' }).equals(Buffer.from(pub.spki)),
    ).toBe(true);
    expect(verify('sha256', message, { key, dsaEncoding: 'der' }, signature)).toBe(true);
    const other = new TextEncoder().encode('{"commitment":"ac","shoeId":"shoe-1"}');
    expect(verify('sha256', other, { key, dsaEncoding: 'der' }, signature)).toBe(false);
  });

  it('keeps one public key', async () => {
    const keys = make();
    const a = await keys.publicKey();
    const b = await keys.publicKey();
    expect(Buffer.from(a.spki).equals(Buffer.from(b.spki))).toBe(true);
    expect(a.keyId).toBe(b.keyId);
    const byId = await keys.publicKey(a.keyId);
    expect([byId.keyId, Buffer.from(byId.spki).equals(Buffer.from(a.spki))]).toEqual([a.keyId, true]);
  });

  it('after a rotation signs with a new key and still answers for the old one by its id', async () => {
    const { keys, rotate } = rotatable();
    const message = new TextEncoder().encode('{"commitment":"ab","shoeId":"shoe-1"}');
    const before = await keys.sign(message);
    const rotated = rotate();
    const after = await rotated.sign(message);
    expect(after.keyId).not.toBe(before.keyId);
    expect((await rotated.publicKey()).keyId).toBe(after.keyId);

    const verifies = async (keyId: string, signature: Uint8Array) => {
      const { spki, keyId: answered } = await rotated.publicKey(keyId);
      expect(answered).toBe(keyId);
      const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
      return verify('sha256', message, { key, dsaEncoding: 'der' }, signature);
    };
    expect(await verifies(before.keyId, before.signature)).toBe(true);
    expect(await verifies(after.keyId, after.signature)).toBe(true);
    // Each key answers for its own signatures only.
    expect(await verifies(before.keyId, after.signature)).toBe(false);
    expect(await verifies(after.keyId, before.signature)).toBe(false);
  });

  it('refuses a key id it does not know as SIGNING_KEY_UNKNOWN', async () => {
    const keys = make();
    await rejectsWith(keys.publicKey('local:00000000000000000000000000000000'), 'SIGNING_KEY_UNKNOWN');
    await rejectsWith(
      keys.publicKey('arn:aws:kms:eu-west-1:111122223333:key/00000000-0000-0000-0000-000000000000'),
      'SIGNING_KEY_UNKNOWN',
    );
    // Unknown ids are not remembered as known: the current key still answers.
    expect((await keys.publicKey()).keyId).toBe((await keys.sign(new Uint8Array(1))).keyId);
  });
});
