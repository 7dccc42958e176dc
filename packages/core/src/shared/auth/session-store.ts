/**
 * The Sessions port: launch tokens, player sessions and players' revocation markers. Only hashes of
 * the opaque tokens are stored. Every write that spends something (a launch token, a refresh token) is
 * conditional, so two requests racing with one token cannot both win (DynamoDB adapter: the sessions
 * table, @pyb/store-dynamodb sessions.ts; docs/data-model.md).
 */

export interface LaunchRecord {
  /** SHA-256 (hex) of the launch token. */
  tokenHash: string;
  operatorId: string;
  playerId: string;
  tableId?: string;
  currency?: string;
  createdAt: string;
  expiresAt: string;
  /** Set by the one exchange that spent it. */
  usedAt?: string;
}

export interface SessionRecord {
  sessionId: string;
  operatorId: string;
  playerId: string;
  tableId?: string;
  currency?: string;
  createdAt: string;
  /** No refresh past this (a session lasts at most SESSION_HOURS from its launch). */
  endsAt: string;
  /** SHA-256 (hex) of the one refresh token that may be spent now. */
  refreshHash: string;
  refreshedAt?: string;
  /** Ended (logout, or a spent refresh token presented again): every token of it is refused. */
  endedAt?: string;
  endReason?: 'LOGOUT' | 'REFRESH_REUSED';
}

export interface SessionStore {
  /** Refuses (throws) a launch of the same hash. */
  putLaunch(launch: LaunchRecord): Promise<void>;
  /**
   * Marks the launch used if nobody did: `spent` true for this call only. `launch` is the record as it
   * was (undefined: never issued, or forgotten after it expired).
   */
  spendLaunch(tokenHash: string, at: string): Promise<{ launch?: LaunchRecord; spent: boolean }>;
  putSession(session: SessionRecord): Promise<void>;
  /** Strongly consistent: a logout is seen by the next request. */
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  /** Swaps the refresh hash if it is still `from` and the session not ended; false otherwise. */
  rotateRefresh(sessionId: string, from: string, to: string, at: string): Promise<boolean>;
  /** Ends the session (again: no change). */
  endSession(sessionId: string, at: string, reason: NonNullable<SessionRecord['endReason']>): Promise<void>;
  /** The player's revocation instant: sessions and launches made at or before it are refused. */
  revokedBefore(operatorId: string, playerId: string): Promise<string | undefined>;
  /** Moves the player's revocation instant to `at` (never back); returns the instant now in force. */
  revokePlayer(operatorId: string, playerId: string, at: string): Promise<string>;
}
