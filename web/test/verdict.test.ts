/**
 * The verifier page's verdict (web/src/verify/verdict.ts) on bundles the fairness library builds and
 * signs: the library decides consistency, the page adds trust in the signing key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { tablePreset } from '@pyb/engine';
import { contributionsDigest, type ShoeBundle, shoeEntropy } from '@pyb/fairness';
import {
  clone,
  demoBundle,
  demoKeyCertificates,
  testBeacon,
  testKey,
  testTsaPem,
} from '@pyb/fairness/test-helpers';
import { beforeAll, describe, expect, it } from 'vitest';
import { dealFromSeeds, parseContributions, verifySeeds } from '../src/verify/shoe-view';
import { bundleKeys, splitPem, verifyWithTrust } from '../src/verify/verdict';

const signer = testKey('key-1', '2024-06-01T00:00:00.000Z');
const beacon = await testBeacon();
/** The test beacon is not drand quicknet: the reader trusts it by all its fields. */
const BEACONS = [beacon.network];
let bundle: ShoeBundle;
const trusted = [{ pem: signer.pem, source: 'the test' }];

beforeAll(async () => {
  bundle = await demoBundle({ keys: [signer], beacon, rounds: 12 });
});

describe('verifyWithTrust', () => {
  it('verified: every library check passes and the signing key is trusted', async () => {
    const result = await verifyWithTrust(bundle, trusted, BEACONS);
    expect(result.verdict).toBe('verified');
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.trust).toContain('Signed by the trusted key');
    expect(result.trust).toContain('from the test');
  });

  it('untrusted: consistent, but no key (or beacon) is trusted; failed against another key', async () => {
    const none = await verifyWithTrust(bundle, [], BEACONS);
    expect(none.verdict).toBe('untrusted');
    // The library marks what the verdict rests on untrusted: the bundle's own key.
    expect(none.checks.filter((c) => c.untrusted).map((c) => c.id)).toContain('keys.trusted');
    expect(none.trust).toContain('No key given to trust');
    expect((await verifyWithTrust(bundle, trusted, [])).verdict).toBe('untrusted');
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    // The library refuses a shoe the reader's key did not sign (a self-signed one, say): keys.trusted.
    const result = await verifyWithTrust(bundle, [{ pem: String(other), source: 'elsewhere' }], BEACONS);
    expect(result.verdict).toBe('failed');
    expect(result.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['keys.trusted']);
    expect(result.trust).toContain('which is not a key you trust (elsewhere)');
    // A pasted "key" that is no key trusts nothing.
    expect((await verifyWithTrust(bundle, [{ pem: 'not a key', source: 'typo' }], BEACONS)).verdict).toBe(
      'untrusted',
    );
  });

  it('failed: a tampered coup, payout or signature fails whatever key is trusted', async () => {
    const card = clone(bundle);
    const coup = card.rounds.find((r) => r.coup)!.coup!;
    coup.cards[0] = coup.cards[0] === 'AS' ? 'KH' : 'AS';
    expect((await verifyWithTrust(card, trusted, BEACONS)).verdict).toBe('failed');
    const payout = clone(bundle);
    payout.rounds[0]!.positions[0]!.settlement!.payout += 1;
    expect((await verifyWithTrust(payout, trusted, BEACONS)).verdict).toBe('failed');
    const signature = clone(bundle);
    signature.statement.createdAt = '2025-01-01T20:00:01.000Z';
    expect((await verifyWithTrust(signature, trusted, BEACONS)).verdict).toBe('failed');
    expect((await verifyWithTrust({ format: 'something else' }, trusted, BEACONS)).verdict).toBe('failed');
  });
});

