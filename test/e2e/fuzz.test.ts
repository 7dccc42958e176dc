/**
 * No 500 from any input: generated malformed requests (paths, queries, headers, bodies) to every route
 * of ROUTES, with keys of every role. Each answer must be a 4xx problem+json (never a 5xx), and
 * nothing may change: the wallets, ledgers, round, shoe and table read the same afterwards.
 */
import { ROUTES } from '@pyb/functions/routes';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, type Json } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;
let ids: Record<string, string>;

async function snapshot(): Promise<Json> {
  const key = stack.a.operator;
  const reads = [
    `/v1/wallets/fuzz-player`,
    `/v1/wallets/fuzz-player/ledger?limit=100`,
    `/v1/rounds/${ids.roundId}`,
    `/v1/shoes/${ids.shoeId}`,
    `/v1/tables/${ids.tableId}`,
  ];
  return Promise.all(reads.map(async (path) => (await api.get(path, { key })).body));
}

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  const { admin, operator } = stack.a;
  const tableId = (await api.post('/v1/tables', { key: admin, body: { name: 'Fuzz', variant: 'mini' } })).body
    .tableId;
  await api.post('/v1/wallets/fuzz-player/transactions', {
    key: operator,
    body: { type: 'CREDIT', amount: 100_000, currency: 'EUR' },
  });
  const shoeId = (await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).body.shoeId;
  const roundId = (await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} })).body.roundId;
  ids = { tableId, shoeId, roundId, playerId: 'fuzz-player', keyId: 'nope' };
});
afterAll(() => stack?.stop());

/** Text that breaks things: controls, bidi, lone surrogates, percent signs, huge, unicode. */
const nasty = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%00',
    '..',
    '../..',
    '\u0000',
    '\u202e',
    '\ud800',
    '#',
    'a#b',
    '1e2',
    '0x10',
    '-1',
    'null',
    '{}',
    '[]',
    'x'.repeat(3000),
  ),
);
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
);

/** Percent-encoding; a lone surrogate (no UTF-8 form) goes out as the invalid UTF-8 bytes of one. */
const enc = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

describe('fuzz', () => {
  it('never answers 5xx and changes nothing, whatever the input', async () => {
    const before = await snapshot();
    const keys = [
      stack.a.admin,
      stack.a.operator,
      stack.a.regulator,
      stack.b.admin,
      undefined,
      'pyb_garbage',
    ];
    let cases = 0;
    const statuses = new Map<number, number>();
    for (const route of ROUTES) {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            segment: fc.oneof(nasty, fc.constantFrom(...Object.values(ids))),
            query: fc.array(
              fc.tuple(
                fc.oneof(nasty, fc.constantFrom('limit', 'cursor', 'operatorId', 'shoeId', 'keyId')),
                nasty,
              ),
              { maxLength: 3 },
            ),
            idem: fc.option(nasty),
            contentType: fc.constantFrom(
              'application/json',
              'text/plain',
              'APPLICATION/JSON',
              'application/json; charset=utf-16',
              '',
            ),
            body: fc.oneof(
              // A JSON body the schema refuses (an unknown field in a strict object, or no object at all).
              jsonish.map((v) =>
                JSON.stringify(
                  v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, __fuzz: 1 } : v,
                ),
              ),
              // Text that is no JSON object (an empty body would be a valid `{}` on some routes).
              nasty.filter((t) => {
                try {
                  const v: unknown = JSON.parse(t);
                  return v === null || typeof v !== 'object' || Array.isArray(v);
                } catch {
                  return t.trim() !== '';
                }
              }),
            ),
            key: fc.constantFrom(...keys),
          }),
          async (c) => {
            const path =
              route.path.replace(/\{\w+\}/g, () => enc(c.segment)) +
              (c.query.length > 0 ? `?${c.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}` : '');
            const headers: Record<string, string> = {};
            if (c.key) headers.authorization = `Bearer ${c.key}`;
            if (c.idem !== null) headers['idempotency-key'] = c.idem.replace(/[\r\n\0]/g, '');
            if (c.contentType) headers['content-type'] = c.contentType;
            const response = await fetch(`${stack.url}${path}`, {
              method: route.method,
              headers,
              ...(route.method === 'POST' && { body: c.body }),
            }).catch(() => undefined);
            cases++;
            if (!response) return; // a header fetch itself refuses to send
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            const text = await response.text();
            expect(response.status, `${route.method} ${path}: ${text}`).toBeLessThan(500);
          },
        ),
        { numRuns: 30 },
      );
    }
    console.info(`fuzz: ${cases} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(cases).toBeGreaterThanOrEqual(ROUTES.length * 30);
    expect(await snapshot()).toEqual(before);
  }, 600_000);
});
