/**
 * The game-launch flow over HTTP (docs/api.md, "Player sessions"): the operator's server gets a launch
 * URL, the browser exchanges its token once for an access token and a refresh token (no API key, no
 * Idempotency-Key), bets for the token's player only, sees his own position and nobody else's,
 * refreshes once per refresh token, and is out at once after a self-exclusion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;
let tableId = '';
let roundId = '';

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  const { admin, operator } = stack.a;
  tableId = (await api.post('/v1/tables', { key: admin, body: { name: 'Launch', variant: 'mini' } })).body
    .tableId;
  for (const playerId of ['lena', 'marc']) {
    await api.post(`/v1/wallets/${playerId}/transactions`, {
      key: operator,
      body: { type: 'CREDIT', amount: 50_000, currency: 'EUR' },
    });
  }
  await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
  roundId = (await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} })).body.roundId;
});
afterAll(() => stack?.stop());

async function launch(playerId: string, body: object = { tableId }) {
  const answer = await api.post(`/v1/players/${playerId}/launch`, { key: stack.a.operator, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { launchUrl: string; launchToken: string };
}

const exchange = (launchToken: string) => api.post('/v1/sessions', { idem: null, body: { launchToken } });

describe('player sessions over HTTP', () => {
  it('a launch URL is the game page with the launch token in its fragment; the token opens one session', async () => {
    const { launchUrl, launchToken } = await launch('lena');
    expect(launchUrl).toBe(`/play#launchToken=${launchToken}`);
    const first = await exchange(launchToken);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      tokenType: 'Bearer',
      player: { operatorId: 'op-a', playerId: 'lena', tableId },
      // This stack names no push channel (LIVE_BROWSER_URL): the page reads GET …/live.
      live: null,
    });
    const again = await exchange(launchToken);
    expect([again.status, again.body.code]).toEqual([401, 'LAUNCH_TOKEN_USED']);
    expect(again.headers.get('www-authenticate')).toBe('Bearer');
  });

  it("the token bets for its player and sees his own position, not the others'", async () => {
    const { accessToken, player } = (await exchange((await launch('lena')).launchToken)).body;
    const bet = await api.post(`/v1/rounds/${roundId}/bets`, {
      key: accessToken,
      body: { playerId: player.playerId, bets: [{ type: 'BANKER', amount: 1_000 }] },
    });
    expect(bet.status, JSON.stringify(bet.body)).toBe(201);
    expect(bet.body.position.playerId).toBe('lena');
    // Marc bets through the operator's key; Lena's token never sees his position.
    await api.post(`/v1/rounds/${roundId}/bets`, {
      key: stack.a.operator,
      body: { playerId: 'marc', bets: [{ type: 'PLAYER', amount: 2_000 }] },
    });
    const round = await api.get(`/v1/rounds/${roundId}`, { key: accessToken });
    expect(round.body.positions.map((p: { playerId: string }) => p.playerId)).toEqual(['lena']);
    const all = await api.get(`/v1/rounds/${roundId}`, { key: stack.a.operator });
    expect(all.body.positions.map((p: { playerId: string }) => p.playerId)).toEqual(['lena', 'marc']);
    // Naming Marc in the body or the path is refused; so is any route a player may not call.
    const forMarc = await api.post(`/v1/rounds/${roundId}/bets`, {
      key: accessToken,
      body: { playerId: 'marc', bets: [{ type: 'TIE', amount: 100 }] },
    });
    expect([forMarc.status, forMarc.body.code]).toEqual([403, 'PLAYER_NOT_ALLOWED']);
    expect((await api.get('/v1/wallets/marc', { key: accessToken })).body.code).toBe('PLAYER_NOT_ALLOWED');
    expect((await api.get('/v1/wallets/lena', { key: accessToken })).body.balance).toBe(49_000);
    const resolve = await api.post(`/v1/rounds/${roundId}/resolve`, { key: accessToken });
    expect([resolve.status, resolve.body.code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
  });

  it('a refresh token is spent once; presented again it ends the session', async () => {
    const opened = (await exchange((await launch('lena')).launchToken)).body;
    const next = await api.post('/v1/sessions/refresh', {
      idem: null,
      body: { refreshToken: opened.refreshToken },
    });
    expect(next.status).toBe(200);
    expect((await api.get('/v1/wallets/lena', { key: next.body.accessToken })).status).toBe(200);
    const replay = await api.post('/v1/sessions/refresh', {
      idem: null,
      body: { refreshToken: opened.refreshToken },
    });
    expect([replay.status, replay.body.code]).toEqual([401, 'REFRESH_TOKEN_USED']);
    const after = await api.get('/v1/wallets/lena', { key: next.body.accessToken });
    expect([after.status, after.body.code]).toEqual([401, 'TOKEN_REVOKED']);
  });

  it('logout ends the session; a self-exclusion ends every session of the player at once', async () => {
    const a = (await exchange((await launch('marc')).launchToken)).body;
    const b = (await exchange((await launch('marc')).launchToken)).body;
    const out = await api.post('/v1/sessions/logout', { key: a.accessToken, idem: null });
    expect([out.status, out.body.sessionId]).toEqual([200, a.sessionId]);
    expect((await api.get('/v1/wallets/marc', { key: a.accessToken })).body.code).toBe('TOKEN_REVOKED');
    expect((await api.get('/v1/wallets/marc', { key: b.accessToken })).status).toBe(200);
    const excluded = await api.post('/v1/wallets/marc/responsible-gaming', {
      key: stack.a.operator,
      body: { exclusion: { kind: 'SELF_EXCLUSION', until: null } },
    });
    expect(excluded.status, JSON.stringify(excluded.body)).toBe(200);
    const refused = await api.get('/v1/wallets/marc', { key: b.accessToken });
    expect([refused.status, refused.body.code]).toEqual([401, 'TOKEN_REVOKED']);
    const refresh = await api.post('/v1/sessions/refresh', {
      idem: null,
      body: { refreshToken: b.refreshToken },
    });
    expect(refresh.body.code).toBe('TOKEN_REVOKED');
  });

  it('two exchanges of one launch token at once: the conditional write lets one through', async () => {
    const { launchToken } = await launch('lena');
    const answers = await Promise.all([exchange(launchToken), exchange(launchToken)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 401]);
    expect(answers.find((a) => a.status === 401)?.body.code).toBe('LAUNCH_TOKEN_USED');
  });

  it('two refreshes with one refresh token at once: one wins, the other ends the session', async () => {
    const opened = (await exchange((await launch('lena')).launchToken)).body;
    const refresh = () =>
      api.post('/v1/sessions/refresh', { idem: null, body: { refreshToken: opened.refreshToken } });
    const answers = await Promise.all([refresh(), refresh()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    expect(answers.find((a) => a.status === 401)?.body.code).toBe('REFRESH_TOKEN_USED');
    const winner = answers.find((a) => a.status === 200)!.body;
    expect((await api.get('/v1/wallets/lena', { key: winner.accessToken })).body.code).toBe('TOKEN_REVOKED');
  });

  it('the sessions table holds no token, only their hashes', async () => {
    const { launchToken } = await launch('lena');
    const opened = (await exchange(launchToken)).body;
    const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const items = (
      await stack.context.doc.send(new ScanCommand({ TableName: stack.context.tables.sessions }))
    ).Items;
    const text = JSON.stringify(items);
    expect(items?.length).toBeGreaterThan(0);
    for (const secret of [launchToken, opened.refreshToken, opened.accessToken])
      expect(text).not.toContain(secret);
  });
});
