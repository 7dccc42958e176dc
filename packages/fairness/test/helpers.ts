import { generateKeyPairSync, sign } from 'node:crypto';
import { tablePreset } from '@pyb/engine';
import { buildDemoBundle, type DemoBundleInput, type ShoeBundle } from '../src/index';

/** A P-256 signing key standing in for KMS (DER signatures over SHA-256, as KMS returns them). */
export function testSigner() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
    sign: (message: Uint8Array) =>
      new Uint8Array(sign('sha256', message, { key: privateKey, dsaEncoding: 'der' })),
  };
}

export async function demoBundle(over: Partial<DemoBundleInput> = {}): Promise<ShoeBundle> {
  const signer = testSigner();
  return buildDemoBundle({
    serverSeed: Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff),
    clientSeed: 'table 7, evening session',
    shoeId: 'shoe-demo-1',
    tableId: 'table-7',
    operatorId: 'op-demo',
    table: tablePreset('mini', { pairBets: true }),
    createdAt: '2025-01-01T20:00:00.000Z',
    keyId: 'arn:aws:kms:eu-west-1:111122223333:key/demo',
    publicKey: signer.pem,
    sign: signer.sign,
    rounds: 200,
    ...over,
  });
}

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
