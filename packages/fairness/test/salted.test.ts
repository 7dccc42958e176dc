/**
 * F5 (issue #24, item 7): the public proof must not be searchable back to a player or an amount. With
 * unsalted digests a search over 2,000 ids × 3,001 amounts recovered "player-1042 paid 1375" from
 * PLAYER_LEFT.collectionDigest in 13 s; here the same search, over a smaller space that holds the
 * answer, finds it in an unsalted shoe and finds nothing in a salted one, whose regulator bundle still
 * checks every digest (with its salt) and whose void note is in the chain only as a digest.
 */
import { tablePreset } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import { digest, sortedRecords } from '../src/audit';
import {
  canonicalJson,
  collectionRecord,
  noteDigest,
  type ShoeBundle,
  type ShoeProof,
  saltCommitmentOf,
  saltedDigest,
  shoeProof,
  verifyShoe,
} from '../src/index';
import { clone, demoBundle, demoBundleV3, testBeacon, testKey, testTsaPem } from './helpers';
import {
  cardCode,
  independentDigest,
  independentNoteDigest,
  independentSaltCommitment,
  independentVerify,
} from './independent';

const SALT = 'a5'.repeat(16) + '5a'.repeat(16);
const NOTE = 'card seen by player-2 (Ana García, seat 3) before the deal';
const LEAVING = { afterRound: 3, playerId: 'player-42', commission: 137, ledgerSeq: 107 };
const key = testKey('local:salted', '2024-06-01T00:00:00.000Z');
const TSAS = [await testTsaPem()];
/** The verifier written from the document, trusting the shoe's key and the demo TSA. */
const independently = (b: unknown) =>
  independentVerify(b as ShoeBundle, { trustedKeys: [key.pem], trustedTsas: TSAS });
const TRUST = { trustedPublicKey: key.pem, trustedBeacons: [(await testBeacon()).network] };

const salted = () =>
  demoBundle({ keys: [key], digestSalt: SALT, voided: [2], voidNote: NOTE, leaving: LEAVING, rounds: 8 });
const unsalted = () => demoBundle({ keys: [key], voided: [2], leaving: LEAVING, rounds: 8 });

const ids = Array.from({ length: 60 }, (_, i) => `player-${i}`);
const AMOUNTS = 300;

/** The F5 search: every PLAYER_LEFT digest against every (id, amount, ledgerSeq) in a small space. */
function search(evidence: ShoeBundle | ShoeProof): string[] {
  const targets = new Set(
    evidence.audit.events
      .map((e) => e.event as { type?: string; data?: { collectionDigest?: string } })
      .filter((e) => e.type === 'PLAYER_LEFT')
      .map((e) => e.data?.collectionDigest),
  );
  const found: string[] = [];
  for (const id of ids)
    for (let commission = 0; commission <= AMOUNTS; commission++)
      for (const ledgerSeq of [null, LEAVING.ledgerSeq])
        if (targets.has(digest([collectionRecord({ playerId: id, commission, ledgerSeq })])))
          found.push(`${id} paid ${commission}`);
  return found;
}

const failed = (v: { checks: { id: string; ok: boolean }[] }) =>
  v.checks.filter((c) => !c.ok).map((c) => c.id);

