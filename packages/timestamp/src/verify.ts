/**
 * Verifies an RFC 3161 time-stamp token offline, trusting only what the caller pins: a token is good
 * when its signer is one of the pinned certificates, or is certified by one through the chain the
 * token carries, valid at genTime, with the critical id-kp-timeStamping key usage, and the signature
 * over the signed attributes (content type TSTInfo, the TSTInfo's digest, the signer's certificate
 * hash) verifies. A certificate found only inside the token is never trusted by itself.
 * Webcrypto only (globalThis.crypto): runs in a browser.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import {
  fingerprintOf,
  namesCertificate,
  signingCertificateProblem,
  subjectOf,
  timeStampingUsageProblem,
} from './certificates';
import { certificateDer, engine, integerValue, OID, parseCertificate, pemOrDer, sameBytes, sha } from './der';
import { TimeStampError } from './errors';
import { checkAnswers, openToken } from './response';

/** Certificates as the user obtained them: PEM text (one or more blocks) or DER bytes. */
export type PinnedCertificates = readonly (string | Uint8Array)[];

export interface VerifyTimeStampOptions {
  /** The SHA-256 digest that was stamped. */
  imprint: Uint8Array;
  /** The TSA certificates (or the CA certificates of a TSA) the user pinned. */
  trusted: PinnedCertificates;
  /** When given, the token must carry this nonce (the one its request sent). */
  nonce?: bigint;
}

export interface VerifiedTimeStamp {
  /** The TSA's time, ISO 8601 with milliseconds. */
  readonly genTime: string;
  /** The TSA's accuracy around genTime in milliseconds, when the token states one. */
  readonly accuracyMs: number | undefined;
  /** Decimal. */
  readonly serialNumber: string;
  readonly policy: string;
  readonly tsa: { readonly subject: string; readonly fingerprint: string };
}

export function loadCertificates(pinned: PinnedCertificates): pkijs.Certificate[] {
  return pinned.flatMap((item) => pemOrDer(item)).map(parseCertificate);
}

function accuracyMs(accuracy: pkijs.Accuracy | undefined): number | undefined {
  if (!accuracy) return undefined;
  return (accuracy.seconds ?? 0) * 1000 + (accuracy.millis ?? 0) + (accuracy.micros ?? 0) / 1000;
}

/**
 * The certificate the SignerInfo names. Issuer and serial are not unique across TSAs nobody
 * coordinates, so among several matches the one the signed signing-certificate attribute hashes wins.
 */
async function findSigner(
  signerInfo: pkijs.SignerInfo,
  candidates: readonly pkijs.Certificate[],
): Promise<pkijs.Certificate | undefined> {
  const matches: pkijs.Certificate[] = [];
  for (const cert of candidates) if (await namesCertificate(signerInfo.sid, cert)) matches.push(cert);
  const attributes = signerInfo.signedAttrs?.attributes ?? [];
  for (const cert of matches) {
    if ((await signingCertificateProblem(attributes, cert)) === undefined) return cert;
  }
  return matches[0];
}

async function checkTrust(
  signer: pkijs.Certificate,
  pinned: readonly pkijs.Certificate[],
  carried: readonly pkijs.Certificate[],
  at: Date,
): Promise<void> {
  const der = certificateDer(signer);
  if (pinned.some((p) => sameBytes(certificateDer(p), der))) return;
  const chain = new pkijs.CertificateChainValidationEngine({
    trustedCerts: [...pinned],
    certs: [...carried.filter((c) => !sameBytes(certificateDer(c), der)), signer],
    checkDate: at,
  });
  const result = await chain.verify().catch((e: unknown) => ({
    result: false,
    resultMessage: e instanceof Object && 'resultMessage' in e ? String(e.resultMessage) : String(e),
  }));
  if (!result.result) {
    throw new TimeStampError(
      'UNTRUSTED_TSA',
      `the signer "${subjectOf(signer)}" is not pinned and no pinned certificate certifies it (${result.resultMessage})`,
    );
  }
}

