/**
 * The outside times of docs/provably-fair.md §4.2 (rotation stamps) and §15.11 (heads naming a beacon
 * round), written from the documents alone: docs/time-stamps.md §2 (what a token must be) and §3.3
 * (the Merkle tree). Synchronous, on Node's crypto and X509Certificate with a small DER reader of its
 * own — no pkijs, no asn1js, no code of packages/timestamp — so a token our library accepts and this
 * refuses (or the reverse) shows one of them, or the document, wrong.
 */
import { createHash, verify, X509Certificate } from 'node:crypto';

// ---------------------------------------------------------------------------------------------
// DER: just enough to walk a CMS SignedData, a TSTInfo and an X.509 certificate.

interface Tlv {
  tag: number;
  /** The value octets. */
  body: Buffer;
  /** The whole encoding, tag and length included. */
  whole: Buffer;
  end: number;
}

function tlv(buf: Buffer, at = 0): Tlv {
  const tag = buf[at];
  if (tag === undefined || (tag & 0x1f) === 0x1f) throw new Error('DER: bad tag');
  let length = buf[at + 1];
  let p = at + 2;
  if (length === undefined) throw new Error('DER: truncated');
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4) throw new Error('DER: bad length');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + (buf[p++] ?? Number.NaN);
  }
  const end = p + length;
  if (!(end <= buf.length)) throw new Error('DER: truncated');
  return { tag, body: buf.subarray(p, end), whole: buf.subarray(at, end), end };
}

/** The one TLV that is all of `buf`. */
function only(buf: Buffer): Tlv {
  const t = tlv(buf);
  if (t.end !== buf.length) throw new Error('DER: trailing bytes');
  return t;
}

function children(t: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < t.body.length; ) {
    const c = tlv(t.body, at);
    out.push(c);
    at = c.end;
  }
  return out;
}

function expectTag(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || t.tag !== tag) throw new Error(`${what}: not found`);
  return t;
}

/** An OCTET STRING's bytes; a constructed one (0x24, as pkijs writes eContent) is its pieces joined. */
function octets(t: Tlv | undefined, what: string): Buffer {
  if (t?.tag === 0x24) return Buffer.concat(children(t).map((piece) => octets(piece, what)));
  return expectTag(t, 0x04, what).body;
}

function oid(t: Tlv | undefined): string {
  const { body } = expectTag(t, 0x06, 'OID');
  const arcs: number[] = [];
  let value = 0;
  for (const byte of body) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** GeneralizedTime YYYYMMDDHHMMSS[.f+]Z as ms since the epoch. */
function generalizedTime(t: Tlv): number {
  const text = expectTag(t, 0x18, 'genTime').body.toString('latin1');
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d+))?Z$/.exec(text);
  if (!m) throw new Error(`genTime ${text}: not a UTC GeneralizedTime`);
  const [, y, mo, d, h, mi, s, f] = m;
  const ms = f ? Number(`0.${f}`) * 1000 : 0;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) + ms;
}

// ---------------------------------------------------------------------------------------------
// The OIDs docs/time-stamps.md §2 names.

const SIGNED_DATA = '1.2.840.113549.1.7.2';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
const CONTENT_TYPE = '1.2.840.113549.1.9.3';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const SIGNING_CERTIFICATE = '1.2.840.113549.1.9.16.2.12';
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const SUBJECT_KEY_IDENTIFIER = '2.5.29.14';
const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
/** Signature algorithms: ECDSA or RSA PKCS#1 v1.5, with the hash they name (or the SignerInfo's). */
const SIGNATURES: Record<string, string | null> = {
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.2.840.113549.1.1.1': null,
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
};

const hashOf = (algorithm: Tlv | undefined): string => {
  const name = HASHES[oid(children(expectTag(algorithm, 0x30, 'AlgorithmIdentifier'))[0])];
  if (!name) throw new Error('unknown hash algorithm');
  return name;
};
const digest = (name: string, data: Buffer) => createHash(name).update(data).digest();

// ---------------------------------------------------------------------------------------------
// X.509: the fields of the TBSCertificate the checks need.

interface Cert {
  x509: X509Certificate;
  raw: Buffer;
  issuer: Buffer;
  serial: Buffer;
  extensions: { id: string; critical: boolean; value: Buffer }[];
}

