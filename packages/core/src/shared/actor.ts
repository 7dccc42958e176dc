/**
 * Who is calling a use case. Tenancy is enforced in the use cases, not in handlers: a resource of an
 * operator the actor may not see is reported as NOT_FOUND, never as forbidden, so ids do not leak.
 */
import type { Role } from '@pyb/contracts';

export type { Role };

/** Who may call: an API key's role, or `player`, a player's own access token (shared/auth/player-tokens.ts). */
export type CallerRole = Role | 'player';

/** What a player token acts for: one player of its operator, one session, maybe one table and currency. */
export interface PlayerScope {
  playerId: string;
  sessionId: string;
  tableId?: string;
  currency?: string;
}

export interface Actor {
  /** The operator the API key (or the player token) belongs to. */
  operatorId: string;
  role: CallerRole;
  /** Player tokens only (role `player`): the one player it acts for. */
  player?: PlayerScope;
  /** Regulators only: the operators they supervise (read-only access). */
  supervises: readonly string[];
  /**
   * An admin key of the platform itself (provisioned with `--platform`): it alone may set any
   * operator's wallet mode (docs/deploy.md, "Seamless operators"). Never set on other roles.
   */
  platform?: true;
  /** The API key's public handle (audit records name it), when the actor comes from a key. */
  keyId?: string;
}

/** A platform-admin key: an admin key provisioned for the platform, not for one operator. */
export const isPlatformAdmin = (actor: Actor): boolean => actor.role === 'admin' && actor.platform === true;

/** Operators and admins see their own tenant; regulators see the tenants they supervise. */
export const canRead = (actor: Actor, operatorId: string): boolean =>
  actor.role === 'regulator' ? actor.supervises.includes(operatorId) : actor.operatorId === operatorId;

/** Only the owning tenant's operator and admin keys change state. */
export const canWrite = (actor: Actor, operatorId: string): boolean =>
  actor.role !== 'regulator' && actor.operatorId === operatorId;
