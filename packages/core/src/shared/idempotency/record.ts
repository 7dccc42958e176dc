/** The first answer to a request, kept so that a retry with the same key gets it again. */
export interface StoredResponse {
  status: number;
  /** The JSON body exactly as first sent (a string, so a replay is byte-identical). */
  body: string;
  headers?: Record<string, string>;
}

export interface IdempotencyRecord {
  operatorId: string;
  key: string;
  /** SHA-256 of the request (method, route, path parameters, body): same key + other request = 422. */
  fingerprint: string;
  state: 'IN_FLIGHT' | 'DONE';
  /** Who holds the in-flight lock, and until when (ms since epoch); a crashed holder's lock lapses. */
  lockToken: string;
  lockedUntil: number;
  response?: StoredResponse;
  createdAt: string;
  /** Seconds since epoch after which the record is forgotten (DynamoDB TTL). */
  expiresAt: number;
}

/** The slice of the Store port that idempotency needs. Every write is conditional. */
export interface IdempotencyStore {
  /** Writes the record if no live one exists for (operatorId, key); else returns the existing one. */
  beginIdempotent(record: IdempotencyRecord, nowSeconds: number): Promise<IdempotencyRecord | undefined>;
  /** Takes over an IN_FLIGHT record whose lock has lapsed; false if someone else changed it first. */
  takeOverIdempotent(
    operatorId: string,
    key: string,
    expectedToken: string,
    lockToken: string,
    lockedUntil: number,
  ): Promise<boolean>;
  /** Records the answer; conditional on still holding the lock. */
  completeIdempotent(
    operatorId: string,
    key: string,
    lockToken: string,
    response: StoredResponse,
  ): Promise<void>;
  /** Forgets an in-flight record (the request failed in a way a retry may fix); conditional on the lock. */
  releaseIdempotent(operatorId: string, key: string, lockToken: string): Promise<void>;
}
