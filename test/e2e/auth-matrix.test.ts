/**
 * The auth matrix: every route of functions/src/routes.ts × {no key, unknown key, each role of the
 * owning operator, each role of another operator, player tokens}. A missing or unknown key is a 401, a
 * role the route does not admit a 403, another tenant's resource a 404 — and an admitted key of the
 * owner is never refused for who it is. Player tokens (docs/api.md, "Player sessions"): the owner's
 * player acts on his own resources; another player of the owner is 403 PLAYER_NOT_ALLOWED; another
 * operator's player of the same id gets 404s; a token scoped to another table 403 TOKEN_SCOPE_EXCEEDED;
 * an expired token 401 TOKEN_EXPIRED, a revoked or logged-out one 401 TOKEN_REVOKED; and a player token
 * on any route that does not admit player tokens is 403 ROLE_NOT_ALLOWED.
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

/** The owner's player (player-m), another player of the owner, another operator's player-m, ... */
type PlayerWho = 'p.own' | 'p.other' | 'p.foreign' | 'p.scoped' | 'p.expired' | 'p.revoked' | 'p.loggedOut';
const PLAYERS: PlayerWho[] = [
  'p.own',
  'p.other',
  'p.foreign',
  'p.scoped',
  'p.expired',
  'p.revoked',
  'p.loggedOut',
];
const playerTokens = new Map<PlayerWho, string>();
let otherTableId = '';

