/**
 * TimeStampReq (RFC 3161 §2.4.1), always SHA-256:
 *
 *   SEQUENCE { version INTEGER 1,
 *              messageImprint SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.2.1, NULL }, OCTET STRING (32) },
 *              nonce INTEGER OPTIONAL, certReq BOOLEAN TRUE (absent when false: DER omits a DEFAULT) }
 *
 * No reqPolicy: the TSA stamps under its default policy, returned in the token.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { buffer, HASH_NAMES, integerOf, integerValue, OID, parseBer } from './der';
import { TimeStampError } from './errors';

export interface TimeStampRequestOptions {
  /** Ties the reply to this request; a positive integer, random in production (64 bits). */
  nonce?: bigint;
  /** Ask the TSA to put its certificate in the token. Default true. */
  certReq?: boolean;
}

export function sha256Imprint(digest: Uint8Array): pkijs.MessageImprint {
  if (digest.length !== 32) throw new Error(`a SHA-256 imprint is 32 bytes (got ${digest.length})`);
  return new pkijs.MessageImprint({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: OID.sha256,
      algorithmParams: new asn1js.Null(),
    }),
    hashedMessage: new asn1js.OctetString({ valueHex: buffer(digest) }),
  });
}

export function timeStampRequest(imprint: Uint8Array, options: TimeStampRequestOptions = {}): Uint8Array {
  const certReq = options.certReq ?? true;
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: sha256Imprint(imprint),
    ...(options.nonce !== undefined && { nonce: integerOf(options.nonce) }),
    ...(certReq && { certReq: true }),
  });
  return new Uint8Array(request.toSchema().toBER());
}

export interface ParsedTimeStampRequest {
  readonly version: number;
  /** The OID of the hash algorithm, and its name when known. */
  readonly hashAlgorithm: string;
  readonly hashName: string | undefined;
  readonly imprint: Uint8Array;
  readonly nonce: bigint | undefined;
  readonly certReq: boolean;
  readonly reqPolicy: string | undefined;
}

export function parseTimeStampRequest(der: Uint8Array): ParsedTimeStampRequest {
  const asn1 = parseBer(der, 'NOT_A_RESPONSE', 'time-stamp request');
  let request: pkijs.TimeStampReq;
  try {
    request = new pkijs.TimeStampReq({ schema: asn1 });
  } catch (error) {
    throw new TimeStampError('NOT_A_RESPONSE', `not a TimeStampReq: ${String(error)}`);
  }
  const hashAlgorithm = request.messageImprint.hashAlgorithm.algorithmId;
  return {
    version: request.version,
    hashAlgorithm,
    hashName: HASH_NAMES[hashAlgorithm],
    imprint: new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView),
    nonce: request.nonce ? integerValue(request.nonce) : undefined,
    certReq: request.certReq ?? false,
    reqPolicy: request.reqPolicy,
  };
}