function cert(raw: Buffer): Cert {
  const tbs = children(children(only(raw))[0]!);
  const at = tbs[0]?.tag === 0xa0 ? 1 : 0;
  const extensions = tbs.find((t) => t.tag === 0xa3);
  return {
    x509: new X509Certificate(raw),
    raw,
    serial: expectTag(tbs[at], 0x02, 'serial').body,
    issuer: expectTag(tbs[at + 2], 0x30, 'issuer').whole,
    extensions: extensions
      ? children(children(extensions)[0]!).map((ext) => {
          const [id, second, third] = children(ext);
          const critical = second?.tag === 0x01 && second.body[0] !== 0;
          return { id: oid(id), critical, value: (second?.tag === 0x04 ? second : third)!.body };
        })
      : [],
  };
}

const pem = (text: string) => Buffer.from(new X509Certificate(text).raw);
const validAt = (c: Cert, at: number) =>
  Date.parse(c.x509.validFrom) <= at && at <= Date.parse(c.x509.validTo);

// ---------------------------------------------------------------------------------------------
// docs/time-stamps.md §2: one token.

export interface TokenTime {
  genTime: number;
  accuracyMs: number;
}

/**
 * The time a base64 DER TimeStampToken vouches for, when it stamps `imprint` (hex) and its signer is
 * trusted through `pinned` (PEM certificates); otherwise throws, saying why.
 */
export function independentTokenTime(token: string, imprint: string, pinned: readonly string[]): TokenTime {
  const [type, content] = children(only(Buffer.from(token, 'base64')));
  if (oid(type) !== SIGNED_DATA) throw new Error('not signedData');
  const signedData = children(
    expectTag(children(expectTag(content, 0xa0, 'content'))[0], 0x30, 'SignedData'),
  );
  const [eType, eWrapped] = children(expectTag(signedData[2], 0x30, 'encapContentInfo'));
  if (oid(eType) !== TST_INFO) throw new Error('not a TSTInfo');
  const tstDer = octets(children(expectTag(eWrapped, 0xa0, 'eContent'))[0], 'eContent');
  const carried = signedData.find((t) => t.tag === 0xa0);
  const signerInfos = children(expectTag(signedData.at(-1), 0x31, 'signerInfos'));
  if (signerInfos.length !== 1) throw new Error('not exactly one SignerInfo');

  // (2) the imprint, SHA-256
  const tst = children(only(tstDer));
  const [algorithm, hashed] = children(expectTag(tst[2], 0x30, 'messageImprint'));
  if (hashOf(algorithm) !== 'sha256') throw new Error('imprint not SHA-256');
  if (expectTag(hashed, 0x04, 'hashedMessage').body.toString('hex') !== imprint.toLowerCase())
    throw new Error('WRONG_IMPRINT');
  const genTime = generalizedTime(tst[4]!);
  let accuracyMs = 0;
  if (tst[5]?.tag === 0x30) {
    for (const part of children(tst[5])) {
      let n = 0;
      for (const byte of part.body) n = n * 256 + byte;
      if (part.tag === 0x02) accuracyMs += n * 1000;
      else if (part.tag === 0x80) accuracyMs += n;
      else if (part.tag === 0x81) accuracyMs += n / 1000;
    }
  }

  // (3)–(6) the signer, its signed attributes and its signature
  const info = children(signerInfos[0]!);
  const [, sid, digestAlgorithm, signedAttributes, signatureAlgorithm, signature] = info;
  const attributesTlv = expectTag(signedAttributes, 0xa0, 'signedAttrs');
  const attributes = new Map(
    children(attributesTlv).map((a) => {
      const [id, values] = children(a);
      return [oid(id), children(expectTag(values, 0x31, 'attribute values'))] as const;
    }),
  );
  const hash = hashOf(digestAlgorithm);
  if (oid(attributes.get(CONTENT_TYPE)?.[0]) !== TST_INFO) throw new Error('content-type is not TSTInfo');
  const messageDigest = expectTag(attributes.get(MESSAGE_DIGEST)?.[0], 0x04, 'message-digest').body;
  if (!messageDigest.equals(digest(hash, tstDer))) throw new Error('BAD_SIGNATURE (message-digest)');

  const ess = attributes.get(SIGNING_CERTIFICATE_V2)?.[0] ?? attributes.get(SIGNING_CERTIFICATE)?.[0];
  if (!ess) throw new Error('no signing-certificate attribute');
  const firstId = children(children(children(ess)[0]!)[0]!);
  const essHash = attributes.has(SIGNING_CERTIFICATE_V2)
    ? firstId[0]!.tag === 0x30
      ? hashOf(firstId[0])
      : 'sha256'
    : 'sha1';
  const essValue = expectTag(
    firstId.find((t) => t.tag === 0x04),
    0x04,
    'certHash',
  ).body;

  const pins = pinned.map((p) => cert(pem(p)));
  const inToken = carried ? children(carried).map((c) => cert(Buffer.from(c.whole))) : [];
  const byId = (c: Cert): boolean => {
    if (sid!.tag === 0x80) {
      const ski = c.extensions.find((x) => x.id === SUBJECT_KEY_IDENTIFIER);
      return ski !== undefined && only(ski.value).body.equals(sid!.body);
    }
    const [issuer, serial] = children(expectTag(sid, 0x30, 'sid'));
    return c.issuer.equals(issuer!.whole) && c.serial.equals(serial!.body);
  };
  const signer = [...pins, ...inToken].find((c) => byId(c) && digest(essHash, c.raw).equals(essValue));
  if (!signer) throw new Error('UNTRUSTED_TSA (no certificate is the signer)');

  const named = SIGNATURES[oid(children(expectTag(signatureAlgorithm, 0x30, 'signatureAlgorithm'))[0])];
  if (named === undefined) throw new Error('unknown signature algorithm');
  // The signature is over the signed attributes' DER as a SET (tag 0x31), not as the [0] it is stored as.
  const signedBytes = Buffer.from(attributesTlv.whole);
  signedBytes[0] = 0x31;
  const signatureBytes = expectTag(signature, 0x04, 'signature').body;
  if (!verify(named ?? hash, signedBytes, signer.x509.publicKey, signatureBytes))
    throw new Error('BAD_SIGNATURE');

  // (7) genTime within the signer's validity
  if (!validAt(signer, genTime)) throw new Error('genTime outside the certificate validity');

  // (8) trust only from the pins: the signer itself, or a chain of CA certificates reaching one
  let current = signer;
  let trusted = pins.some((p) => p.raw.equals(signer.raw));
  for (let depth = 0; !trusted && depth < 5; depth++) {
    const issues = (c: Cert) =>
      c.x509.ca &&
      validAt(c, genTime) &&
      current.x509.checkIssued(c.x509) &&
      current.x509.verify(c.x509.publicKey);
    if (pins.some(issues)) trusted = true;
    else {
      const next = inToken.find((c) => c !== current && issues(c));
      if (!next) break;
      current = next;
    }
  }
  if (!trusted) throw new Error('UNTRUSTED_TSA');

  // (9) one critical EKU, id-kp-timeStamping alone
  const ekus = signer.extensions.filter((x) => x.id === EXTENDED_KEY_USAGE);
  const purposes = ekus.length === 1 ? children(only(ekus[0]!.value)).map(oid) : [];
  if (ekus.length !== 1 || !ekus[0]!.critical || purposes.join() !== TIME_STAMPING)
    throw new Error('the signer is not a time-stamping certificate');
  return { genTime, accuracyMs };
}