async function launchToken(operatorKey: string, playerId: string, body: object = {}): Promise<string> {
  const answer = await api.post(`/v1/players/${playerId}/launch`, { key: operatorKey, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.launchToken;
}

async function newSession(operatorKey: string, playerId: string, body: object = {}) {
  const launchTokenValue = await launchToken(operatorKey, playerId, body);
  const answer = await api.post('/v1/sessions', { idem: null, body: { launchToken: launchTokenValue } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { accessToken: string; refreshToken: string };
}

/** Tokens that stay refused whatever happens later: made once, before the matrix runs. */
async function refusedTokens(): Promise<void> {
  const { operator } = stack.a;
  playerTokens.set('p.expired', (await newSession(operator, 'player-m')).accessToken);
  // Past the access token's 5 minutes on the server's clock (it skips, no real time passes).
  await stack.context.clock.sleep!(301_000);
  const loggedOut = (await newSession(operator, 'player-m')).accessToken;
  expect((await api.post('/v1/sessions/logout', { key: loggedOut, idem: null })).status).toBe(200);
  playerTokens.set('p.loggedOut', loggedOut);
  playerTokens.set('p.revoked', (await newSession(operator, 'player-m')).accessToken);
  expect((await api.post('/v1/players/player-m/sessions/revoke', { key: operator })).status).toBe(200);
  // Sessions launched from now on are after the revocation instant.
  await stack.context.clock.sleep!(1);
}

/** Valid player tokens, minted afresh before each route (a route may log them out, or revoke them). */
async function validTokens(): Promise<void> {
  await stack.context.clock.sleep!(1);
  const [own, other, foreign, scoped] = await Promise.all([
    newSession(stack.a.operator, 'player-m'),
    newSession(stack.a.operator, 'player-n'),
    newSession(stack.b.operator, 'player-m'),
    newSession(stack.a.operator, 'player-m', { tableId: otherTableId }),
  ]);
  playerTokens.set('p.own', own.accessToken);
  playerTokens.set('p.other', other.accessToken);
  playerTokens.set('p.foreign', foreign.accessToken);
  playerTokens.set('p.scoped', scoped.accessToken);
}

beforeAll(async () => {
  otherTableId = (
    await api.post('/v1/tables', { key: stack.a.admin, body: { name: 'Elsewhere', variant: 'mini' } })
  ).body.tableId;
  await refusedTokens();
});

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
  'availability-log': '?from=2026-12-01T00:00:00.000Z&to=2026-12-02T00:00:00.000Z',
  'seamless-transactions': '?from=2026-12-01T00:00:00.000Z&to=2026-12-02T00:00:00.000Z',
};

const pathOf = (route: Route): string =>
  route.path.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => encodeURIComponent(ids[name])) +
  (QUERIES[route.handler] ?? '');

/** A valid body for each POST, so that an admitted caller is judged on who it is, not on the input. */
const BODIES: Record<string, unknown | (() => Promise<unknown>)> = {
  // The session routes spend their token: each caller brings a fresh one.
  'open-session': async () => ({ launchToken: await launchToken(stack.a.operator, 'player-m') }),
  'refresh-session': async () => ({
    refreshToken: (await newSession(stack.a.operator, 'player-m')).refreshToken,
  }),
  'launch-player': {},
  'create-table': { name: 'Another', variant: 'midi' },
  'open-round': {},
  'contribute-seed': { seed: 'matrix seed' },
  'place-bet': { playerId: 'player-m', bets: [{ type: 'PLAYER', amount: 500 }] },
  'reduce-bets': { playerId: 'player-m', bets: [{ type: 'PLAYER', amount: 100 }] },
  'cancel-bets': { playerId: 'player-m', types: ['TIE'] },
  'void-round': { reason: 'MISDEAL' },
  'unlock-table': { reason: 'matrix' },
  // pause: no cadence is started (the matrix's stack runs no state machine); 409 CADENCE_NOT_SET for the owner.
  'control-cadence': { action: 'pause' },
  // on, as it is: 409 AVAILABILITY_UNCHANGED for the owner (switching the shared table off would stop the others).
  'set-table-availability': { available: true, reason: 'matrix', person: 'matrix' },
  'abandon-shoe': { reason: 'matrix' },
  // The mode op-a has (never set: hosted): admitted, it changes nothing.
  'set-operator-wallet': { walletMode: 'hosted' },
  // A debit: on another tenant the player has no wallet, so nothing of the owner's can be touched.
  'wallet-transaction': { type: 'DEBIT', amount: 1, currency: 'EUR' },
};

type Who = 'none' | 'unknown' | 'platform' | `${'a' | 'b'}.${keyof Keys}` | PlayerWho;
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
  ...PLAYERS,
];

/** The routes of an operator's wallet mode: a platform-admin key's, whichever the operator. */
const OPERATOR_WALLET = new Set(['get-operator-wallet', 'set-operator-wallet']);

function keyOf(who: Who): string | undefined {
  if (who === 'none') return undefined;
  if (who.startsWith('p.')) return playerTokens.get(who as PlayerWho);
  if (who === 'unknown') return 'pyb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  if (who === 'platform') return stack.platform;
  const [tenant, role] = who.split('.') as ['a' | 'b', keyof Keys];
  return stack[tenant][role];
}

/**
 * Routes whose path names no resource of the owner: another tenant acts in its own namespace (its own
 * tables; its own player of that id, who has no rounds there) and must get nothing of the owner's.
 */
const OWN_NAMESPACE = new Set([
  'create-table',
  'player-rounds',
  'launch-player',
  'revoke-player-sessions',
  'get-key-identity',
]);

/** What a player token gets on a route that admits player tokens. */
function expectedForPlayer(
  route: Route,
  who: PlayerWho,
  answer: { status: number; body: Json },
  what: string,
) {
  const refusal = [answer.status, answer.body.code];
  if (who === 'p.expired') return expect(refusal, what).toEqual([401, 'TOKEN_EXPIRED']);
  if (who === 'p.revoked' || who === 'p.loggedOut')
    return expect(refusal, what).toEqual([401, 'TOKEN_REVOKED']);
  // Logging out is anyone's own business: every valid token ends its own session.
  if (route.handler === 'end-session') return expect(answer.status, what).toBe(200);
  if (who === 'p.foreign') return expect(answer.status, what).toBe(404);
  const namesPlayer = route.players?.playerIn !== undefined;
  if (who === 'p.other' && namesPlayer) return expect(refusal, what).toEqual([403, 'PLAYER_NOT_ALLOWED']);
  // Scoped to another table: the matrix's table, its round and bets are out of scope; his wallet is not.
  if (who === 'p.scoped' && !['get-wallet', 'player-history', 'player-rounds'].includes(route.handler)) {
    return expect(refusal, what).toEqual([403, 'TOKEN_SCOPE_EXCEEDED']);
  }
  expect(answer.status, what).toBeLessThan(500);
  expect([401, 403, 404], what).not.toContain(answer.status);
}

/** Public routes whose answer is not a 200 for anyone. */
const PUBLIC_STATUS: Record<string, number> = { 'get-proof': 409, 'open-session': 201 };

function expected(route: Route, who: Who, answer: { status: number; body: Json }): void {
  const what = `${route.method} ${route.path} as ${who}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
  if (route.roles.length === 0 && !route.players) {
    // Public: the same for anyone (the proof of a shoe not closed yet is a 409 for everybody).
    expect(answer.status, what).toBe(PUBLIC_STATUS[route.handler] ?? 200);
    return;
  }
  if (who.startsWith('p.')) {
    if (!route.players) {
      // Refused unread (expired, revoked or not): those functions cannot even verify a player token.
      expect([answer.status, answer.body.code], what).toEqual([403, 'ROLE_NOT_ALLOWED']);
      return;
    }
    expectedForPlayer(route, who as PlayerWho, answer, what);
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
      expect([answer.status, answer.body.operatorId ?? answer.body.player?.operatorId], what).toEqual([
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
    const callers = [...route.roles, ...(route.players ? ['player'] : [])].join(', ') || 'public';
    it(`${route.method} ${route.path} [${callers}]`, async () => {
      await validTokens();
      for (const who of CALLERS) {
        const call: Call = {};
        const key = keyOf(who);
        if (key !== undefined) call.key = key;
        const body = BODIES[route.handler];
        if (route.method === 'POST' && body !== undefined)
          call.body = typeof body === 'function' ? await body() : body;
        // The single-use routes take no Idempotency-Key.
        if (route.singleUse) call.idem = null;
        const answer =
          route.method === 'GET' ? await api.get(pathOf(route), call) : await api.post(pathOf(route), call);
        expected(route, who, answer);
        if (answer.status === 401) expect(answer.headers.get('www-authenticate')).toBe('Bearer');
        if (answer.status >= 400) expect(answer.contentType).toBe('application/problem+json');
      }
    });
  }
});
