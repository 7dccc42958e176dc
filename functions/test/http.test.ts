/**
 * The handler factory's own behaviour, invoked the way Lambda invokes it (an API Gateway v2 event):
 * correlation ids, response validation, and what a failure shows (nothing from the inside).
 */
import { SigningKey } from '@pyb/contracts';
import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { useCases } from '../src/context';
import { type HttpEvent, httpHandler } from '../src/http';
import { getSigningKeyRoute } from '../src/routes';

// The logger reads its level when it loads: quiet before any import runs.
vi.hoisted(() => {
  process.env.LOG_LEVEL ??= 'SILENT';
});

const event = (headers: Record<string, string> = {}): HttpEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/signing-key',
    rawPath: '/v1/signing-key',
    rawQueryString: '',
    headers,
    requestContext: { requestId: 'gw-request-1', http: { method: 'GET', path: '/v1/signing-key' } },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;
const context = { awsRequestId: 'lambda-1', functionName: 'test' } as Context;

const GOOD = {
  keyId: 'k',
  algorithm: 'ECDSA_SHA_256',
  curve: 'P-256',
  pem: 'PEM',
  spki: 'AA==',
  generation: null,
  validFrom: null,
  validUntil: null,
  certificate: null,
  certificates: [] as never[],
  beacon: null,
  timeStampAuthorities: [] as never[],
} as const;
const contract = {
  summary: 't',
  description: 't',
  tag: 'Meta',
  problems: [],
  response: SigningKey,
  status: 200,
} as const;

describe('httpHandler', () => {
  it('answers the contract, echoing the caller’s request id (or API Gateway’s)', async () => {
    const handler = httpHandler(getSigningKeyRoute, contract, async () => GOOD);
    const mine = await handler(event({ 'X-Request-Id': 'req-42' }), context);
    expect([mine.statusCode, mine.headers['X-Request-Id'], JSON.parse(mine.body)]).toEqual([
      200,
      'req-42',
      GOOD,
    ]);
    const correlation = await handler(event({ 'x-correlation-id': 'corr-7' }), context);
    expect(correlation.headers['X-Request-Id']).toBe('corr-7');
    const gateway = await handler(event({ 'x-request-id': 'has spaces in it' }), context);
    expect(gateway.headers['X-Request-Id']).toBe('gw-request-1');
  });

  it('strips what the contract does not name from an answer', async () => {
    const handler = httpHandler(getSigningKeyRoute, contract, async () => ({
      ...GOOD,
      privateKey: 'secret',
    }));
    const answer = await handler(event(), context);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).not.toContain('secret');
  });

  it('turns an answer that breaks its contract into a 500 that says nothing inside', async () => {
    const handler = httpHandler(
      getSigningKeyRoute,
      contract,
      async () => ({ ...GOOD, curve: 'P-384' }) as never,
    );
    const answer = await handler(event({ 'x-request-id': 'req-bad' }), context);
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['Content-Type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'INTERNAL_ERROR',
      requestId: 'req-bad',
      status: 500,
    });
    expect(answer.body).not.toContain('P-384');
  });

  it('hides the message of an unexpected error', async () => {
    const handler = httpHandler(getSigningKeyRoute, contract, async () => {
      throw new Error('connection string postgres://user:pw@host');
    });
    const answer = await handler(event(), context);
    expect([answer.statusCode, JSON.parse(answer.body).code]).toEqual([500, 'INTERNAL_ERROR']);
    expect(answer.body).not.toContain('postgres');
  });
});

describe('problem statuses', () => {
  it('every kind of refusal maps to the status its codes are registered with (LOCKED: 423, UNAVAILABLE: 503 + Retry-After)', async () => {
    const { DomainError } = await import('@pyb/core');
    const { problemStatus } = await import('@pyb/contracts');
    const { classify } = await import('../src/problem');
    const locked = classify(new DomainError('LOCKED', 'TABLE_LOCKED', 'locked', { lock: { cause: 'X' } }));
    expect([locked.status, problemStatus('TABLE_LOCKED'), locked.headers]).toEqual([423, 423, undefined]);
    const busy = classify(
      new DomainError('UNAVAILABLE', 'KEY_SERVICE_UNAVAILABLE', 'busy', { retryAfterSeconds: 2 }),
    );
    expect([busy.status, problemStatus('KEY_SERVICE_UNAVAILABLE'), busy.headers]).toEqual([
      503,
      503,
      { 'Retry-After': '2' },
    ]);
  });

  it('contention is 409 CONCURRENT_UPDATE and a deadline (core’s, middy’s TimeoutError) 503 DEADLINE_EXCEEDED, both with Retry-After, never 500', async () => {
    const { deadlineExceeded, tooMuchContention } = await import('@pyb/core');
    const { classify } = await import('../src/problem');
    const timeout = Object.assign(new Error('[AbortError]: The operation was aborted.'), {
      name: 'TimeoutError',
    });
    expect(
      [tooMuchContention('changing the position'), deadlineExceeded(), timeout].map((error) => {
        const problem = classify(error);
        return [problem.status, problem.code, problem.headers];
      }),
    ).toEqual([
      [409, 'CONCURRENT_UPDATE', { 'Retry-After': '1' }],
      [503, 'DEADLINE_EXCEEDED', { 'Retry-After': '1' }],
      [503, 'DEADLINE_EXCEEDED', { 'Retry-After': '1' }],
    ]);
  });

  it('a use case still running when the deadline falls: the handler answers 503 DEADLINE_EXCEEDED itself, then its writes are refused', async () => {
    const { ANSWER_RESERVE_MS } = await import('../src/deadline');
    let signal: AbortSignal | undefined;
    let finish: () => void = () => undefined;
    const handler = httpHandler(getSigningKeyRoute, contract, async () => {
      // Taken as every handler takes it, synchronously as it starts. What the use case's context carries: the request's deadline (context.ts startWithDeadline).
      signal = useCases({
        ctxs: new WeakMap(),
        env: {},
        store: {},
        clock: { now: () => new Date() },
      } as never).deadline.signal;
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return GOOD;
    });
    // 1 ms left for the use case: the answer does not wait for it.
    const end = Date.now() + ANSWER_RESERVE_MS + 1;
    const answer = await handler(event(), { ...context, getRemainingTimeInMillis: () => end - Date.now() });
    expect([answer.statusCode, JSON.parse(answer.body).code, answer.headers['Retry-After']]).toEqual([
      503,
      'DEADLINE_EXCEEDED',
      '1',
    ]);
    expect(signal?.aborted).toBe(true);
    finish();
  });
});
