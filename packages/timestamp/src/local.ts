/**
 * A time-stamp authority of our own, for dev and tests only: an ECDSA P-256 key pair made with
 * webcrypto, a certificate with the critical id-kp-timeStamping key usage (self-signed, or signed by a
 * local CA), an injected clock and serial counter. It answers RFC 3161 requests as a real TSA does
 * (request → response) and, through the port, stamps a digest directly. Not an outside witness: the
 * platform holds its key, so production pins a real TSA's certificate instead.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { TimeSource, TimeStampAuthority } from './authority';
import { buffer, certificateDer, integerOf, OID, sha, toPem } from './der';
import { parseTimeStampRequest } from './request';
import { FAILURE_BIT, type FailureInfo, parseTimeStampResponse } from './response';

const KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export interface Issuer {
  readonly certificate: pkijs.Certificate;
  readonly privateKey: CryptoKey;
}

export interface CertificateOptions {
  /** The subject's common name. */
  name: string;
  notBefore: Date;
  notAfter: Date;
  serial?: bigint;
  /** Signs the certificate; self-signed when absent. */
  issuer?: Issuer;
  /** 'critical' (RFC 3161), 'non-critical', or 'none' — the last two only to test refusals. */
  timeStampingUsage?: 'critical' | 'non-critical' | 'none';
  /** A CA certificate (basicConstraints cA, keyCertSign) rather than a TSA's. */
  ca?: boolean;
}

function nameOf(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({
        type: '2.5.4.3',
        value: new asn1js.Utf8String({ value: commonName }),
      }),
    ],
  });
}

function keyUsage(bits: number): pkijs.Extension {
  const value = new asn1js.BitString({ valueHex: buffer(new Uint8Array([bits])), unusedBits: 0 });
  return new pkijs.Extension({ extnID: '2.5.29.15', critical: true, extnValue: value.toBER(false) });
}

export async function makeKeyPair(): Promise<CryptoKeyPair> {
  return (await globalThis.crypto.subtle.generateKey(KEY, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
const timeOf = (value: Date): pkijs.Time =>
  new pkijs.Time({ type: value.getUTCFullYear() >= 2050 ? 1 : 0, value });

/** A certificate for `publicKey`, signed by the issuer's key (or `selfKey` when self-signed). */
export async function makeCertificate(
  keys: CryptoKeyPair,
  options: CertificateOptions,
): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = integerOf(options.serial ?? 1n);
  cert.subject = nameOf(options.name);
  cert.issuer = options.issuer ? options.issuer.certificate.subject : nameOf(options.name);
  cert.notBefore = timeOf(options.notBefore);
  cert.notAfter = timeOf(options.notAfter);
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey);
  const extensions: pkijs.Extension[] = [];
  if (options.ca) {
    const constraints = new pkijs.BasicConstraints({ cA: true });
    extensions.push(
      new pkijs.Extension({
        extnID: '2.5.29.19',
        critical: true,
        extnValue: constraints.toSchema().toBER(false),
        parsedValue: constraints,
      }),
      keyUsage(0x06), // keyCertSign, cRLSign
    );
  } else {
    extensions.push(keyUsage(0xc0)); // digitalSignature, nonRepudiation
    const usage = options.timeStampingUsage ?? 'critical';
    if (usage !== 'none') {
      const eku = new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] });
      extensions.push(
        new pkijs.Extension({
          extnID: OID.extKeyUsage,
          critical: usage === 'critical',
          extnValue: eku.toSchema().toBER(false),
          parsedValue: eku,
        }),
      );
    }
  }
  cert.extensions = extensions;
  await cert.sign(options.issuer?.privateKey ?? keys.privateKey, 'SHA-256');
  return cert;
}

export interface LocalTimeStampAuthorityOptions {
  name?: string;
  clock: TimeSource;
  /** The first serial number; each token takes the next. Default 1. */
  firstSerial?: bigint;
  /** The policy OID the tokens are issued under. */
  policy?: string;
  /** Stated accuracy of genTime, in milliseconds (0..999). Default 1. */
  accuracyMs?: number;
  /** Certificate options; by default valid 2020-01-01 … 2049-12-31 (UTCTime's last year). */
  certificate?: Partial<Omit<CertificateOptions, 'ca'>>;
  /** An existing key and certificate (a recorded fixture), instead of making new ones. */
  identity?: Issuer;
}

/** The OID under a private arc that local tokens carry: a local token claims no real policy. */
export const LOCAL_POLICY = '1.3.6.1.4.1.99999.3161.1';

export interface IssueInput {
  hashAlgorithm: string;
  hashedMessage: Uint8Array;
  nonce?: bigint;
  certReq: boolean;
  /** Tests only: name another certificate's DER in the ESS attribute, or leave it out. */
  signingCertificate?: Uint8Array | 'none';
}

/** SigningCertificateV2 { certs SEQUENCE OF ESSCertIDv2 { certHash } } (hash SHA-256: the DEFAULT). */
function signingCertificateAttribute(certHash: Uint8Array): pkijs.Attribute {
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: buffer(certHash) })],
  });
  return new pkijs.Attribute({
    type: OID.signingCertificateV2,
    values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
  });
}

export class LocalTimeStampAuthority implements TimeStampAuthority {
  private nextSerial: bigint;

  private constructor(
    readonly name: string,
    readonly certificate: pkijs.Certificate,
    private readonly privateKey: CryptoKey,
    private readonly clock: TimeSource,
    private readonly policy: string,
    private readonly accuracyMs: number,
    firstSerial: bigint,
  ) {
    this.nextSerial = firstSerial;
  }

