/**
 * A pyb-shoe/3 bundle and proof through verifyShoe (docs/provably-fair.md §15.11): each coup drawn from
 * the beacon round its betting close named, and every way an insider could move a coup onto another
 * round refused by a named check — by this verifier and by the one written from the document.
 */
import { LocalTimeStampAuthority } from '@pyb/timestamp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  beaconRandomness,
  bytesToBase64,
  type Check,
  closeStatementBytes,
  headDigest,
  headStatementBytes,
  type ShoeBundle,
  shoeProof,
  verifyShoe,
} from '../src/index';
import {
  clone,
  demoBundle,
  demoBundleV3,
  rechain,
  stampAt,
  testBeacon,
  testKey,
  testTsaPem,
} from './helpers';
import { independentVerify } from './independent';

const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);
const ids = (checks: Check[]) => checks.map((c) => c.id);

const BEACON = await testBeacon();
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');
const OPERATOR = {
  trustedPublicKey: GEN1.pem,
  trustedBeacons: [BEACON.network],
  trustedTimeStampAuthorities: [await testTsaPem()],
};
const independently = (b: unknown, receipts: ShoeBundle['heads'] = []) =>
  independentVerify(b as ShoeBundle, {
    trustedKeys: [GEN1.pem],
    receipts,
    trustedTsas: OPERATOR.trustedTimeStampAuthorities,
  });

let honest: ShoeBundle;
beforeAll(async () => {
  honest = await demoBundleV3({ keys: [GEN1], beacon: BEACON });
});

const eventOf = (b: ShoeBundle, number: number, type: string) =>
  b.audit.events.find((e) => e.event.roundId === b.rounds[number - 1]!.roundId && e.event.type === type)!;

describe('a pyb-shoe/3 bundle', () => {
  it('verifies, each coup and burn by its round; so does its proof, and the independent verifier agrees', async () => {
    expect(honest.statement.scheme).toBe('pyb-shoe/3');
    const v = await verifyShoe(honest, OPERATOR);
    expect(failed(v.checks)).toEqual([]);
    expect(v.verdict).toBe('verified');
    for (const id of [
      'shoe.start',
      'round.1.beacon',
      'round.1.beacon-named',
      'round.1.cards',
      'round.1.outcome',
      'round.5.beacon-named',
      'round.5.burn.cards',
      'audit.burn',
      'audit.round.5.burned',
      'heads.round.1.betting',
      'heads.round.3.betting',
      'shoe.end',
      'voids.report',
    ])
      expect(ids(v.checks)).toContain(id);
    // the void of round 3 drew nothing (no coup, 0); the burn of round 5 is its would-be coup
    expect(honest.voids.rounds.map((r) => [r.number, r.coup?.cards ?? null, r.houseNet === 0])).toEqual([
      [3, null, true],
      [5, honest.rounds[4]!.burned!.cards, expect.any(Boolean)],
    ]);
    expect(honest.voids.rounds[1]!.coup!.beacon).toEqual(honest.rounds[4]!.burned!.beacon);
    const proof = await verifyShoe(shoeProof(honest), OPERATOR);
    expect(failed(proof.checks)).toEqual([]);
    expect(independently(honest)).toEqual([]);
    expect(independently(shoeProof(honest))).toEqual([]);
  });

  it('a first use of cards that is a burn records the start burn with it', async () => {
    const b = await demoBundleV3({ keys: [GEN1], beacon: BEACON, rounds: 6, voided: [], burned: [1] });
    expect(eventOf(b, 1, 'ROUND_VOIDED').event.data).toHaveProperty('burn');
    const v = await verifyShoe(b, OPERATOR);
    expect(failed(v.checks)).toEqual([]);
    expect(independently(b)).toEqual([]);
  });

  it('the scheme decides the fields: a v3 coup without its round, or a v2 one with one, is not read', async () => {
    const missing = clone(honest);
    delete missing.rounds[0]!.coup!.beacon;
    expect(failed((await verifyShoe(missing, OPERATOR)).checks)).toEqual(['format']);
    const v2 = await demoBundle({ keys: [GEN1], beacon: BEACON, rounds: 3 });
    v2.rounds[0]!.coup!.beacon = honest.rounds[0]!.coup!.beacon!;
    const refused = await verifyShoe(v2, OPERATOR);
    expect(failed(refused.checks)).toEqual(['format']);
    expect(refused.checks[0]!.detail).toMatch(/rounds\.0\.coup\.beacon: only a pyb-shoe\/3 shoe records it/);
  });
});

