import { p256 } from '@noble/curves/nist.js';
import { tablePreset } from '@pyb/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allPassed,
  base64ToBytes,
  bytesToBase64,
  type Check,
  eventHash,
  parsePublicKey,
  type ShoeBundle,
  statementBytes,
  verifyBundle,
  verifyDerSignature,
} from '../src/index';
import { clone, demoBundle, testSigner } from './helpers';

const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);

let bundle: ShoeBundle;
beforeAll(async () => {
  bundle = await demoBundle({ voided: [3] });
});

/** Recomputes the chain hashes after an edit, as a forger with write access to the store would. */
function rechain(b: ShoeBundle) {
  let prev = b.statement.commitment;
  for (const e of b.audit.events) {
    e.prevHash = prev;
    e.hash = eventHash(prev, e.event);
    prev = e.hash;
  }
}

describe('verifyBundle on an honest shoe', () => {
  it('passes every check: one per round, position, chain link and signature', () => {
    const checks = verifyBundle(clone(bundle));
    expect(failed(checks)).toEqual([]);
    expect(allPassed(checks)).toBe(true);
    const ids = checks.map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'statement.rules',
        'statement.public-key',
        'statement.signature',
        'seed.commitment',
        'shoe.deal',
        'shoe.cut-index',
        'shoe.burn',
        'audit.chain',
        'audit.statement',
        'audit.client-seed',
        'audit.rounds',
        'audit.seed-revealed',
        'audit.close',
        'audit.close.signature',
      ]),
    );
    const settled = bundle.rounds.filter((r) => r.status === 'SETTLED');
    expect(settled.length).toBeGreaterThan(40); // a whole 6-deck shoe, ended by the cut card
    expect(ids.filter((id) => /^round\.\d+\.cards$/.test(id))).toHaveLength(bundle.rounds.length);
    expect(ids.filter((id) => /^round\.\d+\.player\..+\.payout$/.test(id))).toHaveLength(3 * settled.length);
    expect(ids.filter((id) => /^round\.\d+\.player\..+\.refund$/.test(id))).toHaveLength(3);
    expect(ids.filter((id) => id.endsWith('.shoe-end'))).toHaveLength(1);
  });

  it('replays other table rules too (deferred commission, tie 9:1, one more coup after the cut card)', async () => {
    const other = await demoBundle({
      table: tablePreset('full', {
        commission: { rateBps: 500, mode: 'DEFERRED' },
        tiePays: 9,
        afterCutCard: 'ONE_MORE_COUP',
        cutCard: { minCardsBehind: 12, maxCardsBehind: 60 },
      }),
      shoeId: 'shoe-demo-2',
    });
    expect(failed(verifyBundle(other))).toEqual([]);
    const owed = other.rounds
      .flatMap((r) => r.positions)
      .reduce((s, p) => s + (p.settlement?.commissionOwed ?? 0), 0);
    expect(owed).toBeGreaterThan(0);
  });

  it('replays the side bets and the Banca modes: every side bet re-settled; a changed payout is caught', async () => {
    const limit = { min: 100, max: 10_000 };
    for (const bankerMode of ['EZ', 'SUPER_6'] as const) {
      const sides = await demoBundle({
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
      expect(failed(verifyBundle(sides))).toEqual([]);
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
      expect(failed(verifyBundle(forged)).some((id) => id.endsWith('player.player-4.payout'))).toBe(true);
    }
  });

  it('accepts a trusted key that matches and refuses one that does not', () => {
    expect(failed(verifyBundle(clone(bundle), { trustedPublicKey: bundle.publicKey }))).toEqual([]);
    expect(failed(verifyBundle(clone(bundle), { trustedPublicKey: testSigner().pem }))).toEqual([
      'statement.public-key',
    ]);
  });
});

