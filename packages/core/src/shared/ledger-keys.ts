/**
 * The ledger's idempotency keys, scoped in a wallet: `c:<key>` for a client's call (its
 * Idempotency-Key), `s:<what>#…` for the platform's own movements. A key is written once (a
 * conditional put), so each movement happens at most once; readers find an entry by its key.
 */
export const clientKey = (idempotencyKey: string): string => `c:${idempotencyKey}`;
/** The payout (and commission) of a settled position. */
export const settleKey = (roundId: string, playerId: string): string => `s:settle#${roundId}#${playerId}`;
/** The refund of a voided round's position. */
export const refundKey = (roundId: string, playerId: string): string => `s:refund#${roundId}#${playerId}`;
/** The n-th collection (1-based) of a player's deferred commission for a shoe. */
export const commissionKey = (shoeId: string, playerId: string, n: number): string =>
  `s:commission#${shoeId}#${playerId}#${n}`;
/** The end of a player's table session (he left the table). */
export const sessionEndKey = (sessionId: string): string => `s:session-end#${sessionId}`;
