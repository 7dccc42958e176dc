import { Lru } from '../lru';
import type { Clock } from '../ports/runtime';
import type { Principal, PrincipalStore } from './principal';

/** How long a container trusts a principal it read: a revoked key keeps working at most this long. */
export const PRINCIPAL_TTL_MS = 30_000;
/** An unknown key is remembered for less: a key just issued works within this time. */
const PRINCIPAL_MISS_TTL_MS = 5_000;
/** Keys remembered per container (operators hold a handful of keys each). */
const PRINCIPAL_CACHE_SIZE = 1_024;

/**
 * The principal lookup of every authenticated request, cached per process: a bet does not pay a
 * principals-table read (it would be a third round trip ahead of the bet's own two). Revocation takes
 * effect within PRINCIPAL_TTL_MS in every container (docs/deploy.md states it); writes go through.
 */
export class CachedPrincipalStore implements PrincipalStore {
  private readonly cache: Lru<string, { principal: Principal | undefined; until: number }>;

  constructor(
    private readonly inner: PrincipalStore,
    private readonly clock: Clock,
    private readonly options: { ttlMs?: number; missTtlMs?: number; capacity?: number } = {},
  ) {
    this.cache = new Lru(options.capacity ?? PRINCIPAL_CACHE_SIZE);
  }

  async findPrincipal(keyHash: string): Promise<Principal | undefined> {
    const now = this.clock.now().getTime();
    const hit = this.cache.get(keyHash);
    if (hit && hit.until > now) return hit.principal;
    const principal = await this.inner.findPrincipal(keyHash);
    const ttl = principal
      ? (this.options.ttlMs ?? PRINCIPAL_TTL_MS)
      : (this.options.missTtlMs ?? PRINCIPAL_MISS_TTL_MS);
    this.cache.set(keyHash, { principal, until: now + ttl });
    return principal;
  }

  putPrincipal(principal: Principal): Promise<void> {
    this.cache.delete(principal.keyHash);
    return this.inner.putPrincipal(principal);
  }

  async revokePrincipal(keyHash: string, at: string): Promise<boolean> {
    const revoked = await this.inner.revokePrincipal(keyHash, at);
    this.cache.delete(keyHash); // this container at once; the others within the TTL
    return revoked;
  }
}
