/**
 * The game-launch flow (docs/api.md, "Player sessions"):
 *   1. the operator's server asks for a launch (`launchPlayer`, an operator or admin key): a single-use
 *      launch token of LAUNCH_SECONDS in the game page's URL;
 *   2. the browser exchanges it once (`openSession`, no key) for an access token (a JWT of
 *      ACCESS_TOKEN_SECONDS) and a refresh token (single use, rotated by `refreshSession`);
 *   3. each request with the access token is checked against its session and the player's revocation
 *      marker (`authenticatePlayer`): a logout (`endSession`) or a revocation (`revokePlayerSessions`,
 *      and a self-exclusion) is refused from the next request on, not when the token expires.
 */
import type { Actor, PlayerScope } from '../actor';
import { checkCurrency, checkId, checkPlayerId } from '../checks';
import type { Clock } from '../ports/runtime';
import type { Store } from '../ports/store';
import { actsFor, guard, requireWriter } from '../tenancy';
import { AuthenticationError } from './authenticate';
import { ACCESS_TOKEN_SECONDS, signPlayerToken, type TokenSigner, verifyPlayerToken } from './player-tokens';
import type { LaunchRecord, SessionRecord, SessionStore } from './session-store';

/** A launch token's life: the player's browser follows the launch URL at once. */
export const LAUNCH_SECONDS = 60;
/** A session's longest life from its launch: then the operator launches the player again. */
export const SESSION_HOURS = 12;

export interface SessionDeps {
  sessions: SessionStore;
  tokens: TokenSigner;
  clock: Clock;
}

export interface LaunchDeps extends SessionDeps {
  store: Pick<Store, 'get'>;
  /** The game page the launch URL points at (the token goes in its fragment). */
  launchUrl: string;
}

export interface Launch {
  launchUrl: string;
  launchToken: string;
  expiresAt: string;
  player: { operatorId: string } & Omit<PlayerScope, 'sessionId'>;
}

export interface PlayerSession {
  sessionId: string;
  tokenType: 'Bearer';
  accessToken: string;
  expiresAt: string;
  refreshToken: string;
  refreshExpiresAt: string;
  player: { operatorId: string } & Omit<PlayerScope, 'sessionId'>;
}

// ---- opaque tokens (Web Crypto, as API keys: api-key.ts) --------------------------------------------

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const random = (bytes: number): string => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

