/**
 * The auth matrix: every route of functions/src/routes.ts × {no key, unknown key, each role of the
 * owning operator, each role of another operator}. A missing or unknown key is a 401, a role the
 * route does not admit a 403, another tenant's resource a 404 — and an admitted key of the owner is
 * never refused for who it is.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFeedFiles } from '@pyb/feed-files';
import { ROUTES, type Route } from '@pyb/functions/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, type Client, client, type Json } from './support/http';
import { type E2eStack, type Keys, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;
const ids = {
  tableId: '',
  shoeId: '',
  roundId: '',
  playerId: 'player-m',
  operatorId: 'op-a',
  date: '2026-12-01',
  name: 'feed.csv',
};

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  const { admin, operator } = stack.a;
  ids.tableId = (
    await api.post('/v1/tables', { key: admin, body: { name: 'Matrix', variant: 'mini' } })
  ).body.tableId;
  await api.post(`/v1/wallets/${ids.playerId}/transactions`, {
    key: operator,
    body: { type: 'CREDIT', amount: 100_000, currency: 'EUR' },
  });
  ids.shoeId = (await api.post(`/v1/tables/${ids.tableId}/shoes`, { key: admin })).body.shoeId;
  // A daily feed file of the owner, as the job writes it: its owner reads it, nobody else.
  await new LocalFeedFiles(stack.feedDir).write(
    `feed/op-a/${ids.date}/${ids.name}`,
    'text/csv; charset=utf-8; header=present',
    (async function* () {
      yield new TextEncoder().encode('type\r\nsummary\r\n');
    })(),
  );
  ids.roundId = (
    await api.post(`/v1/tables/${ids.tableId}/rounds`, { key: operator, body: {} })
  ).body.roundId;
});
afterAll(() => stack?.stop());

/** Routes whose handler exists (others are built by their own issue and join the matrix when they land). */
const LIVE = ROUTES.filter((r) =>
  existsSync(join(import.meta.dirname, '../../functions', r.handler, 'handler.ts')),
);

/** A valid query for routes that need one. */
const QUERIES: Record<string, string> = {
  'ggr-report': '?date=2026-12-01',
  'player-history': '?from=2026-01-01T00:00:00.000Z&to=2026-12-31T00:00:00.000Z',
  'export-feed': '?from=2026-12-01T00:00:00.000Z&to=2026-12-02T00:00:00.000Z&format=csv',
  'list-feed-files': '?from=2026-12-01&to=2026-12-01',
  'seamless-transactions': '?from=2026-12-01T00:00:00.000Z&to=2026-12-02T00:00:00.000Z',
};

const pathOf = (route: Route): string =>
  route.path.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => encodeURIComponent(ids[name])) +
  (QUERIES[route.handler] ?? '');

/** A valid body for each POST, so that an admitted caller is judged on who it is, not on the input. */
const BODIES: Record<string, unknown> = {
  'create-table': { name: 'Another', variant: 'midi' },
  'open-round': {},
  'contribute-seed': { seed: 'matrix seed' },
  'place-bet': { playerId: 'player-m', bets: [{ type: 'PLAYER', amount: 500 }] },
  'reduce-bets': { playerId: 'player-m', bets: [{ type: 'PLAYER', amount: 100 }] },
  'cancel-bets': { playerId: 'player-m', types: ['TIE'] },
  'void-round': { reason: 'MISDEAL' },
  'unlock-table': { reason: 'matrix' },
  'abandon-shoe': { reason: 'matrix' },
  // The mode op-a has (never set: hosted): admitted, it changes nothing.
  'set-operator-wallet': { walletMode: 'hosted' },
  // A debit: on another tenant the player has no wallet, so nothing of the owner's can be touched.
  'wallet-transaction': { type: 'DEBIT', amount: 1, currency: 'EUR' },
};

type Who = 'none' | 'unknown' | 'platform' | `${'a' | 'b'}.${keyof Keys}`;
const CALLERS: Who[] = [
  'none',
  'unknown',
  'a.admin',
  'a.operator',
  'a.regulator',
  'b.admin',
  'b.operator',
  'b.regulator',
  'platform',
];

/** The routes of an operator's wallet mode: a platform-admin key's, whichever the operator. */
const OPERATOR_WALLET = new Set(['get-operator-wallet', 'set-operator-wallet']);