describe('pyb-shoe/3 forgeries, each refused by its named check', () => {
  it("a coup's round replaced by another genuine round: round.N.beacon-named", async () => {
    const b = clone(honest);
    const coup = b.rounds[3]!.coup!;
    const other = coup.beacon!.round + 1;
    coup.beacon = { round: other, signature: BEACON.sign!(other) };
    const v = await verifyShoe(b, OPERATOR);
    expect(failed(v.checks)).toContain('round.4.beacon-named');
    expect(failed(v.checks)).not.toContain('round.4.beacon'); // a genuine round
    expect(independently(b)).toContain('round.4.beacon-named');
  });

  it('the same, by an insider who re-deals from the later round and signs it all: only round.N.beacon-named', async () => {
    const forged = await demoBundleV3({
      keys: [GEN1],
      beacon: BEACON,
      forge: { drawRound: (n, named) => (n === 4 ? named + 1 : named) },
    });
    const v = await verifyShoe(forged, OPERATOR);
    expect(failed(v.checks)).toEqual(['round.4.beacon-named']);
    expect(independently(forged)).toEqual(['round.4.beacon-named']);
  });

  it('a forged round signature: round.N.beacon', async () => {
    const b = clone(honest);
    const coup = b.rounds[5]!.coup!;
    coup.beacon = { round: coup.beacon!.round, signature: BEACON.sign!(coup.beacon!.round + 7) };
    const v = await verifyShoe(b, OPERATOR);
    expect(failed(v.checks)).toContain('round.6.beacon');
    expect(independently(b)).toContain('round.6.beacon');
  });

  it('BETTING_CLOSED re-dated to name a later round: the chain and its head break; re-signed, the receipt does', async () => {
    const edited = clone(honest);
    const closed = eventOf(edited, 4, 'BETTING_CLOSED').event;
    closed.at = new Date(Date.parse(String(closed.at)) + 30_000).toISOString();
    const v = await verifyShoe(edited, OPERATOR);
    expect(failed(v.checks)).toEqual(expect.arrayContaining(['audit.chain', 'round.4.beacon-named']));

    // Re-chained, with its head signed again by the platform's key: the head check holds…
    rechain(edited);
    for (const h of edited.heads) {
      const event = edited.audit.events[h.statement.seq]!;
      h.statement.head = event.hash;
      if (h.statement.at < String(event.event.at)) h.statement.at = String(event.event.at);
      h.signature = bytesToBase64(GEN1.sign(headStatementBytes(h.statement)));
    }
    edited.audit.close.head = edited.audit.events.at(-1)!.hash;
    edited.audit.signature = bytesToBase64(GEN1.sign(closeStatementBytes(edited.audit.close)));
    const resigned = failed((await verifyShoe(edited, OPERATOR)).checks);
    expect(resigned.filter((id) => id.startsWith('heads.') && !id.endsWith('.timestamp'))).toEqual([]);
    expect(resigned).toContain('round.4.beacon-named'); // the named round no longer follows from its time
    // Re-signed heads are other bytes: the TSA's tokens stamp the genuine ones (F2).
    expect(resigned).toContain('heads.round.4.betting.timestamp');

    // …and an insider who writes the whole shoe so (betting closed late, its coup from the later
    // round) passes every check of the evidence alone: the operator's receipt catches it.
    const late = await demoBundleV3({
      keys: [GEN1],
      beacon: BEACON,
      forge: { lateSeconds: (n) => (n === 4 ? 30 : 0) },
    });
    expect(eventOf(late, 4, 'BETTING_CLOSED').event.data).not.toEqual(
      eventOf(honest, 4, 'BETTING_CLOSED').event.data,
    );
    expect((await verifyShoe(late, OPERATOR)).verdict).toBe('verified');
    const receipt = honest.heads.find(
      (h) => h.statement.type === 'BETTING_CLOSED' && h.statement.roundId === honest.rounds[3]!.roundId,
    )!;
    const caught = await verifyShoe(late, { ...OPERATOR, receipts: [receipt] });
    expect(failed(caught.checks)).toEqual(['receipt.1']);
    expect(independently(late, [receipt])).toEqual(['receipt.1']);
  });

  it('a burn with other cards: round.N.burn.cards', async () => {
    const b = clone(honest);
    const burned = b.rounds[4]!.burned!;
    burned.cards = [burned.cards[1]!, burned.cards[0]!, ...burned.cards.slice(2)];
    if (burned.cards[0] === burned.cards[1]) burned.cards[0] = burned.cards[0] === 'AS' ? '2S' : 'AS';
    const v = await verifyShoe(b, OPERATOR);
    expect(failed(v.checks)).toContain('round.5.burn.cards');
    expect(independently(b)).toContain('round.5.burn.cards');
  });

  it("a coup's cards changed: round.N.cards", async () => {
    const b = clone(honest);
    const coup = b.rounds[7]!.coup!;
    coup.cards[0] = coup.cards[0] === 'KD' ? 'QD' : 'KD';
    const v = await verifyShoe(b, OPERATOR);
    expect(failed(v.checks)).toContain('round.8.cards');
    expect(failed(v.checks).filter((id) => /^round\.\d+\.cards$/.test(id))).toEqual(['round.8.cards']);
    expect(independently(b)).toContain('round.8.cards');
  });

  it('a recorded randomness that is not SHA-256 of the signature: audit.round.N.dealt', async () => {
    const b = clone(honest);
    const data = eventOf(b, 2, 'COUP_DEALT').event.data as { beacon: { randomness: string } };
    expect(data.beacon.randomness).toBe(beaconRandomness(b.rounds[1]!.coup!.beacon!.signature));
    data.beacon.randomness = 'ab'.repeat(32);
    rechain(b);
    expect(failed((await verifyShoe(b, OPERATOR)).checks)).toContain('audit.round.2.dealt');
  });
});

