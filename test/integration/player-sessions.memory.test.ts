/**
 * Player sessions on the memory store (docs/api.md, "Player sessions"): a launch token opens one
 * session only and lasts 60 s; an access token lasts 5 minutes on the Clock port (no sleeping); a
 * refresh token is spent once and a spent one ends the session; logout and revocation (and a
 * self-exclusion's) refuse the very next request; another operator's table cannot scope a launch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Actor,
  AuthenticationError,
  authenticatePlayer,
  type Clock,
  DomainError,
  endSession,
  launchPlayer,
  openSession,
  refreshSession,
  revokePlayerSessions,
  type SessionDeps,
} from '@pyb/core';
import { createTable, context as useCaseContext } from '@pyb/core/use-cases';
import { LocalTokenSigner } from '@pyb/keys';
import { MemoryStore } from '@pyb/store-memory';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { MemorySessionStore } from '../support/memory-edges';

const dir = mkdtempSync(join(tmpdir(), 'pyb-sessions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tokens = new LocalTokenSigner({ dir, env: {} });

/** A clock the test moves by hand. */
let now = Date.parse('2026-03-01T10:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };
const advance = (ms: number) => {
  now += ms;
};

const store = new MemoryStore();
let sessions: MemorySessionStore;
let deps: SessionDeps;
const launchDeps = () => ({ ...deps, store, launchUrl: 'https://play.example/table/' });

beforeEach(() => {
  sessions = new MemorySessionStore();
  deps = { sessions, tokens, clock };
});

const refusal = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'accepted',
    (e: unknown) => (e instanceof AuthenticationError || e instanceof DomainError ? e.code : String(e)),
  );

async function session(playerId = 'p-1', scope: { tableId?: string; currency?: string } = {}) {
  const launch = await launchPlayer(launchDeps(), operator('op-a'), { playerId, ...scope });
  advance(1_000);
  return openSession(deps, { launchToken: launch.launchToken });
}

