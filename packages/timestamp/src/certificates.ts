/** What a verifier reads from a certificate: its name, fingerprint, EKU and the ESS cert ids. */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { certificateDer, HASH_NAMES, OID, sameBytes, sha, toHex } from './der';

const NAME_KEYS: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
};

/** "CN=…, O=…" in the certificate's own order. */
export function subjectOf(cert: pkijs.Certificate): string {
  return cert.subject.typesAndValues
    .map((tv) => `${NAME_KEYS[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`)
    .join(', ');
}

/** SHA-256 of the certificate's DER, hex: what `openssl x509 -fingerprint -sha256` prints. */
export async function fingerprintOf(cert: pkijs.Certificate): Promise<string> {
  return toHex(await sha('SHA-256', certificateDer(cert)));
}

/**
 * RFC 3161 §2.3: the TSA's certificate has exactly one extended key usage extension, critical, whose
 * only purpose is id-kp-timeStamping. The reason it fails, or undefined.
 */
export function timeStampingUsageProblem(cert: pkijs.Certificate): string | undefined {
  const ekus = (cert.extensions ?? []).filter((e) => e.extnID === OID.extKeyUsage);
  if (ekus.length !== 1) return `${ekus.length} extended key usage extensions (one is required)`;
  const eku = ekus[0]!;
  if (!eku.critical) return 'the extended key usage extension is not critical';
  const purposes =
    eku.parsedValue instanceof pkijs.ExtKeyUsage
      ? eku.parsedValue.keyPurposes
      : new pkijs.ExtKeyUsage({ schema: asn1js.fromBER(eku.extnValue.getValue()).result }).keyPurposes;
  if (purposes.length !== 1 || purposes[0] !== OID.timeStamping) {
    return `extended key usage is [${purposes.join(', ')}], not only id-kp-timeStamping`;
  }
  return undefined;
}

/** Does the SignerInfo's sid (issuer + serial, or subject key id) name this certificate? */
export async function namesCertificate(sid: pkijs.SignerInfo['sid'], cert: pkijs.Certificate) {
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return cert.issuer.isEqual(sid.issuer) && cert.serialNumber.isEqual(sid.serialNumber);
  }
  const node = sid as asn1js.Constructed & asn1js.Primitive;
  const keyId = node.idBlock.isConstructed
    ? (node.valueBlock.value[0] as asn1js.OctetString).valueBlock.valueHexView
    : node.valueBlock.valueHexView;
  const ski = cert.extensions?.find((e) => e.extnID === '2.5.29.14');
  if (ski) {
    const value = asn1js.fromBER(ski.extnValue.getValue()).result as asn1js.OctetString;
    if (sameBytes(value.valueBlock.valueHexView, keyId)) return true;
  }
  const keyBits = cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  return sameBytes(await sha('SHA-1', keyBits), keyId);
}

/**
 * The first ESSCertID(v2) of the signing-certificate attribute (RFC 5035 / RFC 2634) must be the hash
 * of the signer's certificate: the signature then covers which certificate signed, so a token cannot
 * be re-attributed to another certificate with the same key. The reason it fails, or undefined.
 */
export async function signingCertificateProblem(
  attributes: readonly pkijs.Attribute[],
  cert: pkijs.Certificate,
): Promise<string | undefined> {
  const v2 = attributes.find((a) => a.type === OID.signingCertificateV2);
  const v1 = attributes.find((a) => a.type === OID.signingCertificate);
  const attribute = v2 ?? v1;
  if (!attribute) return 'no signing-certificate attribute among the signed attributes';
  try {
    const signingCertificate = attribute.values[0] as asn1js.Sequence;
    const certs = signingCertificate.valueBlock.value[0] as asn1js.Sequence;
    const first = certs.valueBlock.value[0] as asn1js.Sequence;
    const fields = first.valueBlock.value;
    let hashName = 'SHA-1';
    let hash: asn1js.OctetString;
    if (v2) {
      hashName = 'SHA-256';
      if (fields[0] instanceof asn1js.Sequence) {
        const algorithm = new pkijs.AlgorithmIdentifier({ schema: fields[0] });
        const name = HASH_NAMES[algorithm.algorithmId];
        if (!name) return `unknown ESSCertIDv2 hash ${algorithm.algorithmId}`;
        hashName = name;
        hash = fields[1] as asn1js.OctetString;
      } else {
        hash = fields[0] as asn1js.OctetString;
      }
    } else {
      hash = fields[0] as asn1js.OctetString;
    }
    const expected = await sha(hashName, certificateDer(cert));
    if (!sameBytes(hash.valueBlock.valueHexView, expected)) {
      return 'the signing-certificate attribute names another certificate';
    }
    return undefined;
  } catch (error) {
    return `unreadable signing-certificate attribute: ${String(error)}`;
  }
}
