/**
 * The keys of a bundle or proof: their certificates (generation chain and validity intervals), which
 * of them the caller trusts, and the signature checks that name a key and a time.
 */
import { bytesToHex } from './bytes';
import { canonicalJson } from './canonical';
import {
  intervalText,
  keyCertificateDigest,
  type SignedKeyCertificate,
  type ValidKey,
  validAt,
  verifyKeyChain,
} from './keys';
import { keyFingerprint, parsePublicKey, verifyBase64Signature } from './signature';
import type { Report } from './verify-report';
import { readAnchor } from './verify-timestamps';

export class KeyRing {
  /** Generations whose certificates checked out, by key id. */
  readonly byId = new Map<string, ValidKey>();
  /** Ids of the keys the caller trusts (directly, or certified by a trusted predecessor). */
  readonly trusted: Set<string>;
  /** Whether the caller named any key to trust. */
  readonly pinned: boolean;
  /** Whether the caller gave the certificates (as the service lists them). */
  readonly certified: boolean;
  /** Key ids that signed something in the evidence. */
  readonly used = new Set<string>();

  private constructor(trusted: Set<string>, pinned: boolean, certified: boolean, keys: readonly ValidKey[]) {
    this.trusted = trusted;
    this.pinned = pinned;
    this.certified = certified;
    for (const key of keys) if (!this.byId.has(key.keyId)) this.byId.set(key.keyId, key);
  }

  /**
   * Checks the certificates (`keys.chain`), those the caller obtained from the service against them
   * (`keys.certificates`), and which generations the caller trusts: a pinned key, and each generation
   * the caller's certificates show certified by a trusted one — never one certified only in the
   * evidence. Validity intervals come from the caller's certificates when given (a bundle that
   * leaves out a later generation cannot stretch an earlier one's), each rotation's start moved to
   * its outside time-stamp (`keys.stamped`). Asynchronous because the certificates' signatures are
   * (`verifyDerSignature`).
   */
  static async of(
    report: Report,
    certificates: readonly SignedKeyCertificate[],
    trustedPublicKey: string | readonly string[] | undefined,
    givenCertificates?: readonly SignedKeyCertificate[],
    timeStampAuthorities: readonly (string | Uint8Array)[] = [],
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
    const trusted = new Set<string>();
    if (givenCertificates === undefined) {
      // Only the pinned keys themselves: a successor's certificate in the evidence proves nothing.
      for (const key of chain.keys) if (fingerprints.has(key.fingerprint)) trusted.add(key.keyId);
      await checkRotationStamps(report, chain.keys, certificates, timeStampAuthorities);
      return new KeyRing(trusted, list.length > 0, false, chain.keys);
    }
    const given = await verifyKeyChain(givenCertificates);
    report.add('keys.certificates', ...compareCertificates(certificates, givenCertificates, given));
    // A generation certified (in the caller's certificates) by a trusted one is trusted too: the
    // predecessor vouched for it at the handover, and a retired generation can no longer sign.
    let previousTrusted = false;
    for (const key of given.keys) {
      if (fingerprints.has(key.fingerprint) || previousTrusted) trusted.add(key.keyId);
      previousTrusted = trusted.has(key.keyId);
    }
    // The caller's generations (and their intervals) first; a generation only the evidence
    // certifies stays checkable, never trusted.
    await checkRotationStamps(report, given.keys, givenCertificates, timeStampAuthorities);
    const keys = [...given.keys, ...chain.keys.filter((k) => !given.keys.some((g) => g.keyId === k.keyId))];
    return new KeyRing(trusted, list.length > 0, true, keys);
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
    const why = this.certified
      ? 'not a trusted key nor certified by one in the certificates you gave'
      : 'not a key you trust: a successor is trusted only through the certificates the service lists (GET /v1/signing-key, --key-certificates), never through one the evidence carries';
    report.add(
      'keys.trusted',
      untrusted.length === 0,
      untrusted.length === 0
        ? `every signature is by a trusted key (${used.join(', ')})`
        : `signed by ${untrusted.map((id) => `${id} (SHA-256 ${this.byId.get(id)?.fingerprint})`).join(', ')}, ${why}`,
    );
  }
}

