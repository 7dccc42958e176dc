/**
 * The player's session in this tab (docs/api.md, "Player sessions"): the launch token is read from the
 * URL (`#launchToken=` as launch URLs carry it, or `?token=`), removed from the address bar at once, and
 * spent for an access token (5 minutes) and a single-use refresh token, kept in sessionStorage so a
 * reload of the tab goes on (the tab's own credential, never an operator's key). `token()` answers an
 * access token good for at least a minute, refreshing first when needed.
 */
import type { Session as SessionSchema } from '@pyb/contracts';
import type * as z from 'zod';
import { post } from '../lib/api';

export type PlayerSession = z.infer<ReturnType<typeof SessionSchema>>;

const SLOT = 'pyb.play.session';
/** Refresh when the access token has less than this left. */
const MARGIN_MS = 60_000;

/** The launch token of the page's URL, if any; the URL is rewritten without it. */
export function takeLaunchToken(location: Location, history: History): string | undefined {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const token = fragment.get('launchToken') ?? query.get('token') ?? undefined;
  if (token) {
    query.delete('token');
    const search = query.toString();
    history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
  }
  return token;
}

export class Sessions {
  private refreshing: Promise<PlayerSession> | undefined;

  private constructor(private current: PlayerSession) {}

  /** The session from a launch token (spent here), else the one this tab kept; undefined: none. */
  static async open(launchToken: string | undefined): Promise<Sessions | undefined> {
    if (launchToken) {
      const session = await post<PlayerSession>('/v1/sessions', { body: { launchToken } });
      sessionStorage.setItem(SLOT, JSON.stringify(session));
      return new Sessions(session);
    }
    const kept = sessionStorage.getItem(SLOT);
    return kept ? new Sessions(JSON.parse(kept) as PlayerSession) : undefined;
  }

  get session(): PlayerSession {
    return this.current;
  }

  async token(now = Date.now()): Promise<string> {
    if (Date.parse(this.current.expiresAt) - now > MARGIN_MS) return this.current.accessToken;
    // One refresh at a time: the refresh token is single use (a second spend would end the session).
    this.refreshing ??= post<PlayerSession>('/v1/sessions/refresh', {
      body: { refreshToken: this.current.refreshToken },
    }).finally(() => {
      this.refreshing = undefined;
    });
    this.current = await this.refreshing;
    sessionStorage.setItem(SLOT, JSON.stringify(this.current));
    return this.current.accessToken;
  }

  forget(): void {
    sessionStorage.removeItem(SLOT);
  }
}
