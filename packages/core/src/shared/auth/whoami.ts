import type { Actor, Role } from '../actor';
import { DomainError } from '../errors';

/** What an API key may learn of itself (GET /v1/me): whose it is and its role. */
export interface KeyIdentity {
  operatorId: string;
  role: Role;
  platform: boolean;
  supervises: string[];
  keyId: string | null;
}

export function whoAmI(actor: Actor): KeyIdentity {
  // Player tokens are not API keys: they learn who they are from their session.
  if (actor.role === 'player') throw new DomainError('FORBIDDEN', 'ROLE_NOT_ALLOWED', 'an API key only');
  return {
    operatorId: actor.operatorId,
    role: actor.role,
    platform: actor.platform === true,
    supervises: [...actor.supervises],
    keyId: actor.keyId ?? null,
  };
}
