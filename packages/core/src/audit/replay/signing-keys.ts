/**
 * The public keys a shoe's signatures are checked with, looked up by the id each signed statement
 * names (the statement at open, the chain head at close) — never the key service's current key, which
 * after a rotation is another one. One lookup per id per request. A key counts only through the
 * platform's key chain (docs/provably-fair.md §4.2): the key service's key must be the one a
 * certificate of that chain names, the chain checking out from generation 1 — a key the key service
 * can read but the chain never certified (one made outside the handover) signs nothing here.
 */
import { keyFingerprint, type SignedKeyCertificate, verifyKeyChain } from '@pyb/fairness';
import { isUnknownSigningKey, type KeyService, type PublicKey } from '../../shared';

export type KeyLookup =
  | { keyId: string; key: PublicKey }
  /**
   * The key service does not know the key, or may not read it, or the key chain does not certify
   * it (`reason`). What the key service answered stays out of replies: a KMS refusal names the
   * platform's account and roles.
   */
  | { keyId: string; key: undefined; reason?: string };

export class SigningKeys {
  private readonly lookups = new Map<string, Promise<KeyLookup>>();
  private chain: ReturnType<typeof verifyKeyChain> | undefined;

  /** `certificates`: every generation's, oldest first (the stored chain); without it, no chain check. */
  constructor(
    private readonly keys: KeyService,
    private readonly certificates?: () => Promise<readonly SignedKeyCertificate[]>,
  ) {}

  /** The key named `keyId`; a key service failure other than "unknown key" rejects (retry later). */
  get(keyId: string): Promise<KeyLookup> {
    let pending = this.lookups.get(keyId);
    if (!pending) {
      pending = this.keys.publicKey(keyId).then(
        (key): Promise<KeyLookup> => this.certified(keyId, key),
        (error: unknown): KeyLookup => {
          if (!isUnknownSigningKey(error)) throw error;
          return { keyId, key: undefined };
        },
      );
      this.lookups.set(keyId, pending);
    }
    return pending;
  }

  private async certified(keyId: string, key: PublicKey): Promise<KeyLookup> {
    if (!this.certificates) return { keyId, key };
    this.chain ??= this.certificates().then(verifyKeyChain);
    const chain = await this.chain;
    const certified = chain.keys.find((k) => k.keyId === keyId);
    if (!certified) {
      return {
        keyId,
        key: undefined,
        reason: chain.ok
          ? `no certificate of the platform's key chain names key ${keyId}: a key is trusted only through that chain`
          : `the platform's key certificates do not check out (${chain.detail}) before key ${keyId}`,
      };
    }
    if (certified.fingerprint !== keyFingerprint(key.spki)) {
      return {
        keyId,
        key: undefined,
        reason: `the key service's key ${keyId} is not the key its certificate (generation ${certified.generation}) names`,
      };
    }
    return { keyId, key };
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
      lookup.reason === undefined
        ? `${what} names signing key ${lookup.keyId}, which the key service does not know or may not read: its signature cannot be checked`
        : `${what} names signing key ${lookup.keyId}: ${lookup.reason}`,
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
