/**
 * Trust only what the user pins (issue #24, item 3): a key through a chain that starts at a key the
 * user gives and whose certificates the user obtained from the service (F3); a beacon by its whole
 * network, the chain hash recomputed (F4); a margin of at least 5 s (F7). Each attack is built the
 * way an insider would (demoBundle signs every certificate, statement, head and close with the keys
 * he holds), and refused with a named check.
 */
import { LocalTimeStampAuthority } from '@pyb/timestamp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BEACON_SCHEME,
  beaconSigner,
  type Check,
  drandChainHash,
  localBeaconNetwork,
  parseBeaconPin,
  pinnedNetwork,
  QUICKNET,
  type ShoeBundle,
  type SignedKeyCertificate,
  verifyShoe,
} from '../src/index';
import { demoKeyCertificates } from './demo';
import { clone, demoBundle, QUICKNET_INFO, testBeacon, testKey, testTsaPem } from './helpers';

const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);
const detail = (checks: Check[], id: string) => checks.find((c) => c.id === id)?.detail;

const BEACON = await testBeacon();
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');
/** What the user obtained from GET /v1/signing-key before the attack: generation 1 only. */
const SERVICE_GEN1 = await demoKeyCertificates([GEN1]);
/** A TSA the user never pinned for this operator. */
const STRANGER_TSA = await (
  await LocalTimeStampAuthority.create({ name: 'stranger', clock: { now: () => new Date(0) } })
).certificatePem();
const PINS = {
  trustedPublicKey: GEN1.pem,
  trustedBeacons: [BEACON.network],
  trustedTimeStampAuthorities: [await testTsaPem()],
};

describe('F3: a successor key certified only in the bundle', () => {
  // The insider holds generation 1's Sign today: he certifies an offline key as "generation 2",
  // valid 1 ms after generation 1, and signs the whole shoe with it.
  const offline = testKey('key-offline', '2024-06-01T00:00:00.001Z');
  const forgedBundle = () => demoBundle({ keys: [GEN1, offline], beacon: BEACON, rounds: 12 });

  it('with the certificates the service lists: keys.certificates names the generation found only in the bundle', async () => {
    const forged = await forgedBundle();
    expect(forged.statement.keyId).toBe('key-offline');
    const { verdict, checks } = await verifyShoe(forged, { ...PINS, keyCertificates: SERVICE_GEN1 });
    expect(verdict).toBe('failed');
    expect(failed(checks)).toEqual(['keys.certificates', 'keys.trusted']);
    expect(detail(checks, 'keys.certificates')).toMatch(
      /generation 2 \(key-offline, valid from 2024-06-01T00:00:00.001Z\) is certified only in the evidence/,
    );
  });

  it('with the key alone: keys.trusted, a successor is never trusted through the bundle', async () => {
    const { verdict, checks } = await verifyShoe(await forgedBundle(), PINS);
    expect(verdict).toBe('failed');
    expect(failed(checks)).toEqual(['keys.trusted']);
    expect(detail(checks, 'keys.trusted')).toMatch(/never through one the evidence carries/);
  });

  it('a generation 2 other than the one the service lists (same id, another key) is refused', async () => {
    const honest2 = testKey('key-2', '2025-01-01T20:03:00.000Z');
    const service = await demoKeyCertificates([GEN1, honest2]);
    const swapped = { ...testKey('key-2', '2025-01-01T20:03:00.000Z') };
    const forged = await demoBundle({ keys: [GEN1, swapped], beacon: BEACON, rounds: 400 });
    const { checks } = await verifyShoe(forged, { ...PINS, keyCertificates: service });
    expect(failed(checks)).toContain('keys.certificates');
    expect(detail(checks, 'keys.certificates')).toMatch(
      /generation 2 in the evidence .* is not the one you were given/,
    );
  });

  it('nothing pinned: untrusted (exit 3 in the CLI), never verified', async () => {
    const { verdict, checks } = await verifyShoe(await forgedBundle());
    expect(verdict).toBe('untrusted');
    expect(checks.filter((c) => c.untrusted).map((c) => c.id)).toEqual([
      'keys.stamped',
      'statement.beacon',
      'keys.trusted',
    ]);
  });
});

