import { generateKeyPairSync, sign } from 'node:crypto';
import { tablePreset } from '@pyb/engine';
import {
  BEACON_SCHEME,
  beaconSigner,
  type DrandChainInfo,
  eventHash,
  headDigest,
  localBeaconNetwork,
  QUICKNET,
  type ShoeBundle,
} from '../src/index';
import { buildDemoBundle, type DemoBeacon, type DemoBundleInput, type DemoKey } from './demo';
import { stampAt } from './demo-tsa';

export {
  buildDemoBundle,
  type DemoBeacon,
  type DemoBundleInput,
  type DemoKey,
  demoKeyCertificates,
} from './demo';
export type { DemoForge } from './demo-play';

/** drand quicknet's chain info (League of Entropy mainnet), as its /info endpoint serves it: the pin the verifier's built-in QUICKNET stands for. */
export const QUICKNET_INFO: DrandChainInfo = {
  public_key: QUICKNET.publicKey,
  period: QUICKNET.period,
  genesis_time: QUICKNET.genesisTime,
  groupHash: 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
  schemeID: BEACON_SCHEME,
  metadata: { beaconID: 'quicknet' },
  hash: QUICKNET.chainHash,
};

/** A P-256 signing key standing in for KMS (DER signatures over SHA-256, as KMS returns them). */
export function testSigner() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
    sign: (message: Uint8Array) =>
      new Uint8Array(sign('sha256', message, { key: privateKey, dsaEncoding: 'der' })),
  };
}

/** A key generation valid from `validFrom`. */
export interface TestKey extends DemoKey {
  pem: string;
  sign: (message: Uint8Array) => Uint8Array;
}
export function testKey(keyId: string, validFrom: string): TestKey {
  const signer = testSigner();
  return { keyId, publicKey: signer.pem, pem: signer.pem, sign: signer.sign, validFrom };
}

/** A beacon of our own (a fixed BLS key), 3 s rounds from 2024-01-01. */
export const TEST_BEACON_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 7) & 0xff);
export async function testBeacon(marginSeconds = 5): Promise<DemoBeacon> {
  const signer = await beaconSigner(TEST_BEACON_KEY);
  return {
    network: localBeaconNetwork(signer.publicKey, Date.parse('2024-01-01T00:00:00Z') / 1000, 3),
    marginSeconds,
    sign: signer.sign,
  };
}

export const CREATED_AT = '2025-01-01T20:00:00.000Z';

export async function demoBundle(over: Partial<DemoBundleInput> = {}): Promise<ShoeBundle> {
  return buildDemoBundle({
    serverSeed: Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff),
    shoeId: 'shoe-demo-1',
    tableId: 'table-7',
    operatorId: 'op-demo',
    table: tablePreset('mini', { pairBets: true }),
    createdAt: CREATED_AT,
    keys: [testKey('arn:aws:kms:eu-west-1:111122223333:key/demo-1', '2024-06-01T00:00:00.000Z')],
    beacon: await testBeacon(),
    rounds: 200,
    ...over,
  });
}

export { stampAt, testTsa, testTsaPem } from './demo-tsa';

/** Anchors every CONTRIBUTIONS_CLOSED and BETTING_CLOSED head of `bundle` (one token per head, stamped `delayMs` after it). */
export async function anchorHeads(bundle: ShoeBundle, delayMs = 200): Promise<ShoeBundle> {
  const anchors = [];
  for (const head of bundle.heads) {
    if (head.statement.type !== 'CONTRIBUTIONS_CLOSED' && head.statement.type !== 'BETTING_CLOSED') continue;
    const anchor = await stampAt(headDigest(head), Date.parse(head.statement.at) + delayMs);
    anchors.push({ seq: head.statement.seq, ...anchor });
  }
  return { ...bundle, anchors };
}

/** A pyb-shoe/3 demo shoe: round 3 voided before its round is out, round 5 burned for a dealer error. */
export async function demoBundleV3(over: Partial<DemoBundleInput> = {}): Promise<ShoeBundle> {
  return anchorHeads(
    await demoBundle({ scheme: 'pyb-shoe/3', rounds: 20, voided: [3], burned: [5], ...over }),
  );
}

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Recomputes every link and hash after an edit, as a forger with write access to the store would. */
export function rechain(b: ShoeBundle): void {
  let prev = b.statement.commitment;
  for (const e of b.audit.events) {
    e.prevHash = prev;
    e.hash = eventHash(prev, e.event);
    prev = e.hash;
  }
}
