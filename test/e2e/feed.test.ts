/**
 * The regulator feed over HTTP: the on-demand range answers NDJSON or CSV (not JSON) under its media
 * type, with the same records; a refused range is problem+json. Every exchange is checked against the
 * OpenAPI document (support/http.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  await api.post('/v1/wallets/reg-p/transactions', {
    key: stack.a.operator,
    body: { type: 'CREDIT', amount: 5_000, currency: 'EUR', reference: 'first, "deposit"' },
  });
});
afterAll(() => stack?.stop());

const range = () => {
  // The API's clock (it runs ahead of Date by the beacon waits it skipped).
  const now = stack.context.clock.now().getTime();
  const from = new Date(now - 3_600_000).toISOString();
  const to = new Date(now + 3_600_000).toISOString();
  return `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
};

describe('the regulator feed over HTTP', () => {
  it('answers NDJSON and CSV under their media types, the same records in each', async () => {
    const nd = await api.get<string>(`/v1/operators/op-a/feed?${range()}`, { key: stack.a.regulator });
    expect([nd.status, nd.contentType]).toEqual([200, 'application/x-ndjson']);
    const records = nd.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.type)).toEqual(['movement', 'summary']);
    expect(records[0]).toMatchObject({
      kind: 'CREDIT',
      amount: 5_000,
      playerId: 'reg-p',
      reference: 'first, "deposit"',
    });
    const csv = await api.get<string>(`/v1/operators/op-a/feed?${range()}&format=csv`, {
      key: stack.a.regulator,
    });
    expect([csv.status, csv.contentType]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
    const rows = csv.body.split('\r\n');
    expect(rows[0]!.startsWith('type,operatorId,')).toBe(true);
    expect(rows.slice(1, -1).map((r) => r.split(',')[0])).toEqual(['movement', 'summary']);
    expect(csv.body).toContain('"first, ""deposit"""');
    expect(csv.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses a range over a day, and another operator, as problem+json', async () => {
    const long = await api.get('/v1/operators/op-a/feed?from=2026-12-01T00:00:00Z&to=2026-12-03T00:00:00Z', {
      key: stack.a.regulator,
    });
    expect([long.status, long.contentType, long.body.code]).toEqual([
      422,
      'application/problem+json',
      'FEED_RANGE_TOO_LARGE',
    ]);
    const other = await api.get(`/v1/operators/op-a/feed?${range()}`, { key: stack.b.regulator });
    expect([other.status, other.body.code]).toEqual([404, 'OPERATOR_NOT_FOUND']);
    const files = await api.get('/v1/operators/op-a/feed/files?from=2026-12-01&to=2026-12-01', {
      key: stack.a.regulator,
    });
    expect([files.status, files.body]).toEqual([200, { operatorId: 'op-a', files: [] }]);
  });
});
