/**
 * The HTTP edge's two stores in memory (API keys, Idempotency-Key records), with the semantics of
 * their DynamoDB adapters (@pyb/store-dynamodb principals.ts, idempotency.ts): for tests that invoke
 * the real handlers on the in-memory Store, where no table holds them.
 */
import type {
  IdempotencyRecord,
  IdempotencyStore,
  LaunchRecord,
  Principal,
  PrincipalStore,
  SessionRecord,
  SessionStore,
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

/** Players' launches, sessions and revocations, as the DynamoDB adapter keeps them (sessions.ts). */
export class MemorySessionStore implements SessionStore {
  readonly launches = new Map<string, LaunchRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly revoked = new Map<string, string>();
  async putLaunch(launch: LaunchRecord): Promise<void> {
    if (this.launches.has(launch.tokenHash)) throw new Error('launch exists');
    this.launches.set(launch.tokenHash, { ...launch });
  }
  async spendLaunch(tokenHash: string, at: string) {
    const launch = this.launches.get(tokenHash);
    if (!launch) return { spent: false };
    if (launch.usedAt !== undefined) return { launch: { ...launch }, spent: false };
    this.launches.set(tokenHash, { ...launch, usedAt: at });
    return { launch: { ...launch }, spent: true };
  }
  async putSession(session: SessionRecord): Promise<void> {
    if (this.sessions.has(session.sessionId)) throw new Error('session exists');
    this.sessions.set(session.sessionId, { ...session });
  }
  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(sessionId);
    return session && { ...session };
  }
  async rotateRefresh(sessionId: string, from: string, to: string, at: string): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (!session || session.refreshHash !== from || session.endedAt !== undefined) return false;
    this.sessions.set(sessionId, { ...session, refreshHash: to, refreshedAt: at });
    return true;
  }
  async endSession(sessionId: string, at: string, reason: NonNullable<SessionRecord['endReason']>) {
    const session = this.sessions.get(sessionId);
    if (session && session.endedAt === undefined)
      this.sessions.set(sessionId, { ...session, endedAt: at, endReason: reason });
  }
  async revokedBefore(operatorId: string, playerId: string): Promise<string | undefined> {
    return this.revoked.get(`${operatorId}#${playerId}`);
  }
  async revokePlayer(operatorId: string, playerId: string, at: string): Promise<string> {
    const id = `${operatorId}#${playerId}`;
    const before = this.revoked.get(id);
    if (before === undefined || before < at) this.revoked.set(id, at);
    return this.revoked.get(id)!;
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