describe('salted digests (F5)', () => {
  it('the search that reads an unsalted proof finds nothing in a salted one', async () => {
    expect(search(shoeProof(await unsalted()))).toEqual(['player-42 paid 137']);
    expect(search(shoeProof(await salted()))).toEqual([]);
  });

  it('the public proof holds neither the salt nor the void note, and verifies without them', async () => {
    const proof = shoeProof(await salted());
    const text = JSON.stringify(proof);
    expect(text).not.toContain(SALT);
    expect(text).not.toContain('García');
    expect(text).not.toContain('player-');
    const v = await verifyShoe(proof, TRUST);
    expect(failed(v)).toEqual([]);
    expect(v.verdict).toBe('verified');
    expect(v.checks.find((c) => c.id === 'digests.salt')?.detail).toMatch(/only the regulator bundle/);
    expect(v.checks.find((c) => c.id === 'audit.round.2.note')?.ok).toBe(true);
    expect(independently(proof)).toEqual([]);
  });

  it('the regulator bundle checks every digest with its salt, the note and the commission', async () => {
    const bundle = await salted();
    const v = await verifyShoe(bundle, TRUST);
    expect(failed(v)).toEqual([]);
    const ids = v.checks.map((c) => c.id);
    for (const id of [
      'digests.salt',
      'audit.round.2.note',
      'audit.round.2.refunds',
      'audit.round.1.settlement',
      'audit.commission',
    ])
      expect(ids).toContain(id);
    expect(independently(bundle)).toEqual([]);
  });

  it('another salt, another note or another commission in the bundle fails by name', async () => {
    const bundle = await salted();
    const cases: [string, (b: ShoeBundle) => void, string[]][] = [
      ['salt', (b) => (b.digestSalt = '00'.repeat(32)), ['digests.salt']],
      ['note', (b) => (b.rounds[1]!.voidNote = 'nothing happened'), ['audit.round.2.note']],
      ['commission', (b) => (b.commission![0]!.collected += 1), ['audit.commission']],
      ['no salt', (b) => delete b.digestSalt, ['digests.salt']],
    ];
    for (const [what, forge, expected] of cases) {
      const b = clone(bundle);
      forge(b);
      const fails = failed(await verifyShoe(b, TRUST));
      for (const id of expected) expect(fails, what).toContain(id);
      const independent = independently(b);
      for (const id of expected) expect(independent, what).toContain(id);
    }
  });

  it('§10: a void report whose would-be coup is moved, or dropped, fails voids.report in both', async () => {
    const bundle = await unsalted();
    const cases: [string, (b: ShoeBundle) => void][] = [
      ['moved one card on', (b) => (b.voids.rounds[0]!.coup!.start += 1)],
      ['another index', (b) => (b.voids.rounds[0]!.coup!.index += 1)],
      ['dropped', (b) => (b.voids.rounds[0]!.coup = null)],
    ];
    for (const [what, forge] of cases) {
      const b = clone(bundle);
      forge(b);
      expect(failed(await verifyShoe(b, TRUST)), what).toContain('voids.report');
      expect(independently(b), what).toContain('voids.report');
    }
  });

  it('§10 and §11.1.1 from the doc alone, on whole shoes: both cut-card rules, voids up to the end', async () => {
    for (const [afterCutCard, salt] of [
      ['FINISH_COUP', SALT],
      ['ONE_MORE_COUP', undefined],
      ['ONE_MORE_COUP', '11'.repeat(32)],
    ] as const) {
      const b = await demoBundle({
        keys: [key],
        table: tablePreset('full', {
          commission: { rateBps: 500, mode: 'DEFERRED' },
          afterCutCard,
          cutCard: { minCardsBehind: 12, maxCardsBehind: 60 },
        }),
        voided: Array.from({ length: 40 }, (_, i) => 3 + i * 2),
        voidNote: 'cards stuck together',
        ...(salt !== undefined && { digestSalt: salt }),
      });
      expect(b.voids.count).toBeGreaterThan(20);
      expect(failed(await verifyShoe(b, TRUST)), afterCutCard).toEqual([]);
      expect(independently(b), afterCutCard).toEqual([]);
    }
  });

  it('a shoe without a salt (opened before) verifies as before, with no salt check', async () => {
    const bundle = await unsalted();
    const v = await verifyShoe(bundle, TRUST);
    expect(failed(v)).toEqual([]);
    expect(v.checks.some((c) => c.id === 'digests.salt')).toBe(false);
    expect(independently(bundle)).toEqual([]);
  });
});

describe('salted digests in a pyb-shoe/3 shoe', () => {
  // demoBundleV3: round 3 voided before its beacon round is out, round 5 burned for a dealer error.
  const v3 = (salt?: string) =>
    demoBundleV3({
      keys: [key],
      voidNote: NOTE,
      leaving: { ...LEAVING, afterRound: 4 },
      ...(salt !== undefined && { digestSalt: salt }),
    });

  it('salted or not, its bundle and proof verify in both verifiers; salted, the proof is not searchable', async () => {
    for (const salt of [SALT, undefined]) {
      const bundle = await v3(salt);
      const proof = shoeProof(bundle);
      expect(bundle.statement.scheme).toBe('pyb-shoe/3');
      for (const evidence of [bundle, proof]) {
        expect(failed(await verifyShoe(evidence, TRUST)), String(salt)).toEqual([]);
        expect(independently(evidence), String(salt)).toEqual([]);
      }
      const ids = (await verifyShoe(bundle, TRUST)).checks.map((c) => c.id);
      const voided = bundle.audit.events
        .filter((e) => e.event.type === 'ROUND_VOIDED')
        .map((e) => e.event.data as { note?: string; noteDigest?: string });
      if (salt === undefined) {
        expect(ids).not.toContain('digests.salt');
        expect(voided.map((d) => d.note)).toEqual([NOTE, NOTE]);
        expect(search(proof)).toEqual(['player-42 paid 137']);
        continue;
      }
      for (const id of ['digests.salt', 'audit.round.3.note', 'audit.round.5.note', 'audit.commission'])
        expect(ids).toContain(id);
      expect(voided.map((d) => [d.note, d.noteDigest])).toEqual([
        [undefined, noteDigest(SALT, NOTE)],
        [undefined, noteDigest(SALT, NOTE)],
      ]);
      expect(JSON.stringify(proof)).not.toContain('García');
      expect(search(proof)).toEqual([]);
    }
  });

  it("another salt, note or commission, or a burn's would-be coup moved or dropped, fails by name in both", async () => {
    const bundle = await v3(SALT);
    const cases: [string, (b: ShoeBundle) => void, string][] = [
      ['salt', (b) => (b.digestSalt = '00'.repeat(32)), 'digests.salt'],
      ['note of the burn', (b) => (b.rounds[4]!.voidNote = 'nothing happened'), 'audit.round.5.note'],
      ['commission', (b) => (b.commission![0]!.collected += 1), 'audit.commission'],
      ['burn moved', (b) => (b.voids.rounds[1]!.coup!.start += 1), 'voids.report'],
      ['burn dropped', (b) => (b.voids.rounds[1]!.coup = null), 'voids.report'],
      [
        'a coup for a void that drew none',
        (b) => (b.voids.rounds[0]!.coup = b.voids.rounds[1]!.coup),
        'voids.report',
      ],
    ];
    for (const [what, forge, expected] of cases) {
      const b = clone(bundle);
      forge(b);
      expect(failed(await verifyShoe(b, TRUST)), what).toContain(expected);
      expect(independently(b), what).toContain(expected);
    }
  });
});

