import type { Actor, CallerRole } from '../actor';
import { DomainError } from '../errors';
import { hashApiKey, looksLikeApiKey } from './api-key';
import type { PrincipalStore } from './principal';

/**
 * The caller could not be identified (HTTP 401). Kept apart from DomainError: it is about the
 * request's credentials, not about any resource, and it is the only refusal that names no tenant.
 */
export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
  constructor(
    readonly code:
      | 'API_KEY_MISSING'
      | 'API_KEY_INVALID'
      | 'TOKEN_INVALID'
      | 'TOKEN_EXPIRED'
      | 'TOKEN_REVOKED'
      | 'LAUNCH_TOKEN_INVALID'
      | 'LAUNCH_TOKEN_EXPIRED'
      | 'LAUNCH_TOKEN_USED'
      | 'REFRESH_TOKEN_INVALID'
      | 'REFRESH_TOKEN_USED',
    message: string,
  ) {
    super(message);
  }
}

const BEARER = /^Bearer +(\S+)$/i;

/** The credential of `Authorization: Bearer <credential>` (an API key or a player token), or AuthenticationError. */
export function bearerCredential(authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') {
    throw new AuthenticationError(
      'API_KEY_MISSING',
      'send your API key (or player token) as "Authorization: Bearer <key>"',
    );
  }
  const credential = BEARER.exec(authorization.trim())?.[1];
  if (credential === undefined) {
    throw new AuthenticationError('API_KEY_INVALID', 'the Authorization header must be "Bearer <key>"');
  }
  return credential;
}

/** `Authorization: Bearer <key>` -> the Actor of that key, or AuthenticationError. */
export async function authenticate(store: PrincipalStore, authorization: string | undefined): Promise<Actor> {
  const key = bearerCredential(authorization);
  // A key we never issue cannot match; refusing it here spares a table read.
  const principal = looksLikeApiKey(key) ? await store.findPrincipal(await hashApiKey(key)) : undefined;
  if (principal === undefined || principal.revokedAt !== undefined) {
    throw new AuthenticationError('API_KEY_INVALID', 'unknown or revoked API key');
  }
  return {
    operatorId: principal.operatorId,
    role: principal.role,
    supervises: [...principal.supervises],
    keyId: principal.keyId,
    ...(principal.platform && principal.role === 'admin' && { platform: true as const }),
  };
}

/** The route's roles gate: a known key of the wrong role is a 403 (no resource is looked at). */
export function authorize(actor: Actor, roles: readonly CallerRole[]): void {
  if (!roles.includes(actor.role)) {
    throw new DomainError(
      'FORBIDDEN',
      'ROLE_NOT_ALLOWED',
      actor.role === 'player'
        ? 'a player token may not call this endpoint'
        : `this ${actor.role} key may not call this endpoint`,
      {
        role: actor.role,
        allowed: [...roles],
      },
    );
  }
}
