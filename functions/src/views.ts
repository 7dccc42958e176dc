import type { SigningKey } from '@pyb/contracts';
import { publicCertificate, type SigningKeyAnswer } from '@pyb/core';
import type * as z from 'zod';

/**
 * Domain objects -> the HTTP contract's shapes. Only mapping: no rule lives here, and the response
 * schema (validated on the way out) strips anything a view forgets to leave out.
 */
export const signingKeyView = (
  { key, certificate, validUntil, certificates }: SigningKeyAnswer,
  beacon: z.input<ReturnType<typeof SigningKey>>['beacon'],
  timeStampAuthorities: z.input<ReturnType<typeof SigningKey>>['timeStampAuthorities'],
): z.input<ReturnType<typeof SigningKey>> => ({
  keyId: key.keyId,
  algorithm: 'ECDSA_SHA_256',
  curve: 'P-256',
  pem: key.pem,
  spki: Buffer.from(key.spki).toString('base64'),
  generation: certificate?.generation ?? null,
  validFrom: certificate?.certificate.validFrom ?? null,
  validUntil,
  certificate: certificate ? publicCertificate(certificate) : null,
  certificates: certificates.map(publicCertificate),
  beacon,
  timeStampAuthorities,
});