describe("the independent verifier reads each head's outside time-stamp from the documents alone", () => {
  const contributionsHead = (b: ShoeBundle) =>
    b.heads.find((h) => h.statement.type === 'CONTRIBUTIONS_CLOSED')!;
  const stamped = (b: ShoeBundle) =>
    independentVerify(b, { trustedKeys: [GEN1.pem], receipts: [] }).filter((id) => id.endsWith('.timestamp'));

  it('with no TSA pinned, or only a stranger, no head counts as stamped', async () => {
    const stranger = await (
      await LocalTimeStampAuthority.create({ name: 'stranger', clock: { now: () => new Date(0) } })
    ).certificatePem();
    const unpinned = stamped(honest);
    expect(unpinned).toContain('heads.contributions.timestamp');
    expect(unpinned).toContain('heads.round.1.betting.timestamp');
    expect(unpinned).toHaveLength(honest.rounds.length + 1);
    const strangers = independentVerify(honest, { trustedKeys: [GEN1.pem], trustedTsas: [stranger] });
    expect(strangers.filter((id) => id.endsWith('.timestamp'))).toEqual(unpinned);
  });

  it('F2: the contributions head stamped after its beacon round was out is refused, by both verifiers', async () => {
    const late = clone(honest);
    const head = contributionsHead(late);
    const at = Number(
      (late.audit.events[head.statement.seq]!.event.data as { beaconRound: unknown }).beaconRound,
    );
    const published = (late.statement.beacon.genesisTime + (at - 1) * late.statement.beacon.period) * 1000;
    const i = late.anchors!.findIndex((a) => a.seq === head.statement.seq);
    late.anchors![i] = { seq: head.statement.seq, ...(await stampAt(headDigest(head), published + 1_000)) };
    expect(independently(late)).toEqual(['heads.contributions.timestamp']);
    expect(failed((await verifyShoe(late, OPERATOR)).checks)).toContain('heads.contributions.timestamp');
    // the same stamp a second before the round: accepted
    late.anchors![i] = { seq: head.statement.seq, ...(await stampAt(headDigest(head), published - 1_000)) };
    expect(independently(late)).toEqual([]);
  });

  it('a stamp over another head does not count (its digest is not under the root)', async () => {
    const moved = clone(honest);
    const other = moved.anchors!.find((a) => a.seq !== contributionsHead(moved).statement.seq)!;
    const i = moved.anchors!.findIndex((a) => a.seq === contributionsHead(moved).statement.seq);
    moved.anchors![i] = { ...other, seq: contributionsHead(moved).statement.seq };
    expect(independently(moved)).toEqual(['heads.contributions.timestamp']);
  });
});