describe('launch and exchange', () => {
  it('a launch URL carries the token in its fragment; the exchange gives the scope and two tokens', async () => {
    const launch = await launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1', currency: 'EUR' });
    expect(launch.launchUrl).toBe(`https://play.example/table/#launchToken=${launch.launchToken}`);
    expect(Date.parse(launch.expiresAt) - now).toBe(60_000);
    const opened = await openSession(deps, { launchToken: launch.launchToken });
    expect(opened.player).toEqual({ operatorId: 'op-a', playerId: 'p-1', currency: 'EUR' });
    expect(Date.parse(opened.expiresAt) - now).toBe(300_000);
    const actor = await authenticatePlayer(deps, opened.accessToken);
    expect(actor).toEqual({
      operatorId: 'op-a',
      role: 'player',
      supervises: [],
      player: { playerId: 'p-1', sessionId: opened.sessionId, currency: 'EUR' },
    });
  });

  it('a launch token opens one session only, and only within its 60 s', async () => {
    const a = await launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1' });
    await openSession(deps, { launchToken: a.launchToken });
    expect(await refusal(openSession(deps, { launchToken: a.launchToken }))).toBe('LAUNCH_TOKEN_USED');
    // Two exchanges at once: one wins (the conditional write), the other is told it was used.
    const b = await launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1' });
    const both = await Promise.all(
      [1, 2].map(() => refusal(openSession(deps, { launchToken: b.launchToken }))),
    );
    expect(both.sort()).toEqual(['LAUNCH_TOKEN_USED', 'accepted']);
    const c = await launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1' });
    advance(60_000);
    expect(await refusal(openSession(deps, { launchToken: c.launchToken }))).toBe('LAUNCH_TOKEN_EXPIRED');
    expect(await refusal(openSession(deps, { launchToken: `pyl_${'A'.repeat(43)}` }))).toBe(
      'LAUNCH_TOKEN_INVALID',
    );
  });

  it("a launch scoped to another operator's table is refused as if the table were not there", async () => {
    const ctx = useCaseContext({ store, keys: undefined as never, clock });
    const { tableId } = await createTable(ctx, admin('op-b'), { name: 'B', variant: 'mini' });
    expect(await refusal(launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1', tableId }))).toBe(
      'TABLE_NOT_FOUND',
    );
    const own = await launchPlayer(launchDeps(), operator('op-b'), { playerId: 'p-1', tableId });
    expect(own.player).toEqual({ operatorId: 'op-b', playerId: 'p-1', tableId });
  });

  it('a regulator key launches nobody', async () => {
    const reg: Actor = { operatorId: 'op-a', role: 'regulator', supervises: ['op-a'] };
    expect(await refusal(launchPlayer(launchDeps(), reg, { playerId: 'p-1' }))).toBe('READ_ONLY');
  });
});

describe('expiry, refresh, logout and revocation', () => {
  it('an access token is refused from its exp on (the Clock port), a refreshed one is not', async () => {
    const opened = await session();
    advance(299_000);
    await authenticatePlayer(deps, opened.accessToken);
    advance(1_000);
    expect(await refusal(authenticatePlayer(deps, opened.accessToken))).toBe('TOKEN_EXPIRED');
    const next = await refreshSession(deps, { refreshToken: opened.refreshToken });
    expect((await authenticatePlayer(deps, next.accessToken)).player?.sessionId).toBe(opened.sessionId);
  });

  it('a refresh token is spent once: presented again, the session ends', async () => {
    const opened = await session();
    const next = await refreshSession(deps, { refreshToken: opened.refreshToken });
    expect(await refusal(refreshSession(deps, { refreshToken: opened.refreshToken }))).toBe(
      'REFRESH_TOKEN_USED',
    );
    // The copy's holder and the rightful one are both out now.
    expect(await refusal(authenticatePlayer(deps, next.accessToken))).toBe('TOKEN_REVOKED');
    expect(await refusal(refreshSession(deps, { refreshToken: next.refreshToken }))).toBe('TOKEN_REVOKED');
  });

  it('a session lasts 12 hours from its launch, however often refreshed', async () => {
    let current = await session();
    for (let i = 0; i < 12 * 12 - 1; i++) {
      advance(300_000);
      current = await refreshSession(deps, { refreshToken: current.refreshToken });
    }
    advance(300_000);
    expect(await refusal(refreshSession(deps, { refreshToken: current.refreshToken }))).toBe('TOKEN_EXPIRED');
  });

  it('logout ends that session at once; the other sessions of the player stand', async () => {
    const mine = await session();
    const other = await session();
    const actor = await authenticatePlayer(deps, mine.accessToken);
    await endSession(deps, actor);
    expect(await refusal(authenticatePlayer(deps, mine.accessToken))).toBe('TOKEN_REVOKED');
    expect(await refusal(refreshSession(deps, { refreshToken: mine.refreshToken }))).toBe('TOKEN_REVOKED');
    await authenticatePlayer(deps, other.accessToken);
  });

  it("the operator's revocation refuses every session and launch of the player until now, not later ones", async () => {
    const a = await session('p-1');
    const b = await session('p-2');
    const pending = await launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1' });
    advance(1);
    await revokePlayerSessions(deps, operator('op-a'), { playerId: 'p-1' });
    expect(await refusal(authenticatePlayer(deps, a.accessToken))).toBe('TOKEN_REVOKED');
    expect(await refusal(refreshSession(deps, { refreshToken: a.refreshToken }))).toBe('TOKEN_REVOKED');
    expect(await refusal(openSession(deps, { launchToken: pending.launchToken }))).toBe('TOKEN_REVOKED');
    await authenticatePlayer(deps, b.accessToken);
    advance(1);
    await authenticatePlayer(deps, (await session('p-1')).accessToken);
  });

  it("an operator revokes its own players only: another's player of the same id keeps his session", async () => {
    const launch = await launchPlayer(launchDeps(), operator('op-b'), { playerId: 'p-1' });
    const theirs = await openSession(deps, { launchToken: launch.launchToken });
    advance(1);
    await revokePlayerSessions(deps, operator('op-a'), { playerId: 'p-1' });
    expect((await authenticatePlayer(deps, theirs.accessToken)).operatorId).toBe('op-b');
  });

  it('a token of another key, or altered, does not verify', async () => {
    const opened = await session();
    const [h, p, s] = opened.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'p-2' })).toString('base64url');
    expect(await refusal(authenticatePlayer(deps, `${h}.${forged}.${s}`))).toBe('TOKEN_INVALID');
    const otherKey = new LocalTokenSigner({ dir: mkdtempSync(join(dir, 'other-')), env: {} });
    const foreign = await openSession(
      { ...deps, tokens: otherKey },
      { launchToken: (await launchPlayer(launchDeps(), operator('op-a'), { playerId: 'p-1' })).launchToken },
    );
    expect(await refusal(authenticatePlayer(deps, foreign.accessToken))).toBe('TOKEN_INVALID');
    // alg "none" and the like are refused before any key is looked at.
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    expect(await refusal(authenticatePlayer(deps, none))).toBe('TOKEN_INVALID');
  });
});
