import { p256 } from '@noble/curves/nist.js';
import { tablePreset } from '@pyb/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  type Check,
  parsePublicKey,
  type ShoeBundle,
  type SignedKeyCertificate,
  shoeProof,
  statementBytes,
  verifyDerSignature,
  verifyShoe,
} from '../src/index';
import { demoKeyCertificates } from './demo';
import { clone, demoBundle, testBeacon, testKey, testSigner, testTsaPem } from './helpers';

const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);
const untrusted = (checks: Check[]) => checks.filter((c) => c.untrusted).map((c) => c.id);

const KEY = testKey('key-1', '2024-06-01T00:00:00.000Z');
const BEACON = await testBeacon();
/** The caller trusts the operator's key and the test beacon: an honest shoe is then `verified`. */
const TRUST = { trustedPublicKey: KEY.pem, trustedBeacons: [BEACON.network] };

let bundle: ShoeBundle;
beforeAll(async () => {
  bundle = await demoBundle({ keys: [KEY], beacon: BEACON, voided: [3] });
});

describe('verifyShoe on an honest shoe', () => {
  it('passes every check: one per round, position, chain link, head and signature', async () => {
    const { verdict, checks } = await verifyShoe(clone(bundle), TRUST);
    expect(failed(checks)).toEqual([]);
    expect(verdict).toBe('verified');
    const ids = checks.map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'format',
        'keys.chain',
        'keys.trusted',
        'statement.rules',
        'statement.signature',
        'statement.key',
        'statement.beacon',
        'statement.previous',
        'seed.commitment',
        'beacon.signature',
        'beacon.round',
        'contributions.digest',
        'shoe.deal',
        'shoe.cut-index',
        'shoe.burn',
        'voids.report',
        'audit.seq',
        'audit.shoe',
        'audit.chain',
        'audit.order',
        'audit.times',
        'audit.statement',
        'audit.beacon',
        'audit.rounds',
        'audit.seed-revealed',
        'heads.complete',
        'audit.close',
        'audit.close.signature',
        'audit.close.key',
      ]),
    );
    const settled = bundle.rounds.filter((r) => r.status === 'SETTLED');
    expect(settled.length).toBeGreaterThan(40); // a whole 6-deck shoe, ended by the cut card
    expect(ids.filter((id) => /^round\.\d+\.cards$/.test(id))).toHaveLength(bundle.rounds.length);
    expect(ids.filter((id) => /^audit\.round\.\d+\.order$/.test(id))).toHaveLength(bundle.rounds.length);
    expect(ids.filter((id) => /^round\.\d+\.player\..+\.payout$/.test(id))).toHaveLength(3 * settled.length);
    expect(ids.filter((id) => /^round\.\d+\.player\..+\.refund$/.test(id))).toHaveLength(3);
    expect(ids.filter((id) => /^heads\./.test(id) && id !== 'heads.complete')).toHaveLength(
      1 + bundle.rounds.length,
    );
    expect(ids.filter((id) => id.endsWith('.shoe-end'))).toHaveLength(1);
  });

  it('is untrusted, not verified, without a trusted key: consistent but self-signed', async () => {
    const { verdict, checks } = await verifyShoe(clone(bundle), { trustedBeacons: TRUST.trustedBeacons });
    expect(failed(checks)).toEqual([]);
    expect(verdict).toBe('untrusted');
    expect(untrusted(checks)).toEqual(['keys.trusted']);
    expect(checks.find((c) => c.id === 'keys.trusted')!.detail).toMatch(/^no trusted key was given/);
  });

  it('is untrusted when the beacon network is not quicknet and not trusted by the caller', async () => {
    const { verdict, checks } = await verifyShoe(clone(bundle), { trustedPublicKey: KEY.pem });
    expect(verdict).toBe('untrusted');
    expect(untrusted(checks)).toEqual(['statement.beacon']);
  });

  it('fails with a key that is not the operator’s', async () => {
    const { verdict, checks } = await verifyShoe(clone(bundle), {
      ...TRUST,
      trustedPublicKey: testSigner().pem,
    });
    expect(verdict).toBe('failed');
    expect(failed(checks)).toEqual(['keys.trusted']);
  });

  it('replays other table rules too (deferred commission, tie 9:1, one more coup after the cut card)', async () => {
    const other = await demoBundle({
      keys: [KEY],
      table: tablePreset('full', {
        commission: { rateBps: 500, mode: 'DEFERRED' },
        tiePays: 9,
        afterCutCard: 'ONE_MORE_COUP',
        cutCard: { minCardsBehind: 12, maxCardsBehind: 60 },
      }),
      shoeId: 'shoe-demo-2',
      voided: [2, 5],
    });
    expect(failed((await verifyShoe(other, TRUST)).checks)).toEqual([]);
    const owed = other.rounds
      .flatMap((r) => r.positions)
      .reduce((s, p) => s + (p.settlement?.commissionOwed ?? 0), 0);
    expect(owed).toBeGreaterThan(0);
    expect(other.voids.count).toBe(2);
  });

  it('replays the side bets and the Banca modes: every side bet re-settled; a changed payout is caught', async () => {
    const limit = { min: 100, max: 10_000 };
    for (const bankerMode of ['EZ', 'SUPER_6'] as const) {
      const sides = await demoBundle({
        keys: [KEY],
        table: tablePreset('full', {
          bankerMode,
          sideBets: {
            EITHER_PAIR: { limit },
            PERFECT_PAIR: { limit },
            DRAGON_BONUS_PLAYER: { limit },
            DRAGON_BONUS_BANKER: { limit },
            DRAGON_7: { limit },
            PANDA_8: { limit },
            SUPER_6: { limit },
            BIG: { limit },
            SMALL: { limit },
          },
        }),
        shoeId: `shoe-sides-${bankerMode}`,
      });
      expect(failed((await verifyShoe(sides, TRUST)).checks)).toEqual([]);
      const player4 = sides.rounds.flatMap((r) => r.positions).filter((p) => p.playerId === 'player-4');
      expect(player4.length).toBeGreaterThan(40);
      const won = player4.flatMap((p) => p.settlement?.bets ?? []).filter((b) => b.result === 'WIN');
      // a shoe is ~80 coups: most side bets win at least once (a perfect pair may not: ~3% a coup)
      expect(new Set(won.map((b) => b.type)).size).toBeGreaterThanOrEqual(7);
      const forged = clone(sides);
      const position = forged.rounds
        .flatMap((r) => r.positions)
        .find((p) => p.playerId === 'player-4' && p.settlement)!;
      const big = position.settlement!.bets.find((b) => b.type === 'BIG')!;
      big.payout += 1;
      position.settlement!.payout += 1;
      expect(
        failed((await verifyShoe(forged, TRUST)).checks).some((id) => id.endsWith('player.player-4.payout')),
      ).toBe(true);
    }
  });

  it('the public proof of the same shoe verifies too, without positions', async () => {
    const proof = shoeProof(clone(bundle));
    expect(JSON.stringify(proof)).not.toMatch(/player-\d/);
    const { verdict, checks, format } = await verifyShoe(proof, TRUST);
    expect(failed(checks)).toEqual([]);
    expect([verdict, format]).toEqual(['verified', 'pyb-shoe-proof/1']);
    expect(checks.some((c) => c.id.endsWith('.payout'))).toBe(false);
  });
});