describe('verifyWithTrust: a successor only through the certificates the site lists (F3)', () => {
  it('an offline key certified as generation 2 in the bundle only is refused; an honest rotation verifies', async () => {
    const offline = testKey('key-offline', '2024-06-01T00:00:00.001Z');
    const forged = await demoBundle({ keys: [signer, offline], beacon, rounds: 12 });
    const listed = await demoKeyCertificates([signer]);
    const refused = await verifyWithTrust(forged, trusted, BEACONS, listed);
    expect(refused.verdict).toBe('failed');
    expect(refused.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual([
      'keys.certificates',
      'keys.trusted',
    ]);
    const gen2 = testKey('key-2', '2025-01-01T20:00:05.000Z');
    const rotated = await demoBundle({ keys: [signer, gen2], beacon, rounds: 12 });
    const service = await demoKeyCertificates([signer, gen2]);
    // The rotation's time-stamp is checked against the TSA the reader pinned; without one, untrusted.
    const tsas = [await testTsaPem()];
    expect((await verifyWithTrust(rotated, trusted, BEACONS, service, tsas)).verdict).toBe('verified');
    expect((await verifyWithTrust(rotated, trusted, BEACONS, service)).verdict).toBe('untrusted');
    expect((await verifyWithTrust(rotated, trusted, BEACONS, undefined, tsas)).verdict).toBe('failed');
  });
});

describe('keys', () => {
  it('reads the keys a bundle carries and the PEM blocks of a paste', () => {
    expect(bundleKeys(bundle)).toEqual([
      { keyId: bundle.statement.keyId, pem: bundle.keys[0]!.certificate.publicKey },
    ]);
    expect(bundleKeys(null)).toEqual([]);
    expect(splitPem(`${signer.pem}\n${signer.pem}`)).toHaveLength(2);
    expect(splitPem('  MFkwEwYH  ')).toEqual(['MFkwEwYH']);
    expect(splitPem('   ')).toEqual([]);
  });
});

describe('seeds', () => {
  // The seeds as pyb-shoe/2 defines them: the server seed, the contributed seeds, the beacon round.
  const pastedOf = (b: ShoeBundle) => ({
    serverSeed: b.serverSeed,
    contributions: b.contributions,
    beacon: { chainHash: b.statement.beacon.chainHash, round: b.beacon.round, signature: b.beacon.signature },
    shoeId: b.statement.shoeId,
    decks: b.statement.decks,
    cutCard: b.statement.cutCard,
    afterCutCard: b.statement.table.afterCutCard,
  });
  const seedsOf = (b: ShoeBundle) => {
    const { contributions, beacon, ...rest } = pastedOf(b);
    return {
      ...rest,
      // Computed here straight from the library, so the page's entropyOf is checked against it.
      clientSeed: shoeEntropy({
        shoeId: b.statement.shoeId,
        commitment: b.statement.commitment,
        contributions: contributionsDigest(contributions),
        beacon,
      }),
    };
  };

  it('deals the coups the bundle records, from its seeds', () => {
    const shoe = dealFromSeeds(seedsOf(bundle));
    expect(shoe.cutIndex).toBe(bundle.cutIndex);
    expect(shoe.burn).toEqual(bundle.burn);
    const recorded = bundle.rounds.filter((r) => r.coup).map((r) => r.coup!);
    recorded.forEach((coup, i) => {
      expect(shoe.coups[i]!.coup.player.cards).toEqual(coup.player.cards);
      expect(shoe.coups[i]!.coup.banker.cards).toEqual(coup.banker.cards);
      expect(shoe.coups[i]!.coup.winner).toBe(coup.winner);
    });
    expect(shoe.panel.coups).toBe(shoe.coups.length);
  });

  it('is untrusted at best (nothing signed), failed on a wrong commitment or seed', () => {
    const outcome = verifySeeds(pastedOf(bundle), bundle.statement.commitment);
    expect(outcome.verdict).toBe('untrusted');
    // The entropy the library computes from the pasted seeds deals the bundle's coups.
    expect(outcome.shoe!.coups[0]!.coup.player.cards).toEqual(bundle.rounds[0]!.coup!.player.cards);
    expect(verifySeeds(pastedOf(bundle), undefined).verdict).toBe('untrusted');
    expect(verifySeeds(pastedOf(bundle), '0'.repeat(64)).verdict).toBe('failed');
    expect(verifySeeds({ ...pastedOf(bundle), serverSeed: 'xyz' }, undefined).verdict).toBe('failed');
    expect(verifySeeds({ ...pastedOf(bundle), decks: 9 }, undefined).verdict).toBe('failed');
    expect(
      verifySeeds({ ...pastedOf(bundle), beacon: { ...pastedOf(bundle).beacon, signature: 'zz' } }, undefined)
        .verdict,
    ).toBe('failed');
  });

  it('changes the whole order when one seed or the beacon round changes', () => {
    const dealt = (p: ReturnType<typeof pastedOf>) =>
      verifySeeds(p, undefined).shoe!.coups.map((c) => c.coup.player.cards.join());
    const base = pastedOf(bundle);
    expect(dealt(base)).toEqual(dealFromSeeds(seedsOf(bundle)).coups.map((c) => c.coup.player.cards.join()));
    const seed = {
      ...base,
      contributions: [
        ...base.contributions,
        { index: base.contributions.length, kind: 'PLAYER' as const, seed: 'x' },
      ],
    };
    expect(dealt(seed)).not.toEqual(dealt(base));
    expect(dealt({ ...base, beacon: { ...base.beacon, round: base.beacon.round + 1 } })).not.toEqual(
      dealt(base),
    );
  });

  it('reads the seeds pasted one a line, kind first, the seed verbatim', () => {
    expect(parseContributions('PLAYER ana: lucky 7\n\nOPERATOR  two spaces\r\n')).toEqual([
      { index: 0, kind: 'PLAYER', seed: 'ana: lucky 7' },
      { index: 1, kind: 'OPERATOR', seed: ' two spaces' },
    ]);
    expect(parseContributions('')).toEqual([]);
    expect(() => parseContributions('player lower case')).toThrow(/seed line 1/);
    expect(() => parseContributions('PLAYER')).toThrow(/seed line 1/);
    expect(() => parseContributions('PLAYER ok\nHOUSE x')).toThrow(/seed line 2/);
  });

  it('uses the table rules it is given (one more coup after the cut card)', () => {
    const table = tablePreset('mini', { afterCutCard: 'ONE_MORE_COUP' });
    const finish = dealFromSeeds(seedsOf(bundle));
    const more = dealFromSeeds({ ...seedsOf(bundle), afterCutCard: table.afterCutCard });
    expect(more.coups.length).toBe(finish.coups.length + 1);
  });
});
