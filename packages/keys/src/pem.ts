import { createPublicKey } from 'node:crypto';

/** PEM "PUBLIC KEY" of a DER SubjectPublicKeyInfo (Node parses it, so a malformed key throws). */
export const spkiToPem = (spki: Uint8Array): string =>
  createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }).export({
    format: 'pem',
    type: 'spki',
  }) as string;
