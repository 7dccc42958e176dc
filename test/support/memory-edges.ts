/**
 * The HTTP edge's two stores in memory (API keys, Idempotency-Key records), with the semantics of
 * their DynamoDB adapters (@pyb/store-dynamodb principals.ts, idempotency.ts): for tests that invoke
 * the real handlers on the in-memory Store, where no table holds them.
 */
import type {
  IdempotencyRecord,
  IdempotencyStore,
  Principal,
  PrincipalStore,
  StoredResponse,
} from '@pyb/core';

export class MemoryPrincipalStore implements PrincipalStore {
  private readonly byHash = new Map<string, Principal>();
  async findPrincipal(keyHash: string): Promise<Principal | undefined> {
    return this.byHash.get(keyHash);
  }
  async putPrincipal(principal: Principal): Promise<void> {
    if (this.byHash.has(principal.keyHash)) throw new Error('principal exists');
    this.byHash.set(principal.keyHash, principal);
  }
  async revokePrincipal(keyHash: string, at: string): Promise<boolean> {
    const principal = this.byHash.get(keyHash);
    if (!principal) return false;
    this.byHash.set(keyHash, { ...principal, revokedAt: principal.revokedAt ?? at });
    return true;
  }
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();
  async beginIdempotent(record: IdempotencyRecord, nowSeconds: number) {
    const existing = this.records.get(scope(record.operatorId, record.key));
    if (existing && existing.expiresAt >= nowSeconds) return existing;
    this.records.set(scope(record.operatorId, record.key), record);
    return undefined;
  }
  async takeOverIdempotent(
    operatorId: string,
    key: string,
    expectedToken: string,
    lockToken: string,
    lockedUntil: number,
  ) {
    const existing = this.records.get(scope(operatorId, key));
    if (existing?.lockToken !== expectedToken || existing.state !== 'IN_FLIGHT') return false;
    this.records.set(scope(operatorId, key), { ...existing, lockToken, lockedUntil });
    return true;
  }
  async completeIdempotent(operatorId: string, key: string, lockToken: string, response: StoredResponse) {
    const existing = this.records.get(scope(operatorId, key));
    if (existing?.lockToken !== lockToken) return;
    this.records.set(scope(operatorId, key), { ...existing, state: 'DONE', response });
  }
  async releaseIdempotent(operatorId: string, key: string, lockToken: string) {
    const existing = this.records.get(scope(operatorId, key));
    if (existing?.lockToken === lockToken && existing.state === 'IN_FLIGHT') {
      this.records.delete(scope(operatorId, key));
    }
  }
}

const scope = (operatorId: string, key: string): string => `${operatorId}#${key}`;
