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
  it('passes every check, one per coup, position and link', () => {
    const checks = verifyBundle(clone(bundle));
    expect(failed(checks)).toEqual([]);
    expect(allPassed(checks)).toBe(true);
    const ids = checks.map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining(['statement.signature', 'seed.commitment', 'shoe.cut-index', 'shoe.burn']),
    );
    expect(ids).toEqual(
      expect.arrayContaining(['audit.chain', 'audit.client-seed', 'audit.close', 'audit.close.signature']),
    );
    const settled = bundle.rounds.filter((r) => r.status === 'SETTLED');
    expect(settled.length).toBeGreaterThan(40); // a whole 6-deck shoe, ended by the cut card
    expect(ids.filter((id) => /^coup\.\d+\.cards$/.test(id))).toHaveLength(bundle.rounds.length);
    expect(ids.filter((id) => /^coup\.\d+\.position\..+\.payout$/.test(id))).toHaveLength(
      3 * bundle.rounds.length,
    );
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
    const checks = verifyBundle(other);
    expect(failed(checks)).toEqual([]);
    const owed = other.rounds.flatMap((r) => r.positions).reduce((s, p) => s + p.commissionOwed, 0);
    expect(owed).toBeGreaterThan(0);
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
  const firstSettled = () => bundle.rounds.findIndex((r) => r.status === 'SETTLED' && r.coup > 3);

  it('a statement field changed after signing', () => {
    const checks = tamper((b) => {
      b.statement.createdAt = '2025-01-01T19:00:00.000Z';
    });
    expect(failed(checks)).toEqual(['statement.signature']);
  });

  it('a table rule changed after signing: the signature and the payouts it alters', () => {
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
    expect(failed(checks)).toEqual(['statement.signature']);
  });

  it('another server seed than the committed one', () => {
    const checks = tamper((b) => {
      b.serverSeed = `${b.serverSeed.slice(0, 63)}${b.serverSeed.endsWith('0') ? '1' : '0'}`;
    });
    expect(failed(checks)).toContain('seed.commitment');
    expect(failed(checks)).toContain('coup.1.cards');
  });

  it('a card of one coup', () => {
    const k = firstSettled();
    const coup = bundle.rounds[k]!.coup;
    const checks = tamper((b) => {
      b.rounds[k]!.cards[1] = b.rounds[k]!.cards[1] === 'AS' ? 'KD' : 'AS';
    });
    expect(failed(checks)).toEqual([`coup.${coup}.cards`]);
    expect(checks.find((c) => c.id === `coup.${coup}.cards`)!.detail).toMatch(/should be/);
  });

  it('a recorded winner', () => {
    const k = firstSettled();
    const checks = tamper((b) => {
      const o = b.rounds[k]!.outcome!;
      o.winner = o.winner === 'PLAYER' ? 'BANKER' : 'PLAYER';
    });
    expect(failed(checks)).toEqual([`coup.${bundle.rounds[k]!.coup}.outcome`]);
  });

  it('a payout (and the settlement digest that no longer matches it)', () => {
    const k = firstSettled();
    const { coup, positions } = bundle.rounds[k]!;
    const checks = tamper((b) => {
      b.rounds[k]!.positions[0]!.payout += 100;
    });
    expect(failed(checks)).toEqual([
      `coup.${coup}.position.${positions[0]!.positionId}.payout`,
      `audit.coup.${coup}.settlement`,
    ]);
    expect(checks.find((c) => !c.ok)!.detail).toMatch(/position payout: expected \d+, recorded \d+/);
  });

  it('a bet raised together with its payout, so the arithmetic holds: the committed bets digest catches it', () => {
    const k = firstSettled();
    const { coup } = bundle.rounds[k]!;
    const checks = tamper((b) => {
      const p = b.rounds[k]!.positions[0]!;
      const bet = p.bets[0]!;
      const factor = bet.result === 'WIN' ? 2 : bet.result === 'PUSH' ? 1 : 0;
      bet.amount += 500;
      bet.payout += 500 * factor;
      p.payout += 500 * factor;
    });
    expect(failed(checks)).toContain(`audit.coup.${coup}.bets`);
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
      b.audit.events.splice(4, 1); // a COUP_RESOLVED event
      rechain(b);
    });
    expect(failed(checks)).toContain('audit.close');
    expect(failed(checks)).not.toContain('audit.chain');
  });

  it('a close statement edited to match a rewritten chain: its signature fails', () => {
    const checks = tamper((b) => {
      b.audit.events.splice(4, 1); // a COUP_RESOLVED event
      rechain(b);
      b.audit.close.head = b.audit.events[b.audit.events.length - 1]!.hash;
      b.audit.close.length = b.audit.events.length;
    });
    expect(failed(checks)).toEqual(['audit.close.signature']);
  });

  it('another client seed than the one fixed in the chain', () => {
    const checks = tamper((b) => {
      b.clientSeed = 'a different client seed';
    });
    expect(failed(checks)).toContain('audit.client-seed');
    expect(failed(checks)).toContain('coup.1.cards');
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
      b.rounds.push({ ...clone(last), roundId: 'extra', coup: last.coup + 1 });
    });
    expect(failed(checks)).toEqual(expect.arrayContaining([`coup.${bundle.rounds.length + 1}.shoe-end`]));
  });

  it('a voided round that did not refund in full', () => {
    const checks = tamper((b) => {
      const p = b.rounds[2]!.positions[0]!;
      p.bets[0]!.payout -= 1;
      p.payout -= 1;
    });
    expect(failed(checks)).toEqual(['coup.3.position.c3-p1.payout', 'audit.coup.3.settlement']);
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
    const b = clone(bundle);
    const spki = parsePublicKey(b.publicKey);
    const message = statementBytes(b.statement);
    const sig = p256.Signature.fromBytes(base64ToBytes(b.signature), 'der');
    const n = p256.Point.CURVE().n;
    const twin = new p256.Signature(sig.r, n - sig.s).toBytes('der');
    expect(verifyDerSignature(message, base64ToBytes(b.signature), spki)).toBe(true);
    expect(verifyDerSignature(message, twin, spki)).toBe(true);
  });

  it('refuse a key that is not P-256 SPKI', () => {
    expect(() => parsePublicKey('AAAA')).toThrow(/P-256/);
  });
});