describe('F3 when the user fetched the certificates after the insider added his successor', () => {
  // Same forgery, but the service's list the user saved already carries "generation 2": the
  // certificates alone cannot tell. The rotation's time-stamp can: the insider had it stamped when he
  // minted it (2025-06-01), long after the validFrom he wrote, and no TSA dates a token in the past.
  const late = {
    ...testKey('key-offline', '2024-06-01T00:00:00.001Z'),
    stampedAt: '2025-06-01T00:00:00.000Z',
  };

  it('the key signs only from its stamp: every statement, head and close dated before is refused', async () => {
    const forged = await demoBundle({ keys: [GEN1, late], beacon: BEACON, rounds: 12 });
    const service = await demoKeyCertificates([GEN1, late]);
    const { verdict, checks } = await verifyShoe(forged, { ...PINS, keyCertificates: service });
    expect(verdict).toBe('failed');
    expect(detail(checks, 'keys.stamped')).toMatch(
      /generation 2 \(key-offline, valid from 2024-06-01T00:00:00.001Z\) stamped by demo TSA .* it signs from 2025-05-31T23:59:59.999Z \(genTime − accuracy\)/,
    );
    expect(failed(checks)).toContain('statement.key');
    expect(detail(checks, 'statement.key')).toMatch(/valid 2025-05-31T23:59:59.999Z \.\. now only/);
  });

  it('a successor with no time-stamp at all is refused (keys.stamped), and unchecked without a pinned TSA', async () => {
    const forged = await demoBundle({ keys: [GEN1, late], beacon: BEACON, rounds: 12 });
    const service = (await demoKeyCertificates([GEN1, late])).map(({ anchor: _, ...c }) => c);
    const { checks } = await verifyShoe(forged, { ...PINS, keyCertificates: service });
    expect(failed(checks)).toContain('keys.stamped');
    expect(detail(checks, 'keys.stamped')).toMatch(/generation 2 .* carries no time-stamp/);
    const { trustedTimeStampAuthorities: _, ...noTsa } = PINS;
    const unchecked = await verifyShoe(forged, { ...noTsa, keyCertificates: service });
    expect(unchecked.verdict).toBe('untrusted');
    expect(unchecked.checks.find((c) => c.id === 'keys.stamped')?.untrusted).toBe(true);
  });

  it('a stamp over another certificate, or by a TSA the user does not pin, does not count', async () => {
    const forged = await demoBundle({ keys: [GEN1, late], beacon: BEACON, rounds: 12 });
    const [gen1, gen2] = await demoKeyCertificates([GEN1, late]);
    const [, other] = await demoKeyCertificates([GEN1, testKey('key-other', '2024-06-01T00:00:00.001Z')]);
    const moved = [gen1!, { ...gen2!, anchor: other!.anchor }];
    const { checks } = await verifyShoe(forged, { ...PINS, keyCertificates: moved });
    expect(detail(checks, 'keys.stamped')).toMatch(/is not under the stamped root/);
    const stranger = await verifyShoe(forged, {
      ...PINS,
      keyCertificates: [gen1!, gen2!],
      trustedTimeStampAuthorities: [STRANGER_TSA],
    });
    expect(detail(stranger.checks, 'keys.stamped')).toMatch(
      /no token verifies against the pinned time-stamp authorities/,
    );
  });
});

describe('an honest rotation, pinned', () => {
  const gen2 = testKey('key-2', '2025-01-01T20:03:00.000Z');
  let rotated: ShoeBundle;
  /** Every generation's certificate, as GET /v1/signing-key lists them. */
  let service: SignedKeyCertificate[];
  beforeAll(async () => {
    rotated = await demoBundle({ keys: [GEN1, gen2], beacon: BEACON, rounds: 400 });
    service = await demoKeyCertificates([GEN1, gen2]);
  });

  it('generation 1 pinned and both certificates from the service: verified', async () => {
    const { verdict, checks } = await verifyShoe(clone(rotated), { ...PINS, keyCertificates: service });
    expect(failed(checks)).toEqual([]);
    expect(verdict).toBe('verified');
    expect(detail(checks, 'keys.certificates')).toMatch(
      /^the evidence's 2 certificate\(s\) are those you were given/,
    );
  });

  it("a key's validity ends at the next generation's validFrom, as the service's certificates date it", async () => {
    // The insider still holds generation 1, leaves generation 2 out of the bundle and re-signs
    // everything with generation 1: by the bundle alone generation 1 would still be valid.
    const stretched = await demoBundle({ keys: [GEN1], beacon: BEACON, rounds: 400 });
    expect(stretched.keys).toHaveLength(1);
    const alone = await verifyShoe(clone(stretched), PINS);
    expect(alone.verdict).toBe('verified');
    const { checks } = await verifyShoe(clone(stretched), { ...PINS, keyCertificates: service });
    expect(failed(checks)).toContain('audit.close.key');
    expect(detail(checks, 'audit.close.key')).toMatch(
      /generation 1 \(key-1\) is valid 2024-06-01T00:00:00.000Z \.\. 2025-01-01T20:03:00.000Z only/,
    );
  });

  it('certificates that are not a chain are refused by keys.certificates', async () => {
    const broken = clone(service);
    broken[1]!.certificate.validFrom = '2025-01-01T20:04:00.000Z';
    const { checks } = await verifyShoe(clone(rotated), { ...PINS, keyCertificates: broken });
    expect(failed(checks)).toContain('keys.certificates');
    expect(detail(checks, 'keys.certificates')).toMatch(/the certificates you gave are not a chain/);
  });
});

