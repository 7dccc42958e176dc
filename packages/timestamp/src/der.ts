/** Bytes, PEM and the object identifiers of RFC 3161 / RFC 5652 / RFC 5035. No Node built-ins. */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TimeStampError } from './errors';

export const OID = {
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

export const HASH_NAMES: Readonly<Record<string, string>> = {
  [OID.sha1]: 'SHA-1',
  [OID.sha256]: 'SHA-256',
  [OID.sha384]: 'SHA-384',
  [OID.sha512]: 'SHA-512',
};

export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return Array.from(view, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(hex: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error(`not hex: ${hex.slice(0, 16)}…`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function sameBytes(a: Uint8Array | ArrayBuffer, b: Uint8Array | ArrayBuffer): boolean {
  const x = a instanceof Uint8Array ? a : new Uint8Array(a);
  const y = b instanceof Uint8Array ? b : new Uint8Array(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** A fresh ArrayBuffer with exactly these bytes (pkijs and webcrypto take ArrayBuffers). */
export function buffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ''));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** PEM text ("-----BEGIN CERTIFICATE-----" blocks, any number) or DER bytes → the DER of each. */
export function pemOrDer(input: string | Uint8Array): Uint8Array[] {
  if (input instanceof Uint8Array) return [input];
  const blocks = [...input.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)];
  if (blocks.length === 0) throw new Error('no "BEGIN CERTIFICATE" block in the PEM text');
  return blocks.map((m) => base64ToBytes(m[1]!));
}

export function toPem(der: Uint8Array, label = 'CERTIFICATE'): string {
  const lines = bytesToBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(buffer(der));
}

export function certificateDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.toSchema(true).toBER());
}

/** The crypto engine on the platform's webcrypto (globalThis.crypto: Node 22 and every browser). */
export function engine(): pkijs.ICryptoEngine {
  return pkijs.getCrypto(true);
}

export async function sha(name: string, data: Uint8Array | ArrayBuffer): Promise<Uint8Array> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  return new Uint8Array(await globalThis.crypto.subtle.digest(name, buffer(bytes)));
}

/** The DER of an asn1js value, or NOT_A_TOKEN-style failure of the given code. */
export function parseBer(der: Uint8Array, code: 'NOT_A_TOKEN' | 'NOT_A_RESPONSE', what: string) {
  const asn1 = asn1js.fromBER(buffer(der));
  if (asn1.offset === -1 || asn1.offset !== der.length) {
    throw new TimeStampError(code, `${what}: not one DER value (${asn1.result.error || 'trailing bytes'})`);
  }
  return asn1.result;
}

/** An INTEGER's magnitude as a bigint (serials and nonces are positive). */
export function integerValue(value: asn1js.Integer): bigint {
  const hex = toHex(value.valueBlock.valueHexView);
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

/** A positive INTEGER from a bigint, DER-minimal (a leading 0x00 when the top bit is set). */
export function integerOf(value: bigint): asn1js.Integer {
  if (value < 0n) throw new Error('serials and nonces are positive');
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return new asn1js.Integer({ valueHex: buffer(fromHex(hex)) });
}
