/**
 * Why a key-service call failed, in words the rest of the system can act on. Not a DomainError: these
 * are infrastructure failures (the HTTP edge answers 500/503), except SEALED_SEED_INVALID, which means
 * the sealed seed does not belong to the shoe/operator it was opened for (or was corrupted).
 */
export type KeyServiceErrorCode =
  /** Throttled, timed out or KMS-internal: worth retrying later. */
  | 'KEY_SERVICE_UNAVAILABLE'
  /** Missing permission, unknown/disabled key, wrong key usage: an operator must fix the setup. */
  | 'KEY_SERVICE_MISCONFIGURED'
  /** Decryption refused: wrong encryption context or damaged ciphertext. */
  | 'SEALED_SEED_INVALID'
  /** The service answered something the port cannot honour (e.g. a seed of the wrong size). */
  | 'KEY_SERVICE_BAD_RESPONSE'
  /** `publicKey(keyId)`: no such signing key, or not one this service may read (port SIGNING_KEY_UNKNOWN). */
  | 'SIGNING_KEY_UNKNOWN'
  /** The local stand-in was asked to run in production. */
  | 'LOCAL_KEYS_IN_PRODUCTION'
  | 'KEY_SERVICE_FAILED';

/** Why the local stand-in refuses to run (in production, in Lambda, in a Lambda bundle). */
export const LOCAL_KEYS_REFUSED =
  'the local key service is for development only; configure AWS KMS (KEY_SERVICE=kms) in production';

export class KeyServiceError extends Error {
  override readonly name = 'KeyServiceError';
  constructor(
    readonly code: KeyServiceErrorCode,
    message: string,
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
