/**
 * GET /v1/signing-key over HTTP through the local server (the handlers the Lambdas run): the key that
 * signs now, and with `?keyId=` the key a statement names, also after a rotation retired it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalKeyService } from '@pyb/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './support/http';

let api: Client;
let keys: LocalKeyService;
let stop: () => Promise<void>;

beforeAll(async () => {
  // Quiet unless asked; read when the logger loads.
  process.env.LOG_LEVEL ??= 'SILENT';
  const dir = mkdtempSync(join(tmpdir(), 'pyb-e2e-signing-'));
  const { buildContext } = await import('@pyb/functions/context');
  const { startLocalServer } = await import('@pyb/functions/local-server');
  // The route is public and reads no table: the context's key service is all it touches.
  const context = buildContext({ TABLE_PREFIX: 'unused' });
  keys = new LocalKeyService({ dir, env: {} });
  context.keys = keys;
  const server = await startLocalServer({ port: 0, context });
  api = client(server.url);
  stop = async () => {
    await server.close();
    context.doc.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await stop?.();
});

describe('GET /v1/signing-key', () => {
  it('serves the current key, and every earlier one by the id statements name', async () => {
    const first = await api.get('/v1/signing-key');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ algorithm: 'ECDSA_SHA_256', curve: 'P-256' });
    expect(first.body.keyId).toMatch(/^local:[0-9a-f]{32}$/);

    const rotated = keys.rotateSigningKey();
    const now = await api.get('/v1/signing-key');
    expect(now.body.keyId).toBe(rotated.keyId);
    expect(now.body.pem).toBe(rotated.pem);

    const old = await api.get(`/v1/signing-key?keyId=${encodeURIComponent(first.body.keyId)}`);
    expect(old.status).toBe(200);
    expect(old.body).toEqual(first.body);
    const current = await api.get(`/v1/signing-key?keyId=${encodeURIComponent(rotated.keyId)}`);
    expect(current.body).toEqual(now.body);
  });

  it('answers 404 SIGNING_KEY_NOT_FOUND for a key it does not know, 400 for a malformed id', async () => {
    const unknown = await api.get('/v1/signing-key?keyId=local:0123456789abcdef0123456789abcdef');
    expect([unknown.status, unknown.contentType, unknown.body.code]).toEqual([
      404,
      'application/problem+json',
      'SIGNING_KEY_NOT_FOUND',
    ]);
    expect(unknown.body.detail).toBe('no signing key local:0123456789abcdef0123456789abcdef');
    for (const query of ['keyId=has%20spaces', 'keyId=', `keyId=${'a'.repeat(513)}`, 'other=1']) {
      const bad = await api.get(`/v1/signing-key?${query}`);
      expect([query, bad.status, bad.body.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
  });
});
