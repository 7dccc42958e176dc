/**
 * TimeStampResp (RFC 3161 §2.4.2): a status, and the token when the status is granted (0) or
 * grantedWithMods (1). Every other status is TSA_REJECTED, naming the status and the failure bits.
 */
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { HASH_NAMES, integerValue, OID, parseBer } from './der';
import { TimeStampError } from './errors';

const STATUS_NAMES = [
  'granted',
  'grantedWithMods',
  'rejection',
  'waiting',
  'revocationWarning',
  'revocationNotification',
] as const;

/** PKIFailureInfo bit numbers (RFC 3161 §2.4.2). */
const FAILURE_BITS: Readonly<Record<number, string>> = {
  0: 'badAlg',
  2: 'badRequest',
  5: 'badDataFormat',
  14: 'timeNotAvailable',
  15: 'unacceptedPolicy',
  16: 'unacceptedExtension',
  17: 'addInfoNotAvailable',
  25: 'systemFailure',
};

export type FailureInfo =
  | 'badAlg'
  | 'badRequest'
  | 'badDataFormat'
  | 'timeNotAvailable'
  | 'unacceptedPolicy'
  | 'unacceptedExtension'
  | 'addInfoNotAvailable'
  | 'systemFailure';

export const FAILURE_BIT: Readonly<Record<FailureInfo, number>> = Object.fromEntries(
  Object.entries(FAILURE_BITS).map(([bit, name]) => [name, Number(bit)]),
) as Record<FailureInfo, number>;

function failureNames(bits: asn1js.BitString | undefined): string[] {
  if (!bits) return [];
  const bytes = bits.valueBlock.valueHexView;
  const names: string[] = [];
  for (let bit = 0; bit < bytes.length * 8; bit++) {
    // BIT STRING bit 0 is the most significant bit of the first byte.
    if ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1) names.push(FAILURE_BITS[bit] ?? `bit${bit}`);
  }
  return names;
}

/** The token (DER ContentInfo) of a granted response; TSA_REJECTED otherwise. */
export function parseTimeStampResponse(der: Uint8Array): Uint8Array {
  const asn1 = parseBer(der, 'NOT_A_RESPONSE', 'time-stamp response');
  let response: pkijs.TimeStampResp;
  try {
    response = new pkijs.TimeStampResp({ schema: asn1 });
  } catch (error) {
    throw new TimeStampError('NOT_A_RESPONSE', `not a TimeStampResp: ${String(error)}`);
  }
  const status = response.status.status;
  if (status !== 0 && status !== 1) {
    const name = STATUS_NAMES[status] ?? `status ${status}`;
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
    const failures = failureNames(response.status.failInfo);
    throw new TimeStampError(
      'TSA_REJECTED',
      `the TSA answered ${name}${failures.length ? ` (${failures.join(', ')})` : ''}${text ? `: ${text}` : ''}`,
    );
  }
  if (!response.timeStampToken) {
    throw new TimeStampError('NOT_A_RESPONSE', `status ${STATUS_NAMES[status]} but no token`);
  }
  return new Uint8Array(response.timeStampToken.toSchema().toBER());
}

export interface OpenedToken {
  readonly signedData: pkijs.SignedData;
  readonly tstInfo: pkijs.TSTInfo;
  /** The DER of the TSTInfo, as signed (the eContent's octets). */
  readonly tstInfoDer: Uint8Array;
}

/** The SignedData and TSTInfo inside a token, without checking any signature. */
export function openToken(token: Uint8Array): OpenedToken {
  const asn1 = parseBer(token, 'NOT_A_TOKEN', 'time-stamp token');
  try {
    const info = new pkijs.ContentInfo({ schema: asn1 });
    if (info.contentType !== OID.signedData) throw new Error(`content type ${info.contentType}`);
    const signedData = new pkijs.SignedData({ schema: info.content });
    const content = signedData.encapContentInfo;
    if (content.eContentType !== OID.tstInfo) throw new Error(`eContentType ${content.eContentType}`);
    if (!content.eContent) throw new Error('no eContent');
    const tstInfoDer = new Uint8Array(content.eContent.getValue());
    const tstInfo = pkijs.TSTInfo.fromBER(tstInfoDer.slice().buffer);
    return { signedData, tstInfo, tstInfoDer };
  } catch (error) {
    if (error instanceof TimeStampError) throw error;
    throw new TimeStampError('NOT_A_TOKEN', `not an RFC 3161 token: ${String(error)}`);
  }
}

/** The checks a client makes on what it asked for: SHA-256, the imprint, the nonce. */
export function checkAnswers(
  tstInfo: pkijs.TSTInfo,
  expected: { imprint: Uint8Array; nonce?: bigint },
): void {
  const algorithm = tstInfo.messageImprint.hashAlgorithm.algorithmId;
  if (algorithm !== OID.sha256) {
    throw new TimeStampError(
      'WRONG_HASH_ALGORITHM',
      `the token stamps a ${HASH_NAMES[algorithm] ?? algorithm} digest, not SHA-256`,
    );
  }
  const stamped = new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (stamped.length !== expected.imprint.length || stamped.some((b, i) => b !== expected.imprint[i])) {
    throw new TimeStampError('IMPRINT_MISMATCH', 'the token stamps another digest');
  }
  if (expected.nonce !== undefined) {
    const nonce = tstInfo.nonce ? integerValue(tstInfo.nonce) : undefined;
    if (nonce !== expected.nonce) {
      throw new TimeStampError(
        'NONCE_MISMATCH',
        `the reply carries nonce ${nonce ?? 'none'}, the request sent ${expected.nonce}`,
      );
    }
  }
}
