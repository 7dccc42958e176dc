import { verify } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createKeyService,
  KeyServiceError,
  KmsKeyService,
  keyServiceConfigFromEnv,
  LOCAL_KEYS_FAIL_FILE,
  LocalKeyService,
} from '../src/index';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-keys-'));
  dirs.push(dir);
  return join(dir, 'keys');
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const ctx = { shoeId: 's', operatorId: 'o' };

describe('LocalKeyService', () => {
  it.each([
    ['NODE_ENV=production', { env: { NODE_ENV: 'production' } }],
    ['stage prod', { stage: 'prod', env: {} }],
    ['inside a Lambda function', { env: { AWS_LAMBDA_FUNCTION_NAME: 'open-shoe' } }],
  ])('refuses to start %s', (_what, options) => {
    const start = () => new LocalKeyService({ dir: freshDir(), ...options });
    expect(start).toThrow(KeyServiceError);
    expect(start).toThrow(/development only/);
  });

  it('fails every call that uses a key while its fail file exists, not retryable (a lock-out on demand), and works again once it is gone', async () => {
    const dir = freshDir();
    const keys = new LocalKeyService({ dir, env: {} });
    const sealed = await keys.sealSeed(new Uint8Array(32).fill(3), ctx);
    writeFileSync(join(dir, LOCAL_KEYS_FAIL_FILE), '');
    const calls: [string, () => Promise<unknown>][] = [
      ['generateSeed', () => keys.generateSeed()],
      ['sealSeed', () => keys.sealSeed(new Uint8Array(32).fill(3), ctx)],
      ['unsealSeed', () => keys.unsealSeed(sealed, ctx)],
      ['sign', () => keys.sign(new Uint8Array([1]))],
    ];
    for (const [call, run] of calls) {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, call).toBeInstanceOf(KeyServiceError);
      expect(error, call).toMatchObject({ code: 'KEY_SERVICE_MISCONFIGURED', retryable: false });
      expect((error as Error).message, call).toContain(call);
    }
    // The published key still answers, as KMS GetPublicKey does without kms:Sign.
    expect((await keys.publicKey()).keyId).toMatch(/^local:/);
    rmSync(join(dir, LOCAL_KEYS_FAIL_FILE));
    expect(await keys.unsealSeed(sealed, ctx)).toEqual(new Uint8Array(32).fill(3));
    expect((await keys.sign(new Uint8Array([1]))).keyId).toMatch(/^local:/);
  });

  it('creates its keys once and finds them again on the next start', async () => {
    const dir = freshDir();
    const first = new LocalKeyService({ dir, env: {} });
    const sealed = await first.sealSeed(new Uint8Array(32).fill(3), ctx);
    const second = new LocalKeyService({ dir, env: {} });
    expect((await second.publicKey()).keyId).toBe((await first.publicKey()).keyId);
    expect(Array.from(await second.unsealSeed(sealed, ctx))).toEqual(new Array(32).fill(3));
    expect(statSync(join(dir, 'seal.key')).mode & 0o077).toBe(0);
    expect(statSync(join(dir, 'sign.pem')).mode & 0o077).toBe(0);
  });

  it('keeps every generation of its signing key on disk, and signs with the newest', async () => {
    const dir = freshDir();
    const keys = new LocalKeyService({ dir, env: {} });
    const first = await keys.publicKey();
    const second = keys.rotateSigningKey();
    const third = keys.rotateSigningKey();
    expect(new Set([first.keyId, second.keyId, third.keyId]).size).toBe(3);
    expect((await keys.sign(new Uint8Array(1))).keyId).toBe(third.keyId);
    for (const name of ['sign.pem', 'sign-2.pem', 'sign-3.pem']) {
      expect(statSync(join(dir, name)).mode & 0o077).toBe(0);
    }
    // A named generation still signs (the handover certifies the next with the previous).
    const old = await keys.sign(new Uint8Array(1), first.keyId);
    expect(old.keyId).toBe(first.keyId);
    expect(verify('sha256', new Uint8Array(1), { key: first.pem, dsaEncoding: 'der' }, old.signature)).toBe(
      true,
    );
    await expect(keys.sign(new Uint8Array(1), 'local:nope')).rejects.toMatchObject({
      code: 'SIGNING_KEY_UNKNOWN',
    });
    // The next start finds the newest as current and still answers for the first.
    const restarted = new LocalKeyService({ dir, env: {} });
    expect((await restarted.publicKey()).keyId).toBe(third.keyId);
    expect((await restarted.publicKey(first.keyId)).pem).toBe(first.pem);
  });

  it('answers for a key another process rotated to, but signs on with its own until restarted', async () => {
    const dir = freshDir();
    const running = new LocalKeyService({ dir, env: {} });
    const before = await running.publicKey();
    const rotated = new LocalKeyService({ dir, env: {} }).rotateSigningKey();
    expect((await running.publicKey(rotated.keyId)).pem).toBe(rotated.pem);
    expect((await running.sign(new Uint8Array(1))).keyId).toBe(before.keyId);
  });

  it('another data folder has other keys', async () => {
    const a = new LocalKeyService({ dir: freshDir(), env: {} });
    const b = new LocalKeyService({ dir: freshDir(), env: {} });
    expect((await a.publicKey()).keyId).not.toBe((await b.publicKey()).keyId);
    await expect(b.publicKey((await a.publicKey()).keyId)).rejects.toMatchObject({
      code: 'SIGNING_KEY_UNKNOWN',
    });
    const sealed = await a.sealSeed(new Uint8Array(32), ctx);
    await expect(b.unsealSeed(sealed, ctx)).rejects.toMatchObject({ code: 'SEALED_SEED_INVALID' });
  });
});

describe('createKeyService', () => {
  it('chooses KMS from the environment', () => {
    const env = { SEED_KEY_ID: 'alias/seeds', SIGNING_KEY_ID: 'alias/sign', AWS_REGION: 'eu-west-1' };
    expect(keyServiceConfigFromEnv(env)).toEqual({
      kind: 'kms',
      sealKeyId: 'alias/seeds',
      signKeyId: 'alias/sign',
      region: 'eu-west-1',
    });
    expect(createKeyService(keyServiceConfigFromEnv(env))).toBeInstanceOf(KmsKeyService);
  });

  it('chooses the local service when no KMS key is configured', () => {
    const dir = freshDir();
    const config = keyServiceConfigFromEnv({ LOCAL_KEYS_DIR: dir });
    expect(config).toMatchObject({ kind: 'local', dir });
    expect(createKeyService(config)).toBeInstanceOf(LocalKeyService);
  });

  it('never falls back to local keys in production', () => {
    const config = keyServiceConfigFromEnv({ NODE_ENV: 'production', LOCAL_KEYS_DIR: freshDir() });
    expect(() => createKeyService(config)).toThrow(/development only/);
  });

  it('explains a half-configured KMS or an unknown kind', () => {
    expect(() => keyServiceConfigFromEnv({ KEY_SERVICE: 'kms', SEED_KEY_ID: 'k' })).toThrow(/SIGNING_KEY_ID/);
    expect(() => keyServiceConfigFromEnv({ KEY_SERVICE: 'vault' })).toThrow(/kms or local/);
  });
});
