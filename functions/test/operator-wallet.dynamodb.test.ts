/**
 * The operator wallet-mode handlers on DynamoDB Local, invoked as Lambda invokes them: a platform-admin
 * key switches a mode (an operator's own admin key is refused, problem+json), the body is checked by
 * the contract, a retry with the same Idempotency-Key replays, the GET never shows a secret; and every
 * use-case context of the container sees the switch at once, while another container's cache may lag
 * by up to OPERATOR_TTL_MS (60 s).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { issueApiKey, type KeyService } from '@pyb/core';
import { OPERATOR_TTL_MS, operatorOf } from '@pyb/core/use-cases';
import { createTables, localClientConfig, tableNames } from '@pyb/store-dynamodb/local';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppContext, buildContext, setAppContext, useCases } from '../src/context';
import type { HttpEvent } from '../src/http';

vi.hoisted(() => {
  process.env.LOG_LEVEL ??= 'SILENT';
});
const { handler: setWallet } = await import('../set-operator-wallet/handler');
const { handler: getWallet } = await import('../get-operator-wallet/handler');

const endpoint = inject('dynamodbEndpoint');
const client = new DynamoDBClient(localClientConfig(endpoint));
const prefix = `opwallet-${process.pid}-${Date.now()}`;
const ENV = { TABLE_PREFIX: prefix, DYNAMODB_ENDPOINT: endpoint };
const lambda = { awsRequestId: 'req', functionName: 'pyb-test-set-operator-wallet' } as Context;
const OP = 'casino-b';
const SEAMLESS = { baseUrl: 'https://wallet.casino-b.example/pyb', secretRef: `pyb-prod/seamless/${OP}` };
let context: AppContext;
const keys = { platform: '', admin: '', regulator: '' };

beforeAll(async () => {
  await createTables(client, tableNames(prefix));
  context = buildContext(ENV);
  setAppContext(context);
  const issue = async (operatorId: string, role: 'admin' | 'regulator', platform = false) =>
    (await issueApiKey(context.principals, context.clock, { operatorId, role, platform })).key;
  keys.platform = await issue('platform', 'admin', true);
  keys.admin = await issue(OP, 'admin');
  keys.regulator = await issue(OP, 'regulator');
});
afterAll(() => {
  setAppContext(undefined);
  context?.doc.destroy();
  client.destroy();
});

const event = (method: 'GET' | 'POST', key: string, body?: unknown, idempotencyKey = 'switch-1'): HttpEvent =>
  ({
    version: '2.0',
    routeKey: `${method} /v1/operators/{operatorId}/wallet`,
    rawPath: `/v1/operators/${OP}/wallet`,
    rawQueryString: '',
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === 'POST' && { 'content-type': 'application/json', 'idempotency-key': idempotencyKey }),
    },
    pathParameters: { operatorId: OP },
    requestContext: { requestId: 'gw', http: { method, path: `/v1/operators/${OP}/wallet` } },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

const call = async (e: HttpEvent) => {
  const answer = await (e.requestContext.http.method === 'GET' ? getWallet : setWallet)(e, lambda);
  return { status: answer.statusCode, type: answer.headers['Content-Type'], body: JSON.parse(answer.body) };
};

// Two steps on one operator (the switch, then who sees it): run in this order even when the run is
// shuffled (PYB_TEST_SEQUENCE_SEED; docs/testing.md, "Order and load").
describe('POST and GET /v1/operators/{operatorId}/wallet', { shuffle: false }, () => {
  it('switches with a platform-admin key only, checks the body, and replays a retry', async () => {
    const refused = await call(event('POST', keys.admin, { walletMode: 'seamless', seamless: SEAMLESS }));
    expect([refused.status, refused.type, refused.body.code]).toEqual([
      403,
      'application/problem+json',
      'PLATFORM_ADMIN_REQUIRED',
    ]);
    const regulator = await call(event('POST', keys.regulator, { walletMode: 'hosted' }));
    expect([regulator.status, regulator.body.code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
    for (const [n, [body, code]] of (
      [
        [{ walletMode: 'seamless' }, 'VALIDATION_FAILED'],
        [{ walletMode: 'seamless', seamless: { ...SEAMLESS, secret: 'x' } }, 'VALIDATION_FAILED'],
        [{ walletMode: 'seamless', seamless: { ...SEAMLESS, secretRef: 'not a ref' } }, 'VALIDATION_FAILED'],
        [{ walletMode: 'hosted', seamless: SEAMLESS }, 'VALIDATION_FAILED'],
        [
          { walletMode: 'seamless', seamless: { ...SEAMLESS, baseUrl: 'http://wallet.casino-b.example' } },
          'SEAMLESS_CONFIG_INVALID',
        ],
      ] as const
    ).entries()) {
      const answer = await call(event('POST', keys.platform, body, `bad-${n}`));
      expect([answer.status, answer.body.code], JSON.stringify(body)).toEqual([400, code]);
    }
    const ok = await call(event('POST', keys.platform, { walletMode: 'seamless', seamless: SEAMLESS }));
    expect([ok.status, ok.body]).toMatchObject([
      200,
      {
        operatorId: OP,
        walletMode: 'seamless',
        seamless: SEAMLESS,
        changes: [{ seq: 0, by: { operatorId: 'platform' } }],
      },
    ]);
    const again = await call(event('POST', keys.platform, { walletMode: 'seamless', seamless: SEAMLESS }));
    expect(again.body).toEqual(ok.body);
    // The same key with another body is refused, not applied.
    const reused = await call(event('POST', keys.platform, { walletMode: 'hosted' }));
    expect([reused.status, reused.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // Read by the operator's keys: where the secret is, never a secret.
    const read = await call(event('GET', keys.regulator));
    expect([read.status, read.body]).toEqual([200, ok.body]);
    expect(Object.keys(read.body.seamless).sort()).toEqual(['baseUrl', 'secretRef']);
  });

  it('is seen at once by every use-case context of the container, by others within 60 s', async () => {
    const otherKeys = {} as KeyService;
    const other = useCases(context, otherKeys);
    // Another container that read the record before the switch.
    const elsewhere = useCases(buildContext(ENV));
    expect((await operatorOf(other, OP))?.walletMode).toBe('seamless');
    expect((await operatorOf(elsewhere, OP))?.walletMode).toBe('seamless');
    const hosted = await call(event('POST', keys.platform, { walletMode: 'hosted' }, 'switch-2'));
    expect([hosted.status, hosted.body.walletMode]).toEqual([200, 'hosted']);
    expect(Date.parse(hosted.body.effectiveBy) - Date.parse(hosted.body.updatedAt)).toBe(OPERATOR_TTL_MS);
    expect((await operatorOf(useCases(context), OP))?.walletMode).toBe('hosted');
    expect((await operatorOf(other, OP))?.walletMode).toBe('hosted');
    expect((await operatorOf(elsewhere, OP))?.walletMode).toBe('seamless');
    // Once its entry is stale it reads the record again.
    elsewhere.operators.set(OP, { ...elsewhere.operators.get(OP)!, until: 0 });
    expect((await operatorOf(elsewhere, OP))?.walletMode).toBe('hosted');
  });
});
