/** API-key authentication on DynamoDB Local: keys stored hashed, unknown/revoked keys refused. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  AuthenticationError,
  authenticate,
  authorize,
  DomainError,
  hashApiKey,
  issueApiKey,
} from '@pyb/core';
import { DynamoPrincipalStore, tableNames } from '@pyb/store-dynamodb';
import { createTables, localClientConfig } from '@pyb/store-dynamodb/local';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const client = new DynamoDBClient(localClientConfig(inject('dynamodbEndpoint')));
const doc = DynamoDBDocumentClient.from(client);
const names = tableNames(`auth-${process.pid}-${Date.now()}`);
const store = new DynamoPrincipalStore(doc, names.principals);
const clock = { now: () => new Date('2025-01-01T00:00:00Z') };

beforeAll(() => createTables(client, names, ['principals']));
afterAll(() => client.destroy());

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (e: unknown) => (e instanceof AuthenticationError || e instanceof DomainError ? e.code : String(e)),
  );

describe('API keys', () => {
  it('authenticates a key to its operator and role, and stores only its hash', async () => {
    const { key, principal } = await issueApiKey(store, clock, { operatorId: 'acme', role: 'operator' });
    expect(await authenticate(store, `Bearer ${key}`)).toEqual({
      operatorId: 'acme',
      role: 'operator',
      supervises: [],
      keyId: principal.keyId,
    });
    expect(principal.keyHash).toBe(await hashApiKey(key));
    const { Items = [] } = await doc.send(new ScanCommand({ TableName: names.principals }));
    expect(JSON.stringify(Items)).not.toContain(key);
    expect(JSON.stringify(Items)).not.toContain(key.slice(4, 20));
  });

  it('gives regulators the operators they supervise', async () => {
    const { key, principal } = await issueApiKey(store, clock, {
      operatorId: 'dgoj',
      role: 'regulator',
      supervises: ['acme', 'beta'],
    });
    expect(await authenticate(store, `bearer ${key}`)).toEqual({
      operatorId: 'dgoj',
      role: 'regulator',
      supervises: ['acme', 'beta'],
      keyId: principal.keyId,
    });
  });

  it('marks platform-admin keys (admin keys only): they alone set wallet modes', async () => {
    const { key } = await issueApiKey(store, clock, {
      operatorId: 'platform',
      role: 'admin',
      platform: true,
    });
    expect(await authenticate(store, `Bearer ${key}`)).toMatchObject({ role: 'admin', platform: true });
    const { key: plain } = await issueApiKey(store, clock, { operatorId: 'acme', role: 'admin' });
    expect(await authenticate(store, `Bearer ${plain}`)).not.toHaveProperty('platform');
    expect(
      await code(issueApiKey(store, clock, { operatorId: 'acme', role: 'operator', platform: true })),
    ).toBe('INVALID_INPUT');
  });

  it('refuses no key, a malformed header, an unknown key and a revoked key', async () => {
    const { key, principal } = await issueApiKey(store, clock, { operatorId: 'acme', role: 'admin' });
    const forged = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    expect(await code(authenticate(store, undefined))).toBe('API_KEY_MISSING');
    expect(await code(authenticate(store, ''))).toBe('API_KEY_MISSING');
    expect(await code(authenticate(store, key))).toBe('API_KEY_INVALID');
    expect(await code(authenticate(store, `Basic ${key}`))).toBe('API_KEY_INVALID');
    expect(await code(authenticate(store, `Bearer ${forged}`))).toBe('API_KEY_INVALID');
    expect(await code(authenticate(store, 'Bearer pyb_short'))).toBe('API_KEY_INVALID');
    expect(await code(authenticate(store, `Bearer ${key}`))).toBe('accepted');
    await store.revokePrincipal(principal.keyHash, clock.now().toISOString());
    expect(await code(authenticate(store, `Bearer ${key}`))).toBe('API_KEY_INVALID');
  });

  it('gates routes by role with a 403 code', () => {
    const actor = { operatorId: 'acme', role: 'regulator' as const, supervises: ['acme'] };
    expect(() => authorize(actor, ['operator', 'admin'])).toThrow(
      expect.objectContaining({ code: 'ROLE_NOT_ALLOWED' }),
    );
    expect(() => authorize(actor, ['regulator'])).not.toThrow();
  });

  it('refuses operator ids that would break key scoping', async () => {
    expect(await code(issueApiKey(store, clock, { operatorId: 'a#b', role: 'operator' }))).toBe(
      'OPERATOR_ID_INVALID',
    );
  });
});
