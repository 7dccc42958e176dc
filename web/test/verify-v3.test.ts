/**
 * The verifier page's view of a pyb-shoe/3 shoe (issue #24, item 8): the coups played, each re-drawn
 * from the beacon round the bundle names for it — not a whole shoe dealt from the seeds, which
 * pyb-shoe/3 never fixes — and every check of the library, the close-betting heads included, passed.
 */
import { type ShoeBundle, shoeProof } from '@pyb/fairness';
import { demoBundle, demoBundleV3, testBeacon, testKey, testTsaPem } from '@pyb/fairness/test-helpers';
import { beforeAll, describe, expect, it } from 'vitest';
import { dealFromBundle } from '../src/verify/shoe-view';
import { verifyWithTrust } from '../src/verify/verdict';

const BEACON = await testBeacon();
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');

let v3: ShoeBundle;
beforeAll(async () => {
  v3 = await demoBundleV3({ keys: [GEN1], beacon: BEACON, rounds: 10 });
});

describe('the verifier page, pyb-shoe/3', () => {
  it('shows the coups played, each with the beacon round that fixed it, as the bundle recorded them', () => {
    const shoe = dealFromBundle(shoeProof(v3))!;
    expect(shoe.scheme).toBe('pyb-shoe/3');
    const settled = v3.rounds.filter((r) => r.status === 'SETTLED');
    expect(shoe.coups.map((c) => [c.round, c.beacon, c.start])).toEqual(
      settled.map((r) => [r.number, r.coup!.beacon!.round, r.coup!.start]),
    );
    expect(shoe.coups.map((c) => [...c.coup.player.cards, ...c.coup.banker.cards].sort().join())).toEqual(
      settled.map((r) => [...r.coup!.player.cards, ...r.coup!.banker.cards].sort().join()),
    );
    expect(shoe.burns).toBe(1); // round 5's dealer error
    expect(shoe.cutIndex).toBe(v3.cutIndex);
    expect(shoe.burn).toEqual({ shown: v3.burn.shown, burned: v3.burn.burned });
  });

  it('verifies under the pinned key and beacon, the close-betting heads among the checks', async () => {
    const v = await verifyWithTrust(v3, [{ pem: GEN1.pem, source: 'test' }], [BEACON.network], undefined, [
      await testTsaPem(),
    ]);
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    expect(v.verdict).toBe('verified');
    expect(v.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['heads.round.1.betting', 'round.1.beacon-named']),
    );
  });

  it('a pyb-shoe/2 bundle is still the whole shoe its seeds deal', async () => {
    const v2 = await demoBundle({ keys: [GEN1], beacon: BEACON, rounds: 4 });
    const shoe = dealFromBundle(v2)!;
    expect(shoe.scheme).toBe('pyb-shoe/2');
    expect(shoe.coups.length).toBeGreaterThan(v2.rounds.length);
    expect(shoe.coups[0]!.beacon).toBeUndefined();
    expect(dealFromBundle({ nonsense: true })).toBeUndefined();
  });
});