function keyOf(who: Who): string | undefined {
  if (who === 'none') return undefined;
  if (who === 'unknown') return 'pyb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  if (who === 'platform') return stack.platform;
  const [tenant, role] = who.split('.') as ['a' | 'b', keyof Keys];
  return stack[tenant][role];
}

/**
 * Routes whose path names no resource of the owner: another tenant acts in its own namespace (its own
 * tables; its own player of that id, who has no rounds there) and must get nothing of the owner's.
 */
const OWN_NAMESPACE = new Set(['create-table', 'player-rounds']);

function expected(route: Route, who: Who, answer: { status: number; body: Json }): void {
  const what = `${route.method} ${route.path} as ${who}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
  if (route.roles.length === 0) {
    // Public: the same for anyone (the proof of a shoe not closed yet is a 409 for everybody).
    expect(answer.status, what).toBe(route.handler === 'get-proof' ? 409 : 200);
    return;
  }
  if (who === 'none' || who === 'unknown') {
    expect([answer.status, answer.body.code], what).toEqual([
      401,
      who === 'none' ? 'API_KEY_MISSING' : 'API_KEY_INVALID',
    ]);
    return;
  }
  // The platform key is an admin of operator `platform`: another tenant, but for the wallet-mode routes.
  const [tenant, role] = (who === 'platform' ? ['p', 'admin'] : who.split('.')) as [
    'a' | 'b' | 'p',
    keyof Keys,
  ];
  if (!route.roles.includes(role)) {
    expect([answer.status, answer.body.code], what).toEqual([403, 'ROLE_NOT_ALLOWED']);
    return;
  }
  if (route.handler === 'set-operator-wallet' && tenant !== 'p') {
    // Admin keys of operators, even the owner's, may not switch a wallet mode.
    expect([answer.status, answer.body.code], what).toEqual([403, 'PLATFORM_ADMIN_REQUIRED']);
    return;
  }
  if (tenant === 'p' && OPERATOR_WALLET.has(route.handler)) {
    expect([answer.status, answer.body.operatorId], what).toEqual([200, 'op-a']);
    return;
  }
  if (tenant !== 'a' && !OWN_NAMESPACE.has(route.handler)) {
    expect(answer.status, what).toBe(404);
    return;
  }
  if (tenant !== 'a') {
    // Its own namespace: nothing there (404), or what it holds itself.
    if (answer.status !== 404)
      expect([answer.status, answer.body.operatorId], what).toEqual([
        expect.any(Number),
        tenant === 'p' ? 'platform' : 'op-b',
      ]);
    expect([401, 403], what).not.toContain(answer.status);
    expect(answer.status, what).toBeLessThan(500);
    return;
  }
  expect(answer.status, what).toBeLessThan(500);
  if (route.handler === 'seamless-report') {
    // The owner's day has no report (no daily job ran here): its own 404, not the tenancy one.
    expect([answer.status, answer.body.code], what).toEqual([404, 'SEAMLESS_REPORT_NOT_FOUND']);
    return;
  }
  expect([401, 403, 404], what).not.toContain(answer.status);
}

describe('auth matrix', () => {
  it('covers every route that has a handler', () => {
    expect(LIVE.length).toBeGreaterThanOrEqual(ROUTES.length - 3);
  });

  // Reads first, then writes: a write the owner may do changes state, but never what is asserted.
  const ordered = [...LIVE].sort((x, y) => (x.method === y.method ? 0 : x.method === 'GET' ? -1 : 1));
  for (const route of ordered) {
    it(`${route.method} ${route.path} [${route.roles.join(', ') || 'public'}]`, async () => {
      for (const who of CALLERS) {
        const call: Call = {};
        const key = keyOf(who);
        if (key !== undefined) call.key = key;
        if (route.method === 'POST' && BODIES[route.handler] !== undefined) call.body = BODIES[route.handler];
        const answer =
          route.method === 'GET' ? await api.get(pathOf(route), call) : await api.post(pathOf(route), call);
        expected(route, who, answer);
        if (answer.status === 401) expect(answer.headers.get('www-authenticate')).toBe('Bearer');
        if (answer.status >= 400) expect(answer.contentType).toBe('application/problem+json');
      }
    });
  }
});
