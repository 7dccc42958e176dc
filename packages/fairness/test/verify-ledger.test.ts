/**
 * `round.N.player.P.ledger`: the wallet entries a regulator bundle carries per position, against the
 * settlement or refund the signed heads commit (verify-ledger.ts). The ledger is not under a signed
 * head: only its agreement with what is, so an entry edited after the fact fails this check alone.
 */
import { describe, expect, it } from 'vitest';
import { type Check, type ShoeBundle, verifyShoe } from '../src/index';
import { clone, demoBundle, testBeacon, testKey } from './helpers';

const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);

const KEY = testKey('key-1', '2024-06-01T00:00:00.000Z');
const BEACON = await testBeacon();
const TRUST = { trustedPublicKey: KEY.pem, trustedBeacons: [BEACON.network] };

/** The demo shoe with each position's entries as a hosted wallet writes them: its calls, then its credit. */
async function withLedgers(): Promise<ShoeBundle> {
  const b = await demoBundle({ keys: [KEY], beacon: BEACON, voided: [3] });
  let seq = 1;
  for (const round of b.rounds) {
    for (const p of round.positions) {
      const calls = Array.from({ length: p.calls }, () => ({ seq: seq++, kind: 'BET' as const, amount: -1 }));
      const credit =
        p.ledgerSeq === null
          ? []
          : [
              {
                seq: p.ledgerSeq,
                kind: round.status === 'SETTLED' ? ('PAYOUT' as const) : ('REFUND' as const),
                amount: round.status === 'SETTLED' ? p.settlement!.payout : p.stake,
              },
            ];
      p.ledger = [...calls, ...credit];
    }
  }
  return b;
}

const paid = (b: ShoeBundle) => {
  const round = b.rounds.find(
    (r) => r.status === 'SETTLED' && r.positions.some((p) => p.ledgerSeq !== null),
  )!;
  return { round, position: round.positions.find((p) => p.ledgerSeq !== null)! };
};

describe('a position’s ledger entries in the bundle', () => {
  it('agree with every settlement and refund: each position passes its .ledger check', async () => {
    const b = await withLedgers();
    const { verdict, checks } = await verifyShoe(clone(b), TRUST);
    expect(failed(checks)).toEqual([]);
    expect(verdict).toBe('verified');
    const positions = b.rounds.reduce((n, r) => n + r.positions.length, 0);
    expect(checks.filter((c) => c.id.endsWith('.ledger'))).toHaveLength(positions);
  });

  it('a PAYOUT entry raised by 5,000 fails that position’s .ledger check, and nothing else', async () => {
    const b = await withLedgers();
    const { round, position } = paid(b);
    position.ledger!.at(-1)!.amount += 5_000;
    const { verdict, checks } = await verifyShoe(b, TRUST);
    const id = `round.${round.number}.player.${position.playerId}.ledger`;
    expect(failed(checks)).toEqual([id]);
    expect(checks.find((c) => c.id === id)!.detail).toMatch(
      /PAYOUT entry credited \d+, the position was paid \d+/,
    );
    expect(verdict).toBe('failed');
  });

  it('a payout entry dropped, or another entry named, fails it too', async () => {
    const dropped = await withLedgers();
    const one = paid(dropped);
    one.position.ledger = one.position.ledger!.slice(0, -1);
    expect(failed((await verifyShoe(dropped, TRUST)).checks)).toEqual([
      `round.${one.round.number}.player.${one.position.playerId}.ledger`,
    ]);
    const moved = await withLedgers();
    const two = paid(moved);
    two.position.ledger!.at(-1)!.seq += 1_000;
    expect(failed((await verifyShoe(moved, TRUST)).checks)).toEqual([
      `round.${two.round.number}.player.${two.position.playerId}.ledger`,
    ]);
  });

  it('a bundle without entries (made before they were carried) has no .ledger check', async () => {
    const b = await demoBundle({ keys: [KEY], beacon: BEACON, voided: [3] });
    const { checks } = await verifyShoe(b, TRUST);
    expect(checks.filter((c) => c.id.endsWith('.ledger'))).toEqual([]);
  });
});
