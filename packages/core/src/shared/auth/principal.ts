import type { Role } from '../actor';

/**
 * An API key's identity. The key itself is never stored: only its SHA-256 (`keyHash`), so a leaked
 * table does not leak usable keys. `keyId` is a short public handle for logs and revocation.
 */
export interface Principal {
  keyHash: string;
  keyId: string;
  operatorId: string;
  role: Role;
  /** Regulator keys: the operators they may read. Empty for operator and admin keys. */
  supervises: readonly string[];
  label: string;
  /** Admin keys of the platform itself (Actor.platform): they may set any operator's wallet mode. */
  platform?: true;
  createdAt: string;
  revokedAt?: string;
}

/** The slice of the Store port that authentication needs. */
export interface PrincipalStore {
  findPrincipal(keyHash: string): Promise<Principal | undefined>;
  /** Refuses (throws) if a principal with the same hash exists. */
  putPrincipal(principal: Principal): Promise<void>;
  /** Marks the key revoked (again: no change); false when no such key was ever issued. */
  revokePrincipal(keyHash: string, at: string): Promise<boolean>;
}
