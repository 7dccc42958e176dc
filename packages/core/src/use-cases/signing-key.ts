/** The public half of a signing key, for verifiers (`GET /v1/signing-key`, public). */
import { DomainError } from '../errors';
import { isUnknownSigningKey, type KeyService, type PublicKey } from '../ports/key-service';

/**
 * Without an id, the key that signs now; with one, the key a statement names, current or retired.
 * An id the key service cannot answer for is SIGNING_KEY_NOT_FOUND; what KMS answered is not echoed
 * (it names the platform's account and roles).
 */
export async function signingKey(
  keys: KeyService,
  input: { keyId?: string | undefined },
): Promise<PublicKey> {
  try {
    return await keys.publicKey(input.keyId);
  } catch (error) {
    if (input.keyId === undefined || !isUnknownSigningKey(error)) throw error;
    throw new DomainError('NOT_FOUND', 'SIGNING_KEY_NOT_FOUND', `no signing key ${input.keyId}`);
  }
}