/**
 * `keys.stamped` (only when a rotation is in the keys): each generation after the first carries a
 * time-stamp over its signed certificate by a TSA the caller pinned, and may sign only from the
 * earliest instant a verified token allows (genTime − accuracy): its `from` is moved there. A successor
 * certified at a backdated `validFrom` (F3) is then valid only from when it was really made. Without
 * pinned TSAs the stamps are not checked (`untrusted`) and the intervals stay as certified.
 */
async function checkRotationStamps(
  report: Report,
  keys: readonly ValidKey[],
  certificates: readonly SignedKeyCertificate[],
  pinned: readonly (string | Uint8Array)[],
): Promise<void> {
  const rotated = keys.filter((k) => k.generation > 1);
  if (rotated.length === 0) return;
  if (pinned.length === 0) {
    report.untrusted(
      'keys.stamped',
      `the rotation to generation ${rotated.map((k) => k.generation).join(', ')} is not checked against its time-stamp: no time-stamp authority pinned (--trust-tsa), so its validity starts where its certificate, the platform's own claim, says`,
    );
    return;
  }
  const problems: string[] = [];
  const notes: string[] = [];
  for (const key of rotated) {
    const signed = certificates.find((c) => c.certificate.generation === key.generation);
    const what = `generation ${key.generation} (${key.keyId}, valid from ${new Date(key.from).toISOString()})`;
    if (!signed?.anchor) {
      problems.push(
        `${what} carries no time-stamp: nothing outside the platform shows when its certificate was made`,
      );
      continue;
    }
    const digest = keyCertificateDigest(signed);
    const reading = await readAnchor(signed.anchor, digest, pinned);
    if (!reading.included) {
      problems.push(
        `${what}: its digest ${bytesToHex(digest)} is not under the stamped root ${signed.anchor.root}`,
      );
      continue;
    }
    if (reading.verified.length === 0) {
      problems.push(
        `${what}: no token verifies against the pinned time-stamp authorities: ${reading.refused.join('; ')}`,
      );
      continue;
    }
    const stamped = Math.min(...reading.verified.map((v) => v.genTime - v.accuracyMs));
    const by = reading.verified.find((v) => v.genTime - v.accuracyMs === stamped)!.text;
    if (stamped > key.from) {
      key.from = stamped;
      notes.push(
        `${what} stamped by ${by}: it signs from ${new Date(stamped).toISOString()} (genTime − accuracy)`,
      );
    } else {
      notes.push(`${what} stamped by ${by}`);
    }
    if (key.from >= key.until) {
      problems.push(`${what} was stamped at or after the next generation took over: it may sign nothing`);
    }
  }
  report.add(
    'keys.stamped',
    problems.length === 0,
    problems.length === 0 ? notes.join('; ') : problems.join('; '),
  );
}

/**
 * `keys.certificates`: the caller's certificates form a chain, and every certificate the evidence
 * carries is, field for field, the one the caller's list has for its generation.
 */
function compareCertificates(
  evidence: readonly SignedKeyCertificate[],
  given: readonly SignedKeyCertificate[],
  givenChain: Awaited<ReturnType<typeof verifyKeyChain>>,
): [boolean, string] {
  const problems: string[] = [];
  if (!givenChain.ok) problems.push(`the certificates you gave are not a chain: ${givenChain.detail}`);
  for (const { certificate: c } of evidence) {
    const listed = given.find((g) => g.certificate.generation === c.generation)?.certificate;
    if (!listed) {
      problems.push(
        `generation ${c.generation} (${c.keyId}, valid from ${c.validFrom}) is certified only in the evidence: the certificates you gave list ${given.length} generation(s)`,
      );
    } else if (canonicalJson(listed) !== canonicalJson(c)) {
      problems.push(
        `generation ${c.generation} in the evidence (${c.keyId}, valid from ${c.validFrom}) is not the one you were given (${listed.keyId}, valid from ${listed.validFrom})`,
      );
    }
  }
  return problems.length === 0
    ? [
        true,
        `the evidence's ${evidence.length} certificate(s) are those you were given; ${givenChain.keys
          .map((k) => `generation ${k.generation} ${k.keyId} valid ${intervalText(k)}`)
          .join('; ')}`,
      ]
    : [false, problems.join('; ')];
}