export async function verifyTimeStampToken(
  token: Uint8Array,
  options: VerifyTimeStampOptions,
): Promise<VerifiedTimeStamp> {
  const { signedData, tstInfo, tstInfoDer } = openToken(token);
  checkAnswers(tstInfo, options);
  if (signedData.signerInfos.length !== 1) {
    throw new TimeStampError('NOT_A_TOKEN', `${signedData.signerInfos.length} signers (a token has one)`);
  }
  const signerInfo = signedData.signerInfos[0]!;
  const pinned = loadCertificates(options.trusted);
  const carried = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const signer = await findSigner(signerInfo, [...pinned, ...carried]);
  if (!signer) {
    throw new TimeStampError('UNTRUSTED_TSA', 'the signer is neither pinned nor carried in the token');
  }
  // Integrity first: whatever was changed in a token, the answer is BAD_SIGNATURE.
  const attributes = signerInfo.signedAttrs?.attributes ?? [];
  const contentType = attributes.find((a) => a.type === OID.contentType);
  const messageDigest = attributes.find((a) => a.type === OID.messageDigest);
  if (!contentType || !messageDigest) {
    throw new TimeStampError('BAD_SIGNATURE', 'the content-type and message-digest attributes are required');
  }
  const signedType = contentType.values[0];
  if (!(signedType instanceof asn1js.ObjectIdentifier) || signedType.getValue() !== OID.tstInfo) {
    throw new TimeStampError('BAD_SIGNATURE', 'the signed content type is not TSTInfo');
  }
  const hashName = engine().getAlgorithmByOID(signerInfo.digestAlgorithm.algorithmId);
  if (!('name' in hashName)) {
    throw new TimeStampError('BAD_SIGNATURE', `unknown digest ${signerInfo.digestAlgorithm.algorithmId}`);
  }
  const digest = await sha(hashName.name, tstInfoDer);
  const claimed = messageDigest.values[0];
  if (!(claimed instanceof asn1js.OctetString) || !sameBytes(digest, claimed.valueBlock.valueHexView)) {
    throw new TimeStampError('BAD_SIGNATURE', 'the TSTInfo is not the content that was signed');
  }
  const binding = await signingCertificateProblem(attributes, signer);
  if (binding) throw new TimeStampError('SIGNING_CERTIFICATE_MISMATCH', binding);

  const signed = signerInfo.signedAttrs!.encodedValue;
  const rsa = signerInfo.signatureAlgorithm.algorithmId === '1.2.840.113549.1.1.1';
  const good = await engine()
    .verifyWithPublicKey(
      signed,
      signerInfo.signature,
      signer.subjectPublicKeyInfo,
      signerInfo.signatureAlgorithm,
      rsa ? hashName.name : undefined,
    )
    .catch(() => false);
  if (!good) throw new TimeStampError('BAD_SIGNATURE', 'the signature does not verify');

  // Then whether the signer may be believed.
  const genTime = tstInfo.genTime;
  if (genTime < signer.notBefore.value || genTime > signer.notAfter.value) {
    throw new TimeStampError(
      'CERTIFICATE_NOT_VALID_AT_GENTIME',
      `genTime ${genTime.toISOString()} is outside "${subjectOf(signer)}"'s validity`,
    );
  }
  await checkTrust(signer, pinned, carried, genTime);
  const usage = timeStampingUsageProblem(signer);
  if (usage) throw new TimeStampError('NOT_A_TSA_CERTIFICATE', `"${subjectOf(signer)}": ${usage}`);

  return {
    genTime: genTime.toISOString(),
    accuracyMs: accuracyMs(tstInfo.accuracy),
    serialNumber: integerValue(tstInfo.serialNumber).toString(),
    policy: tstInfo.policy,
    tsa: { subject: subjectOf(signer), fingerprint: await fingerprintOf(signer) },
  };
}