const REFRESH = /^pyr_([A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/;

const iso = (ms: number): string => new Date(ms).toISOString();

const playerOf = (r: LaunchRecord | SessionRecord) => ({
  operatorId: r.operatorId,
  playerId: r.playerId,
  ...(r.tableId !== undefined && { tableId: r.tableId }),
  ...(r.currency !== undefined && { currency: r.currency }),
});

// ---- the use cases ----------------------------------------------------------------------------------

/** A launch for one player of the key's operator (and, if asked, one of its tables and a currency). */
export async function launchPlayer(
  deps: LaunchDeps,
  actor: Actor,
  input: { playerId: string; tableId?: string; currency?: string },
): Promise<Launch> {
  requireWriter(actor);
  const playerId = checkPlayerId(input.playerId);
  if (input.tableId !== undefined) {
    checkId('tableId', input.tableId);
    // Tenancy: another operator's table looks absent, as everywhere.
    guard(actor, await deps.store.get('table', { tableId: input.tableId }), 'table', input.tableId, 'write');
  }
  const currency = input.currency === undefined ? undefined : checkCurrency(input.currency);
  const now = deps.clock.now().getTime();
  const launchToken = `pyl_${random(32)}`;
  const launch: LaunchRecord = {
    tokenHash: await sha256(launchToken),
    operatorId: actor.operatorId,
    playerId,
    ...(input.tableId !== undefined && { tableId: input.tableId }),
    ...(currency !== undefined && { currency }),
    createdAt: iso(now),
    expiresAt: iso(now + LAUNCH_SECONDS * 1000),
  };
  await deps.sessions.putLaunch(launch);
  return {
    // The fragment never reaches a server (nor its logs): the page reads it and forgets it.
    launchUrl: `${deps.launchUrl}#launchToken=${launchToken}`,
    launchToken,
    expiresAt: launch.expiresAt,
    player: playerOf(launch),
  };
}

/** Spends a launch token (once) for a new session: its first access token and refresh token. */
export async function openSession(deps: SessionDeps, input: { launchToken: string }): Promise<PlayerSession> {
  const now = deps.clock.now().getTime();
  const { launch, spent } = await deps.sessions.spendLaunch(await sha256(input.launchToken), iso(now));
  if (!launch) throw new AuthenticationError('LAUNCH_TOKEN_INVALID', 'no such launch token');
  if (!spent) {
    throw new AuthenticationError(
      'LAUNCH_TOKEN_USED',
      'this launch token was already exchanged: launch again',
    );
  }
  if (Date.parse(launch.expiresAt) <= now) {
    throw new AuthenticationError('LAUNCH_TOKEN_EXPIRED', `the launch token expired at ${launch.expiresAt}`);
  }
  refuseRevoked(launch.createdAt, await revocationOf(deps, launch));
  const sessionId = random(16);
  const refreshToken = `pyr_${sessionId}.${random(32)}`;
  const session: SessionRecord = {
    sessionId,
    ...playerOf(launch),
    createdAt: iso(now),
    endsAt: iso(Date.parse(launch.createdAt) + SESSION_HOURS * 3600_000),
    refreshHash: await sha256(refreshToken),
  };
  await deps.sessions.putSession(session);
  return answer(deps, session, refreshToken, now);
}

/** Spends the refresh token for the next pair; a spent one presented again ends the session. */
export async function refreshSession(
  deps: SessionDeps,
  input: { refreshToken: string },
): Promise<PlayerSession> {
  const sessionId = REFRESH.exec(input.refreshToken)?.[1];
  const session = sessionId === undefined ? undefined : await deps.sessions.getSession(sessionId);
  if (!session) throw new AuthenticationError('REFRESH_TOKEN_INVALID', 'no session has this refresh token');
  const now = deps.clock.now().getTime();
  refuseEnded(session, now, await revocationOf(deps, session));
  const presented = await sha256(input.refreshToken);
  const refreshToken = `pyr_${session.sessionId}.${random(32)}`;
  // Not the session's current token, or another request spent it first: a copy is in other hands.
  if (
    presented !== session.refreshHash ||
    !(await deps.sessions.rotateRefresh(session.sessionId, presented, await sha256(refreshToken), iso(now)))
  ) {
    await deps.sessions.endSession(session.sessionId, iso(now), 'REFRESH_REUSED');
    throw new AuthenticationError(
      'REFRESH_TOKEN_USED',
      'this refresh token was already spent: the session is ended, launch again',
    );
  }
  return answer(deps, session, refreshToken, now);
}

/** The Actor of a player access token, if its session still stands (read on every request). */
export async function authenticatePlayer(deps: SessionDeps, token: string): Promise<Actor> {
  const verified = await verifyPlayerToken(deps.tokens, deps.clock, token);
  // Two reads in parallel, every request: a logout or a revocation holds from the next one on.
  const [session, revokedBefore] = await Promise.all([
    deps.sessions.getSession(verified.scope.sessionId),
    deps.sessions.revokedBefore(verified.operatorId, verified.scope.playerId),
  ]);
  if (
    !session ||
    session.operatorId !== verified.operatorId ||
    session.playerId !== verified.scope.playerId
  ) {
    throw new AuthenticationError('TOKEN_INVALID', 'the player token names no session');
  }
  refuseEnded(session, deps.clock.now().getTime(), revokedBefore);
  return { operatorId: verified.operatorId, role: 'player', supervises: [], player: verified.scope };
}

/** Logout: the token's session ends now. */
export async function endSession(
  deps: SessionDeps,
  actor: Actor,
): Promise<{ sessionId: string; endedAt: string }> {
  if (!actor.player) throw new Error('endSession takes a player actor (routes.ts: players only)');
  const endedAt = deps.clock.now().toISOString();
  await deps.sessions.endSession(actor.player.sessionId, endedAt, 'LOGOUT');
  return { sessionId: actor.player.sessionId, endedAt };
}

/** Every session and launch of the player made until now is refused from now on (logout, self-exclusion). */
export async function revokePlayerSessions(
  deps: SessionDeps,
  actor: Actor,
  input: { playerId: string },
): Promise<{ operatorId: string; playerId: string; revokedBefore: string }> {
  requireWriter(actor);
  const playerId = checkPlayerId(input.playerId);
  actsFor(actor, playerId);
  const revokedBefore = await deps.sessions.revokePlayer(
    actor.operatorId,
    playerId,
    deps.clock.now().toISOString(),
  );
  return { operatorId: actor.operatorId, playerId, revokedBefore };
}

// ---- checks -----------------------------------------------------------------------------------------

const revocationOf = (deps: SessionDeps, who: { operatorId: string; playerId: string }) =>
  deps.sessions.revokedBefore(who.operatorId, who.playerId);

function refuseEnded(session: SessionRecord, now: number, revokedBefore: string | undefined): void {
  if (session.endedAt !== undefined) {
    throw new AuthenticationError('TOKEN_REVOKED', `the session ended at ${session.endedAt}`);
  }
  if (Date.parse(session.endsAt) <= now) {
    throw new AuthenticationError('TOKEN_EXPIRED', `the session ended at ${session.endsAt}: launch again`);
  }
  refuseRevoked(session.createdAt, revokedBefore);
}

/** A session (or launch) made at or before the player's revocation instant stands no more. */
function refuseRevoked(madeAt: string, before: string | undefined): void {
  if (before !== undefined && Date.parse(madeAt) <= Date.parse(before)) {
    throw new AuthenticationError('TOKEN_REVOKED', `the player's sessions were revoked at ${before}`);
  }
}

async function answer(
  deps: SessionDeps,
  session: SessionRecord,
  refreshToken: string,
  now: number,
): Promise<PlayerSession> {
  const expiresAt = Math.min(now + ACCESS_TOKEN_SECONDS * 1000, Date.parse(session.endsAt));
  const player = playerOf(session);
  const { operatorId, ...scope } = player;
  const accessToken = await signPlayerToken(deps.tokens, {
    operatorId,
    scope: { ...scope, sessionId: session.sessionId },
    now: new Date(now),
    expiresAt: new Date(expiresAt),
  });
  return {
    sessionId: session.sessionId,
    tokenType: 'Bearer',
    accessToken,
    // The JWT's exp is in whole seconds: say the instant it carries.
    expiresAt: iso(Math.floor(expiresAt / 1000) * 1000),
    refreshToken,
    refreshExpiresAt: session.endsAt,
    player,
  };
}