  static async create(options: LocalTimeStampAuthorityOptions): Promise<LocalTimeStampAuthority> {
    const name = options.name ?? 'local TSA';
    let identity = options.identity;
    if (!identity) {
      const keys = await makeKeyPair();
      const certificate = await makeCertificate(keys, {
        name,
        notBefore: new Date('2020-01-01T00:00:00Z'),
        // Far ahead: the tests' shifted clocks move years per file (test/setup/clock.ts).
        notAfter: new Date('9999-12-31T23:59:59Z'),
        ...options.certificate,
      });
      identity = { certificate, privateKey: keys.privateKey };
    }
    return new LocalTimeStampAuthority(
      name,
      identity.certificate,
      identity.privateKey,
      options.clock,
      options.policy ?? LOCAL_POLICY,
      options.accuracyMs ?? 1,
      options.firstSerial ?? 1n,
    );
  }

  /** The certificate to pin (DER). */
  certificateDer(): Uint8Array {
    return certificateDer(this.certificate);
  }

  certificatePem(): string {
    return toPem(this.certificateDer());
  }

  async stamp(imprint: Uint8Array): Promise<Uint8Array> {
    return this.issue({ hashAlgorithm: OID.sha256, hashedMessage: imprint, certReq: true });
  }

  /** Answers a DER TimeStampReq with a DER TimeStampResp, as a TSA's endpoint does. */
  async respond(requestDer: Uint8Array): Promise<Uint8Array> {
    let request: ReturnType<typeof parseTimeStampRequest>;
    try {
      request = parseTimeStampRequest(requestDer);
    } catch {
      return timeStampRejection('badDataFormat', 'not a DER TimeStampReq');
    }
    if (request.version !== 1) return timeStampRejection('badRequest', `version ${request.version}`);
    if (request.hashAlgorithm !== OID.sha256 || request.imprint.length !== 32) {
      return timeStampRejection('badAlg', 'only SHA-256 imprints are stamped');
    }
    if (request.reqPolicy !== undefined && request.reqPolicy !== this.policy) {
      return timeStampRejection('unacceptedPolicy', `policy ${request.reqPolicy}`);
    }
    const token = await this.issue({
      hashAlgorithm: request.hashAlgorithm,
      hashedMessage: request.imprint,
      certReq: request.certReq,
      ...(request.nonce !== undefined && { nonce: request.nonce }),
    });
    return grantedResponse(token);
  }

  /** A token over whatever imprint it is given (tests use it to make tokens a TSA must refuse). */
  async issue(input: IssueInput): Promise<Uint8Array> {
    const serial = this.nextSerial;
    this.nextSerial += 1n;
    const tstInfo = new pkijs.TSTInfo({
      version: 1,
      policy: this.policy,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({
          algorithmId: input.hashAlgorithm,
          algorithmParams: new asn1js.Null(),
        }),
        hashedMessage: new asn1js.OctetString({ valueHex: buffer(input.hashedMessage) }),
      }),
      serialNumber: integerOf(serial),
      genTime: this.clock.now(),
      accuracy: new pkijs.Accuracy({ millis: this.accuracyMs }),
      ...(input.nonce !== undefined && { nonce: integerOf(input.nonce) }),
    });
    const tstInfoDer = new Uint8Array(tstInfo.toSchema().toBER());
    // Which certificate the signed attributes name: its own, unless a test asks otherwise.
    const essCertificate =
      input.signingCertificate === 'none' ? undefined : (input.signingCertificate ?? this.certificateDer());
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({
        issuer: this.certificate.issuer,
        serialNumber: this.certificate.serialNumber,
      }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: [
          new pkijs.Attribute({
            type: OID.contentType,
            values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
          }),
          new pkijs.Attribute({
            type: OID.messageDigest,
            values: [new asn1js.OctetString({ valueHex: buffer(await sha('SHA-256', tstInfoDer)) })],
          }),
          ...(essCertificate ? [signingCertificateAttribute(await sha('SHA-256', essCertificate))] : []),
        ],
      }),
    });
    const signedData = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: OID.tstInfo,
        eContent: new asn1js.OctetString({ valueHex: buffer(tstInfoDer) }),
      }),
      signerInfos: [signerInfo],
      ...(input.certReq && { certificates: [this.certificate] }),
    });
    await signedData.sign(this.privateKey, 0, 'SHA-256');
    const token = new pkijs.ContentInfo({
      contentType: OID.signedData,
      content: signedData.toSchema(true),
    });
    return new Uint8Array(token.toSchema().toBER());
  }
}

/** A granted TimeStampResp around a token. */
export function grantedResponse(token: Uint8Array): Uint8Array {
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: new pkijs.ContentInfo({ schema: asn1js.fromBER(buffer(token)).result }),
  });
  const der = new Uint8Array(response.toSchema().toBER());
  parseTimeStampResponse(der); // a response this module makes always parses back
  return der;
}

/** A rejection TimeStampResp (status 2) with one failure bit and a status string. */
export function timeStampRejection(failure: FailureInfo, text: string): Uint8Array {
  const bit = FAILURE_BIT[failure];
  const bytes = new Uint8Array((bit >> 3) + 1);
  bytes[bit >> 3] = 0x80 >> (bit & 7);
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: pkijs.PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: text })],
      failInfo: new asn1js.BitString({ valueHex: buffer(bytes), unusedBits: 7 - (bit & 7) }),
    }),
  });
  return new Uint8Array(response.toSchema().toBER());
}
