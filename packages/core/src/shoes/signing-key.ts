/** The public half of a signing key and its validity, for verifiers (`GET /v1/signing-key`, public). */

import type { Ctx, SigningKeyAnswer } from '../shared';
import { isUnknownSigningKey, notFound, type PublicKey } from '../shared';
import { keyCertificates } from './signing';

/**
 * Without an id, the key that signs now; with one, the key a statement names, current or retired,
 * each with its certificate and validity interval, and every generation's certificate (what a
 * verifier pins: it trusts a successor only through these, never through a bundle's). An id the key service cannot answer for is
 * SIGNING_KEY_NOT_FOUND; what KMS answered is not echoed (it names the platform's account and roles).
 */
export async function signingKey(ctx: Ctx, input: { keyId?: string | undefined }): Promise<SigningKeyAnswer> {
  let key: PublicKey;
  try {
    key = await ctx.keys.publicKey(input.keyId);
  } catch (error) {
    if (input.keyId === undefined || !isUnknownSigningKey(error)) throw error;
    throw notFound('signingKey', input.keyId, `no signing key ${input.keyId}`);
  }
  const certificates = await keyCertificates(ctx);
  const index = certificates.findIndex((c) => c.certificate.keyId === key.keyId);
  return {
    key,
    certificate: index < 0 ? null : certificates[index]!,
    // A generation signs until the next one's validFrom: its validity ends there.
    validUntil: index < 0 ? null : (certificates[index + 1]?.certificate.validFrom ?? null),
    certificates,
  };
}
