/**
 * The public keys a shoe's signatures are checked with, looked up by the id each signed statement
 * names (the statement at open, the chain head at close) — never the key service's current key, which
 * after a rotation is another one. One lookup per id per request.
 */
import { isUnknownSigningKey, type KeyService, type PublicKey } from '../../shared';

export type KeyLookup =
  | { keyId: string; key: PublicKey }
  /**
   * The key service does not know the key, or may not read it. What it answered stays out of
   * replies: a KMS refusal names the platform's account and roles.
   */
  | { keyId: string; key: undefined };

export class SigningKeys {
  private readonly lookups = new Map<string, Promise<KeyLookup>>();

  constructor(private readonly keys: KeyService) {}

  /** The key named `keyId`; a key service failure other than "unknown key" rejects (retry later). */
  get(keyId: string): Promise<KeyLookup> {
    let pending = this.lookups.get(keyId);
    if (!pending) {
      pending = this.keys.publicKey(keyId).then(
        (key): KeyLookup => ({ keyId, key }),
        (error: unknown): KeyLookup => {
          if (!isUnknownSigningKey(error)) throw error;
          return { keyId, key: undefined };
        },
      );
      this.lookups.set(keyId, pending);
    }
    return pending;
  }
}

/**
 * Whether a signature verifies with the key it names (current or retired); 'unknown', told to
 * `unknown` as a SIGNING_KEY_UNKNOWN detail, when the key service cannot give that key: the signature
 * cannot be checked, which is not the same as forged. `verify` throwing is a signature that does not
 * verify; its promise rejecting (the curve's code did not load) rejects: that is no verdict on the
 * signature.
 */
export async function verifiedWith(
  lookup: KeyLookup,
  what: string,
  verify: (spki: Uint8Array) => Promise<boolean>,
  unknown: (detail: string) => void,
): Promise<boolean | 'unknown'> {
  if (!lookup.key) {
    unknown(
      `${what} names signing key ${lookup.keyId}, which the key service does not know or may not read: its signature cannot be checked`,
    );
    return 'unknown';
  }
  let verdict: Promise<boolean>;
  try {
    verdict = verify(lookup.key.spki);
  } catch {
    return false;
  }
  return verdict;
}
