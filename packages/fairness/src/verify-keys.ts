/**
 * The keys of a bundle or proof: their certificates (generation chain and validity intervals), which
 * of them the caller trusts, and the signature checks that name a key and a time.
 */
import { intervalText, type SignedKeyCertificate, type ValidKey, validAt, verifyKeyChain } from './keys';
import { keyFingerprint, parsePublicKey, verifyBase64Signature } from './signature';
import type { Report } from './verify-report';

export class KeyRing {
  /** Generations whose certificates checked out, by key id. */
  readonly byId = new Map<string, ValidKey>();
  /** Ids of the keys the caller trusts (directly, or certified by a trusted predecessor). */
  readonly trusted: Set<string>;
  /** Whether the caller named any key to trust. */
  readonly pinned: boolean;
  /** Key ids that signed something in the evidence. */
  readonly used = new Set<string>();

  private constructor(trusted: Set<string>, pinned: boolean, keys: readonly ValidKey[]) {
    this.trusted = trusted;
    this.pinned = pinned;
    for (const key of keys) this.byId.set(key.keyId, key);
  }

  /**
   * Checks the certificates (`keys.chain`) and which generations the caller trusts. Asynchronous
   * because the certificates' signatures are (`verifyDerSignature`).
   */
  static async of(
    report: Report,
    certificates: readonly SignedKeyCertificate[],
    trustedPublicKey: string | readonly string[] | undefined,
  ): Promise<KeyRing> {
    const chain = await verifyKeyChain(certificates);
    report.add(
      'keys.chain',
      chain.ok,
      chain.ok
        ? chain.keys.map((k) => `generation ${k.generation} ${k.keyId} valid ${intervalText(k)}`).join('; ')
        : chain.detail,
    );
    const list =
      trustedPublicKey === undefined
        ? []
        : typeof trustedPublicKey === 'string'
          ? [trustedPublicKey]
          : trustedPublicKey;
    const fingerprints = new Set(list.map((k) => keyFingerprint(parsePublicKey(k))));
    // A generation certified by a trusted one is trusted too: the predecessor vouched for it at the
    // handover, and a retired generation can no longer sign.
    const trusted = new Set<string>();
    let previousTrusted = false;
    for (const key of chain.keys) {
      if (fingerprints.has(key.fingerprint) || previousTrusted) trusted.add(key.keyId);
      previousTrusted = trusted.has(key.keyId);
    }
    return new KeyRing(trusted, list.length > 0, chain.keys);
  }

  /**
   * Checks a signature by the key `keyId` over `message`: the key has a certificate and the signature
   * verifies. Records the key as used. Whether the key was valid when it signed is `validAt`.
   */
  async signed(
    keyId: string,
    message: Uint8Array,
    signature: string,
  ): Promise<{ ok: true; key: ValidKey } | { ok: false; detail: string }> {
    const key = this.byId.get(keyId);
    if (!key) return { ok: false, detail: `key ${keyId} has no valid certificate in the evidence` };
    this.used.add(keyId);
    return (await verifyBase64Signature(message, signature, key.spki))
      ? { ok: true, key }
      : { ok: false, detail: `the signature does not verify with key ${keyId}` };
  }

  /** Whether key `keyId` may sign at `at`: undefined when it may, else why not. */
  invalidAt(keyId: string, at: string): string | undefined {
    const key = this.byId.get(keyId);
    if (!key) return `key ${keyId} has no valid certificate in the evidence`;
    if (validAt(key, at)) return undefined;
    return `dated ${at}, but generation ${key.generation} (${keyId}) is valid ${intervalText(key)} only: a key cannot sign what is dated outside its validity`;
  }

  /** The `keys.trusted` check, once every signature was checked. */
  report(report: Report): void {
    const used = [...this.used];
    if (!this.pinned) {
      report.untrusted(
        'keys.trusted',
        `no trusted key was given: the signatures check out with the keys the evidence carries (${used.map((id) => `${id} SHA-256 ${this.byId.get(id)?.fingerprint}`).join(', ')}), which anyone can make; pass the operator's published key to verify`,
      );
      return;
    }
    const untrusted = used.filter((id) => !this.trusted.has(id));
    report.add(
      'keys.trusted',
      untrusted.length === 0,
      untrusted.length === 0
        ? `every signature is by a trusted key (${used.join(', ')})`
        : `signed by ${untrusted.map((id) => `${id} (SHA-256 ${this.byId.get(id)?.fingerprint})`).join(', ')}, not a trusted key nor certified by one`,
    );
  }
}