describe('verifyBundle catches tampering and names it', () => {
  const tamper = (edit: (b: ShoeBundle) => void) => {
    const b = clone(bundle);
    edit(b);
    return verifyBundle(b);
  };
  const k = 5; // round 6: settled, well inside the shoe
  const n = () => bundle.rounds[k]!.number;

  it('a statement field changed after signing', () => {
    const checks = tamper((b) => {
      b.statement.createdAt = '2025-01-01T19:00:00.000Z';
    });
    expect(failed(checks)).toEqual(['statement.signature', 'audit.statement']);
  });

  it('a table rule changed after signing: the signature, and the payouts it alters', () => {
    const checks = tamper((b) => {
      b.statement.table.commission.rateBps = 400;
    });
    expect(failed(checks)[0]).toBe('statement.signature');
    expect(failed(checks).some((id) => id.endsWith('.payout'))).toBe(true);
  });

  it('a forged signature', () => {
    const checks = tamper((b) => {
      const sig = base64ToBytes(b.signature);
      sig[sig.length - 3]! ^= 0x40;
      b.signature = bytesToBase64(sig);
    });
    expect(failed(checks)).toEqual(['statement.signature', 'audit.statement']);
  });

  it('another server seed than the committed one', () => {
    const checks = tamper((b) => {
      b.serverSeed = `${b.serverSeed.slice(0, 63)}${b.serverSeed.endsWith('0') ? '1' : '0'}`;
    });
    expect(failed(checks)).toEqual(
      expect.arrayContaining(['seed.commitment', 'round.1.cards', 'audit.seed-revealed']),
    );
  });

  it('a card of one coup', () => {
    const checks = tamper((b) => {
      const cards = b.rounds[k]!.coup!.cards;
      cards[1] = cards[1] === 'AS' ? 'KD' : 'AS';
    });
    expect(failed(checks)).toEqual([`round.${n()}.cards`, `audit.round.${n()}.dealt`]);
    expect(checks.find((c) => c.id === `round.${n()}.cards`)!.detail).toMatch(/^card \d+ should be/);
  });

  it('a recorded winner', () => {
    const checks = tamper((b) => {
      const coup = b.rounds[k]!.coup!;
      coup.winner = coup.winner === 'PLAYER' ? 'BANKER' : 'PLAYER';
    });
    expect(failed(checks)).toEqual([`round.${n()}.outcome`]);
    expect(checks.find((c) => !c.ok)!.detail).toMatch(/^winner: expected/);
  });

  it('a payout (and the settlement digest that no longer matches it)', () => {
    const checks = tamper((b) => {
      b.rounds[k]!.positions[0]!.settlement!.payout += 100;
    });
    expect(failed(checks)).toEqual([`round.${n()}.player.player-1.payout`, `audit.round.${n()}.settlement`]);
    expect(checks.find((c) => !c.ok)!.detail).toMatch(/^payout: expected \d+, recorded \d+$/);
  });

  it('a bet raised together with its payout so the arithmetic holds: the committed bets digest catches it', () => {
    const checks = tamper((b) => {
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
    });
    expect(failed(checks)).toEqual([`audit.round.${n()}.bets`, `audit.round.${n()}.settlement`]);
  });

  it('an audit event rewritten (even with its own hash recomputed)', () => {
    const checks = tamper((b) => {
      const e = b.audit.events[4]!;
      e.event = { ...e.event, note: 'edited' };
      e.hash = eventHash(e.prevHash, e.event);
    });
    expect(failed(checks)).toContain('audit.chain');
    expect(checks.find((c) => c.id === 'audit.chain')!.detail).toMatch(/^event 5: prevHash/);
  });

  it('a rewritten chain with every hash recomputed: the signed head no longer matches', () => {
    const checks = tamper((b) => {
      b.audit.events.splice(5, 1); // ROUND_OPENED of round 2
      rechain(b);
    });
    expect(failed(checks)).toEqual(['audit.rounds', 'audit.close']);
  });

  it('a close statement edited to match a rewritten chain: its signature fails', () => {
    const checks = tamper((b) => {
      b.audit.events.splice(5, 1);
      rechain(b);
      b.audit.close.head = b.audit.events[b.audit.events.length - 1]!.hash;
      b.audit.close.length = b.audit.events.length;
    });
    expect(failed(checks)).toEqual(['audit.rounds', 'audit.close.signature']);
  });

  it('another client seed than the one fixed in the chain', () => {
    const checks = tamper((b) => {
      b.clientSeed = 'a different client seed';
    });
    expect(failed(checks)).toEqual(expect.arrayContaining(['audit.client-seed', 'round.1.cards']));
  });

  it('a claimed cut index or burn the seeds do not give', () => {
    const cut = tamper((b) => {
      b.cutIndex -= 1;
    });
    expect(failed(cut)).toEqual(['shoe.cut-index']);
    const burn = tamper((b) => {
      b.burn.burned = b.burn.burned === 10 ? 9 : 10;
    });
    expect(failed(burn)).toEqual(['shoe.burn']);
  });

  it('a coup recorded after the cut card ended the shoe', () => {
    const checks = tamper((b) => {
      const last = b.rounds[b.rounds.length - 1]!;
      b.rounds.push({ ...clone(last), roundId: 'extra', number: last.number + 1 });
    });
    expect(failed(checks)).toContain(`round.${bundle.rounds.length + 1}.shoe-end`);
  });

  it('a voided round with a refund that is not the stake', () => {
    const checks = tamper((b) => {
      b.rounds[2]!.positions[0]!.stake -= 1;
    });
    expect(failed(checks)).toEqual(['round.3.player.player-1.refund', 'audit.round.3.refunds']);
  });

  it('something that is not a bundle', () => {
    const checks = verifyBundle({ format: 'pyb-shoe-bundle/1', statement: {} });
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ id: 'bundle.format', ok: false });
    expect(checks[0]!.detail).toMatch(/statement\./);
  });
});