describe('verifyShoe catches tampering and names it', () => {
  const tamper = async (edit: (b: ShoeBundle) => void) => {
    const b = clone(bundle);
    edit(b);
    return failed((await verifyShoe(b, TRUST)).checks);
  };
  const k = 5; // round 6: settled, well inside the shoe
  const n = () => bundle.rounds[k]!.number;

  it('a statement field changed after signing', async () => {
    expect(
      await tamper((b) => {
        b.statement.codeVersion = 'another build';
      }),
    ).toEqual(['statement.signature', 'audit.statement']);
  });

  it('a table rule changed after signing: the signature, and the payouts it alters', async () => {
    const ids = await tamper((b) => {
      b.statement.table.commission.rateBps = 400;
    });
    expect(ids[0]).toBe('statement.signature');
    expect(ids.some((id) => id.endsWith('.payout'))).toBe(true);
  });

  it('a forged statement signature', async () => {
    expect(
      await tamper((b) => {
        const sig = base64ToBytes(b.signature);
        sig[sig.length - 3]! ^= 0x40;
        b.signature = bytesToBase64(sig);
      }),
    ).toEqual(['statement.signature', 'audit.statement']);
  });

  it('another server seed than the committed one', async () => {
    expect(
      await tamper((b) => {
        b.serverSeed = `${b.serverSeed.slice(0, 63)}${b.serverSeed.endsWith('0') ? '1' : '0'}`;
      }),
    ).toEqual(expect.arrayContaining(['seed.commitment', 'round.1.cards', 'audit.seed-revealed']));
  });

  it('a card of one coup', async () => {
    expect(
      await tamper((b) => {
        const cards = b.rounds[k]!.coup!.cards;
        cards[1] = cards[1] === 'AS' ? 'KD' : 'AS';
      }),
    ).toEqual([`round.${n()}.cards`, `audit.round.${n()}.dealt`]);
  });

  it('a payout (and the settlement digest that no longer matches it)', async () => {
    expect(
      await tamper((b) => {
        b.rounds[k]!.positions[0]!.settlement!.payout += 100;
      }),
    ).toEqual([`round.${n()}.player.player-1.payout`, `audit.round.${n()}.settlement`]);
  });

  it('a bet raised together with its payout so the arithmetic holds: the committed bets digest catches it', async () => {
    expect(
      await tamper((b) => {
        const p = b.rounds[k]!.positions[0]!;
        const s = p.settlement!;
        const bet = s.bets[0]!;
        const factor = bet.result === 'WIN' ? 2 : bet.result === 'PUSH' ? 1 : 0;
        p.bets.PLAYER! += 500;
        p.stake += 500;
        bet.amount += 500;
        bet.payout += 500 * factor;
        s.stake += 500;
        s.payout += 500 * factor;
      }),
    ).toEqual([`audit.round.${n()}.bets`, `audit.round.${n()}.settlement`]);
  });

  it('an audit event rewritten (even with its own hash recomputed)', async () => {
    const ids = await tamper((b) => {
      const e = b.audit.events[12]!;
      e.event = { ...e.event, note: 'edited' };
    });
    expect(ids).toContain('audit.chain');
  });

  it('a beacon signature that is not the network’s', async () => {
    expect(
      await tamper((b) => {
        b.beacon.signature = BEACON.sign!(b.beacon.round + 1);
      }),
    ).toEqual(expect.arrayContaining(['beacon.signature', 'audit.beacon', 'round.1.cards']));
  });

  it('another beacon round than the one the close of contributions chose', async () => {
    const ids = await tamper((b) => {
      b.beacon.round += 1;
      b.beacon.signature = BEACON.sign!(b.beacon.round);
    });
    expect(ids).toEqual(expect.arrayContaining(['beacon.round', 'audit.beacon', 'round.1.cards']));
    expect(ids).not.toContain('beacon.signature');
  });

  it('a contribution dropped or changed after the close', async () => {
    expect(
      await tamper((b) => {
        b.contributions.pop();
      }),
    ).toEqual(expect.arrayContaining(['contributions.digest', 'round.1.cards']));
    expect(
      await tamper((b) => {
        b.contributions[0]!.seed = 'another seed';
      }),
    ).toEqual(expect.arrayContaining(['contributions.digest', 'round.1.cards']));
  });

  it('a claimed cut index or burn the seeds do not give', async () => {
    expect(
      await tamper((b) => {
        b.cutIndex -= 1;
      }),
    ).toEqual(['shoe.cut-index']);
    expect(
      await tamper((b) => {
        b.burn.burned = b.burn.burned === 10 ? 9 : 10;
      }),
    ).toEqual(['shoe.burn']);
  });

  it('a voided round with a refund that is not the stake', async () => {
    expect(
      await tamper((b) => {
        b.rounds[2]!.positions[0]!.stake -= 1;
      }),
    ).toEqual(['round.3.player.player-1.refund', 'audit.round.3.bets', 'audit.round.3.refunds']);
  });

  it('a void report that hides what the voided round would have cost the house', async () => {
    expect(
      await tamper((b) => {
        b.voids.houseNet = 0;
        b.voids.rounds[0]!.houseNet = 0;
      }),
    ).toEqual(['voids.report']);
  });

  it('something that is neither a bundle nor a proof, and a v1 bundle', async () => {
    const checks = (await verifyShoe({ format: 'pyb-shoe-bundle/2', statement: {} })).checks;
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ id: 'format', ok: false });
    const v1 = await verifyShoe({ format: 'pyb-shoe-bundle/1' });
    expect(v1.verdict).toBe('failed');
    expect(v1.checks[0]!.detail).toMatch(/pyb-shoe\/2 and pyb-shoe\/3/);
  });
});