// ---------------------------------------------------------------------------------------------
// docs/time-stamps.md §3.3: the Merkle inclusion proof.

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

export function independentIncluded(
  digestHex: string,
  proof: { index: number; size: number; siblings: readonly string[] },
  rootHex: string,
): boolean {
  let h = sha256(Buffer.from([0]), Buffer.from(digestHex, 'hex'));
  let { index, size: count } = proof;
  let used = 0;
  if (!(index >= 0 && index < count)) return false;
  while (count > 1) {
    if (index % 2 === 1 || index + 1 < count) {
      const sibling = proof.siblings[used++];
      if (sibling === undefined) return false;
      h =
        index % 2 === 1
          ? sha256(Buffer.from([1]), Buffer.from(sibling, 'hex'), h)
          : sha256(Buffer.from([1]), h, Buffer.from(sibling, 'hex'));
    }
    index = Math.floor(index / 2);
    count = Math.ceil(count / 2);
  }
  return used === proof.siblings.length && h.toString('hex') === rootHex.toLowerCase();
}

export interface Anchor {
  root: string;
  proof: { index: number; size: number; siblings: readonly string[] };
  tokens: readonly { tsa: string; token: string }[];
}

/** Each token of `anchor` that verifies against the pins for a digest under its root; none when it is not. */
export function independentAnchorTimes(
  anchor: Anchor,
  digestHex: string,
  pinned: readonly string[],
): TokenTime[] {
  if (!independentIncluded(digestHex, anchor.proof, anchor.root)) return [];
  return anchor.tokens.flatMap(({ token }) => {
    try {
      return [independentTokenTime(token, anchor.root, pinned)];
    } catch {
      return [];
    }
  });
}