/** docs/provably-fair.md §14.4 (Vector 9) and §11.1.2's example, copied by hand. */
describe('§14.4 salted digests: the vectors', () => {
  const salt = '5a'.repeat(32);
  const leave = [{ id: 'player-1042', commission: 1375, ledgerSeq: 88 }];
  const settlement = (type: string, amount: number, result: string, payout: number) => ({
    bets: [{ type, amount, result, payout, commission: 0, commissionOwed: 0 }],
    stake: amount,
    payout,
    commission: 0,
    commissionOwed: 0,
  });
  const settlements = [
    { id: 'player-7', stake: 1000, settlement: settlement('BANKER', 1000, 'LOSE', 0), ledgerSeq: 12 },
    {
      id: 'player-3',
      stake: 600,
      settlement: {
        bets: [
          { type: 'PLAYER', amount: 500, result: 'WIN', payout: 1000, commission: 0, commissionOwed: 0 },
          { type: 'TIE', amount: 100, result: 'LOSE', payout: 0, commission: 0, commissionOwed: 0 },
        ],
        stake: 600,
        payout: 1000,
        commission: 0,
        commissionOwed: 0,
      },
      ledgerSeq: 9,
    },
  ];
  const commission = [
    { id: 'player-3', collected: 250, owed: 0 },
    { id: 'player-10', collected: 0, owed: 50 },
  ];
  const cases: [string, string | undefined, { id: string }[], string][] = [
    [
      'collection, unsalted',
      undefined,
      leave,
      'eb282af03a120ef672228ddf15c60e4da382a52896a488deb7d771bad10c0731',
    ],
    ['collection', salt, leave, '73842540f324dc42c47d4c265307e95a0976339caaf5c70e998bf42f5b0b82c8'],
    ['settlements', salt, settlements, '747e78a2ea2d6c6f930bf51431f89a3bf04e043dc749d0af2d58eeb904c09f6a'],
    ['commission', salt, commission, '670c17dacb29030d12a51927259e8519566942911744acb4e891695cb54f680d'],
  ];
  it.each(cases)('%s: the library and the independent implementation', (_, s, records, expected) => {
    expect(saltedDigest(s, records)).toBe(expected);
    expect(independentDigest(s, records)).toBe(expected);
  });
  it('the salt commitment and a note', () => {
    const commitment = '60bf07c488aad18fda339df07e4fbc47b4f00be71711936f18d04d352ad01890';
    expect(saltCommitmentOf(salt)).toBe(commitment);
    expect(independentSaltCommitment(salt)).toBe(commitment);
    const note = '5c39ce4594dd40ce021e2423c36e338dbc3d23a09b1b185afd67a7cc10f1dab4';
    expect(noteDigest(salt, 'dealer exposed a card')).toBe(note);
    expect(independentNoteDigest(salt, 'dealer exposed a card')).toBe(note);
  });
  it('§11.1.2 example: the JCS bytes of the settlement records', () => {
    expect(canonicalJson(sortedRecords(settlements))).toBe(
      '[{"id":"player-3","ledgerSeq":9,"settlement":{"bets":[{"amount":500,"commission":0,"commissionOwed":0,"payout":1000,"result":"WIN","type":"PLAYER"},{"amount":100,"commission":0,"commissionOwed":0,"payout":0,"result":"LOSE","type":"TIE"}],"commission":0,"commissionOwed":0,"payout":1000,"stake":600},"stake":600},{"id":"player-7","ledgerSeq":12,"settlement":{"bets":[{"amount":1000,"commission":0,"commissionOwed":0,"payout":0,"result":"LOSE","type":"BANKER"}],"commission":0,"commissionOwed":0,"payout":0,"stake":1000},"stake":1000}]',
    );
  });
  it('§11.1: card codes, TD = 35', () => {
    expect(cardCode('TD')).toBe(35);
    expect(cardCode('10D')).toBe(35);
    expect(cardCode('AS')).toBe(0);
    expect(cardCode('KC')).toBe(51);
  });
});
