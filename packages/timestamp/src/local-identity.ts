/**
 * The local TSA of the local stack keeps its key and certificate in a folder (like the local beacon
 * in .data/), so tokens it made before a restart still verify under the same pinned certificate:
 * <dir>/tsa-key.pem (PKCS#8, mode 0600) and <dir>/tsa.pem. Dev only; Node only (not in the index).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimeSource } from './authority';
import { buffer, parseCertificate, pemOrDer, toPem } from './der';
import { LocalTimeStampAuthority, makeCertificate } from './local';

const KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;

function pkcs8(pem: string): Uint8Array {
  const body = pem.match(/-----BEGIN PRIVATE KEY-----([^-]+)-----END PRIVATE KEY-----/)?.[1];
  if (!body) throw new Error('tsa-key.pem holds no "BEGIN PRIVATE KEY" block');
  return Uint8Array.from(atob(body.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
}

export async function localTimeStampAuthorityIn(
  dir: string,
  options: { clock: TimeSource; name?: string },
): Promise<LocalTimeStampAuthority> {
  const keyFile = join(dir, 'tsa-key.pem');
  const certFile = join(dir, 'tsa.pem');
  const name = options.name ?? 'pyb local TSA';
  if (existsSync(keyFile) && existsSync(certFile)) {
    const privateKey = await globalThis.crypto.subtle.importKey(
      'pkcs8',
      buffer(pkcs8(readFileSync(keyFile, 'utf8'))),
      KEY,
      false,
      ['sign'],
    );
    const certificate = parseCertificate(pemOrDer(readFileSync(certFile, 'utf8'))[0]!);
    return LocalTimeStampAuthority.create({
      name,
      clock: options.clock,
      identity: { certificate, privateKey },
    });
  }
  const keys = (await globalThis.crypto.subtle.generateKey(KEY, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await makeCertificate(keys, {
    name,
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('9999-12-31T23:59:59Z'),
  });
  const key = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey));
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, toPem(key, 'PRIVATE KEY'), { mode: 0o600 });
  writeFileSync(certFile, toPem(new Uint8Array(certificate.toSchema(true).toBER())));
  return LocalTimeStampAuthority.create({
    name,
    clock: options.clock,
    identity: { certificate, privateKey: keys.privateKey },
  });
}