describe('F4: the beacon is trusted by its whole network', () => {
  it("drand's chain hash of quicknet's chain info is quicknet's chain hash (the relays' /info vector)", () => {
    expect(drandChainHash(QUICKNET_INFO)).toBe(
      '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
    );
    expect(pinnedNetwork(QUICKNET_INFO)).toEqual(QUICKNET);
    // Every hashed field counts; a relay claiming another hash is refused.
    expect(drandChainHash({ ...QUICKNET_INFO, period: 30 })).not.toBe(QUICKNET.chainHash);
    expect(drandChainHash({ ...QUICKNET_INFO, genesis_time: 1692803368 })).not.toBe(QUICKNET.chainHash);
    expect(drandChainHash({ ...QUICKNET_INFO, metadata: { beaconID: 'default' } })).not.toBe(
      QUICKNET.chainHash,
    );
    expect(() => pinnedNetwork({ ...QUICKNET_INFO, period: 30 })).toThrow(/claims hash 52db9ba7/);
    expect(() => pinnedNetwork({ ...QUICKNET_INFO, schemeID: 'pedersen-bls-chained' })).toThrow(/scheme/);
  });

  it('a local beacon pin, PUBLICKEY:GENESIS:PERIOD:SCHEME or JSON, names the chain its fields hash to', () => {
    const n = BEACON.network;
    expect(parseBeaconPin(`${n.publicKey}:${n.genesisTime}:${n.period}:${n.scheme}`)).toEqual(n);
    expect(parseBeaconPin(JSON.stringify({ beacon: n }))).toEqual(n);
    expect(parseBeaconPin(JSON.stringify(QUICKNET_INFO))).toEqual(QUICKNET);
    expect(() => parseBeaconPin(JSON.stringify({ ...n, period: 30 }))).toThrow(/hash to/);
    expect(() => parseBeaconPin(n.chainHash)).toThrow(/publicKey:genesisTime:period:scheme/);
  });

  /** A forger's own BLS key, under a chain hash the user trusts; period and genesis his own. */
  async function forgerBundle(chainHash: string): Promise<ShoeBundle> {
    const signer = await beaconSigner(Uint8Array.from({ length: 32 }, (_, i) => (i * 31 + 11) & 0xff));
    const own = localBeaconNetwork(signer.publicKey, Date.parse('2024-01-01T00:00:00Z') / 1000, 1);
    return demoBundle({
      keys: [GEN1],
      beacon: { network: { ...own, chainHash }, marginSeconds: 5, sign: signer.sign },
      rounds: 12,
    });
  }

  it("under drand quicknet's chain hash: statement.beacon names every field that differs", async () => {
    const { verdict, checks } = await verifyShoe(await forgerBundle(QUICKNET.chainHash), PINS);
    expect(verdict).toBe('failed');
    expect(failed(checks)).toEqual(['statement.beacon']);
    expect(detail(checks, 'statement.beacon')).toMatch(
      /names the chain hash of drand quicknet .*: publicKey .*; genesisTime 1704067200 \(the network's: 1692803367\); period 1 \(the network's: 3\)/,
    );
  });

  it('under the chain hash of the local beacon the user pinned: refused the same way', async () => {
    const { checks } = await verifyShoe(await forgerBundle(BEACON.network.chainHash), PINS);
    expect(failed(checks)).toEqual(['statement.beacon']);
    expect(detail(checks, 'statement.beacon')).toMatch(/trusted by you, but not its network: publicKey/);
  });

  it('the honest local beacon, pinned by its fields, verifies; not pinned, untrusted', async () => {
    const honest = await demoBundle({ keys: [GEN1], beacon: BEACON, rounds: 12 });
    expect((await verifyShoe(clone(honest), PINS)).verdict).toBe('verified');
    const unpinned = await verifyShoe(clone(honest), { trustedPublicKey: GEN1.pem });
    expect(unpinned.verdict).toBe('untrusted');
    expect(unpinned.checks.filter((c) => c.untrusted).map((c) => c.id)).toEqual(['statement.beacon']);
    expect(BEACON.network.scheme).toBe(BEACON_SCHEME);
  });
});

describe('F7: a margin under 5 s', () => {
  for (const margin of [0, 4]) {
    it(`margin ${margin} s: statement.margin`, async () => {
      const b = await demoBundle({ keys: [GEN1], beacon: await testBeacon(margin), rounds: 12 });
      const { verdict, checks } = await verifyShoe(b, PINS);
      expect(verdict).toBe('failed');
      expect(failed(checks)).toEqual(['statement.margin']);
      expect(detail(checks, 'statement.margin')).toMatch(`a margin of ${margin} s`);
    });
  }

  it('margin 5 s passes', async () => {
    const b = await demoBundle({ keys: [GEN1], beacon: await testBeacon(5), rounds: 12 });
    const { checks } = await verifyShoe(b, PINS);
    expect(failed(checks)).toEqual([]);
    expect(detail(checks, 'statement.margin')).toMatch(/at least 5 s/);
  });
});
