/**
 * GET /v1/signing-key over HTTP through the local server (the handlers the Lambdas run): the key that
 * signs now, and with `?keyId=` the key a statement names, also after a rotation retired it — each
 * with its certificate: generation, validity interval, signed by the generation before it; and every
 * generation's certificate, the chain a verifier pins.
 */
import { type SignedKeyCertificate, verifyKeyChain } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
});
afterAll(async () => {
  await stack?.stop();
});

/** Something signed with the current key: the first signature certifies it. */
async function openShoe(): Promise<void> {
  const admin = stack.a.admin;
  const table = await api.post('/v1/tables', { key: admin, body: { name: 'Keys', variant: 'mini' } });
  const shoe = await api.post(`/v1/tables/${table.body.tableId}/shoes`, { key: admin });
  expect(shoe.status).toBe(201);
}

describe('GET /v1/signing-key', () => {
  it('serves the current key with its certificate, and every earlier one with the interval it was valid in', async () => {
    const fresh = await api.get('/v1/signing-key');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({
      algorithm: 'ECDSA_SHA_256',
      curve: 'P-256',
      generation: null,
      certificate: null,
      certificates: [],
    });
    expect(fresh.body.keyId).toMatch(/^local:[0-9a-f]{32}$/);

    await openShoe();
    const first = await api.get('/v1/signing-key');
    expect(first.body).toMatchObject({ keyId: fresh.body.keyId, generation: 1, validUntil: null });
    expect(first.body.certificate.certificate).toMatchObject({
      generation: 1,
      previousKeyId: null,
      validFrom: first.body.validFrom,
    });

    const rotated = stack.signing.rotateSigningKey();
    await openShoe(); // the handover: generation 1 certifies generation 2
    const now = await api.get('/v1/signing-key');
    expect(now.body).toMatchObject({
      keyId: rotated.keyId,
      pem: rotated.pem,
      generation: 2,
      validUntil: null,
    });
    expect(now.body.certificate.certificate.previousKeyId).toBe(first.body.keyId);

    const old = await api.get(`/v1/signing-key?keyId=${encodeURIComponent(first.body.keyId)}`);
    expect(old.status).toBe(200);
    expect(old.body).toEqual({
      ...first.body,
      validUntil: now.body.validFrom,
      certificates: now.body.certificates,
    });
    const chain = await verifyKeyChain([
      old.body.certificate,
      now.body.certificate,
    ] as SignedKeyCertificate[]);
    expect(chain.ok).toBe(true);
    // Every answer lists every generation's certificate, oldest first: the chain a verifier pins
    // (`baccarat verify --key-certificates`).
    expect(now.body.certificates).toEqual([old.body.certificate, now.body.certificate]);
    expect(old.body.certificates).toEqual(now.body.certificates);
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