describe('signatures', () => {
  it('accept a high-S signature as KMS may return it, and its low-S twin', () => {
    const spki = parsePublicKey(bundle.publicKey);
    const message = statementBytes(bundle.statement);
    const sig = p256.Signature.fromBytes(base64ToBytes(bundle.signature), 'der');
    const twin = new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s).toBytes('der');
    expect(verifyDerSignature(message, base64ToBytes(bundle.signature), spki)).toBe(true);
    expect(verifyDerSignature(message, twin, spki)).toBe(true);
    expect(verifyDerSignature(new Uint8Array([1, ...message]), twin, spki)).toBe(false);
  });

  it('refuse a key that is not P-256 SPKI', () => {
    expect(() => parsePublicKey('AAAA')).toThrow(/P-256/);
  });
});

describe('a signing key rotated while the shoe was open (opened under one key, closed under the next)', () => {
  const opener = testSigner();
  const closer = testSigner();
  let rotated: ShoeBundle;
  beforeAll(async () => {
    rotated = await demoBundle({
      publicKey: opener.pem,
      sign: opener.sign,
      keyId: 'key-1',
      closeKey: { keyId: 'key-2', publicKey: closer.pem, sign: closer.sign },
      rounds: 20,
    });
  });
  const edited = (edit: (b: ShoeBundle) => void, options = {}) => {
    const b = clone(rotated);
    edit(b);
    return failed(verifyBundle(b, options));
  };

  it('carries the second key in audit.publicKey and checks each signature with its own key', () => {
    expect([rotated.statement.keyId, rotated.audit.close.keyId]).toEqual(['key-1', 'key-2']);
    expect(rotated.audit.publicKey).toBe(closer.pem);
    const checks = verifyBundle(clone(rotated));
    expect(failed(checks)).toEqual([]);
    expect(checks.find((c) => c.id === 'audit.public-key')!.detail).toMatch(/^P-256 key key-2, SHA-256 /);
    expect(checks.find((c) => c.id === 'audit.close.signature')!.detail).toContain('(key key-2)');
  });

  it('trusts it only if both keys are trusted', () => {
    expect(failed(verifyBundle(clone(rotated), { trustedPublicKey: [opener.pem, closer.pem] }))).toEqual([]);
    expect(failed(verifyBundle(clone(rotated), { trustedPublicKey: opener.pem }))).toEqual([
      'audit.public-key',
    ]);
    expect(failed(verifyBundle(clone(rotated), { trustedPublicKey: [closer.pem] }))).toEqual([
      'statement.public-key',
    ]);
  });

  it('fails without the second key, or with another one in its place', () => {
    expect(
      edited((b) => {
        delete b.audit.publicKey;
      }),
    ).toEqual(['audit.close', 'audit.close.signature']);
    expect(
      edited((b) => {
        b.audit.publicKey = testSigner().pem;
      }),
    ).toEqual(['audit.close.signature']);
  });

  it("fails a close that claims the statement's key but brings another public key for it", () => {
    expect(
      edited((b) => {
        b.audit.close.keyId = b.statement.keyId;
      }),
    ).toEqual(['audit.public-key', 'audit.close.signature']);
  });

  it('a one-key bundle is unchanged: no audit.publicKey, format 1', () => {
    expect(bundle.audit.publicKey).toBeUndefined();
    expect(bundle.format).toBe('pyb-shoe-bundle/1');
    expect('publicKey' in bundle.audit).toBe(false);
  });
});
