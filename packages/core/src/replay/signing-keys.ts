/**
 * The public keys a shoe's signatures are checked with, looked up by the id each signed statement
 * names (the statement at open, the chain head at close) — never the key service's current key, which
 * after a rotation is another one. One lookup per id per request.
 */
import { isUnknownSigningKey, type KeyService, type PublicKey } from '../ports/key-service';

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
