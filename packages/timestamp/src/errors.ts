/** Every way a time-stamp can fail, by a stable name a caller (and a verifier's report) can act on. */
export type TimeStampFailureCode =
  /** The bytes are not a CMS SignedData carrying a TSTInfo. */
  | 'NOT_A_TOKEN'
  /** The bytes are not a TimeStampResp. */
  | 'NOT_A_RESPONSE'
  /** The token stamps a digest made with another algorithm than SHA-256. */
  | 'WRONG_HASH_ALGORITHM'
  /** The token stamps another digest than the one asked for. */
  | 'IMPRINT_MISMATCH'
  /** The token answers another request (its nonce is not the one sent). */
  | 'NONCE_MISMATCH'
  /** No certificate the caller pinned signed the token, directly or through a chain. */
  | 'UNTRUSTED_TSA'
  /** The signing certificate lacks the critical extended key usage id-kp-timeStamping (RFC 3161 §2.3). */
  | 'NOT_A_TSA_CERTIFICATE'
  /** The signing certificate was not valid at the token's genTime. */
  | 'CERTIFICATE_NOT_VALID_AT_GENTIME'
  /** The signed attributes do not name the signing certificate (ESS signing-certificate, RFC 3161 §2.4.1). */
  | 'SIGNING_CERTIFICATE_MISMATCH'
  /** The signature, or the digest of the signed content, does not verify. */
  | 'BAD_SIGNATURE'
  /** The TSA answered with a status other than granted. */
  | 'TSA_REJECTED'
  /** The TSA could not be reached, timed out, or answered something that is not a reply. */
  | 'TSA_UNREACHABLE'
  /** No TSA of a set gave a token that verifies: the caller waits or locks, never goes on unanchored. */
  | 'TSA_UNAVAILABLE';

export interface AuthorityFailure {
  readonly authority: string;
  readonly code: TimeStampFailureCode;
  readonly message: string;
}

export class TimeStampError extends Error {
  override readonly name = 'TimeStampError';
  constructor(
    readonly code: TimeStampFailureCode,
    message: string,
    /** For TSA_UNAVAILABLE: why each authority failed. */
    readonly failures: readonly AuthorityFailure[] = [],
  ) {
    super(`${code}: ${message}`);
  }
}

export function failureOf(authority: string, error: unknown): AuthorityFailure {
  if (error instanceof TimeStampError) {
    return { authority, code: error.code, message: error.message };
  }
  return { authority, code: 'TSA_UNREACHABLE', message: String(error) };
}