describe('signatures', () => {
  it('accept a high-S signature as KMS may return it, and its low-S twin', async () => {
    const spki = parsePublicKey(KEY.pem);
    const message = statementBytes(bundle.statement);
    const sig = p256.Signature.fromBytes(base64ToBytes(bundle.signature), 'der');
    const twin = new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s).toBytes('der');
    expect(await verifyDerSignature(message, base64ToBytes(bundle.signature), spki)).toBe(true);
    expect(await verifyDerSignature(message, twin, spki)).toBe(true);
    expect(await verifyDerSignature(new Uint8Array([1, ...message]), twin, spki)).toBe(false);
  });

  it('refuse a key that is not P-256 SPKI', () => {
    expect(() => parsePublicKey('AAAA')).toThrow(/P-256/);
  });
});

describe('a signing key rotated while the shoe was open', () => {
  const gen1 = testKey('key-1', '2024-06-01T00:00:00.000Z');
  // Generation 2 takes over an hour after the shoe opened: rounds after that are signed by it.
  const gen2 = testKey('key-2', '2025-01-01T20:03:00.000Z');
  let rotated: ShoeBundle;
  /** Every generation's certificate, as GET /v1/signing-key lists them. */
  let service: SignedKeyCertificate[];
  /** The demo TSA that stamped the rotation (demo-tsa.ts). */
  let tsa: string;
  beforeAll(async () => {
    rotated = await demoBundle({ keys: [gen1, gen2], beacon: BEACON, rounds: 400 });
    service = await demoKeyCertificates([gen1, gen2]);
    tsa = await testTsaPem();
  });
  const trust = (keys: string[]) => ({
    trustedPublicKey: keys,
    trustedBeacons: TRUST.trustedBeacons,
    keyCertificates: service,
    trustedTimeStampAuthorities: [tsa],
  });

  it('carries both certificates; statement by generation 1, close by generation 2, each valid when it signed', async () => {
    expect(rotated.keys.map((k) => k.certificate.keyId)).toEqual(['key-1', 'key-2']);
    expect([rotated.statement.keyId, rotated.audit.close.keyId]).toEqual(['key-1', 'key-2']);
    const heads = new Set(rotated.heads.map((h) => h.statement.keyId));
    expect(heads).toEqual(new Set(['key-1', 'key-2']));
    const { verdict, checks } = await verifyShoe(clone(rotated), trust([gen1.pem]));
    expect(failed(checks)).toEqual([]);
    // Trusting generation 1 is enough: it certified generation 2 at the handover, as the service lists it.
    expect(verdict).toBe('verified');
  });

  it('trusting only generation 2 does not vouch for generation 1', async () => {
    expect(failed((await verifyShoe(clone(rotated), trust([gen2.pem]))).checks)).toEqual(['keys.trusted']);
  });

  it('a certificate whose validity was moved earlier is not signed by its predecessor any more', async () => {
    const b = clone(rotated);
    b.keys[1]!.certificate.validFrom = '2024-12-01T00:00:00.000Z';
    expect(failed((await verifyShoe(b, trust([gen1.pem]))).checks)).toContain('keys.chain');
  });
});
