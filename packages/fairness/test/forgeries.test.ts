/**
 * The forgeries of issue #10, built the way an insider would: write access to every stored item, and
 * the platform's current signing key (KMS Sign with the key the functions use). Each one is refused
 * by the verifier with a named check.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  betsDigest,
  bytesToBase64,
  type Check,
  closeStatementBytes,
  headStatementBytes,
  keyCertificateBytes,
  type RecordedPosition,
  type ShoeBundle,
  settlementsDigest,
  verifyShoe,
} from '../src/index';
import { demoKeyCertificates } from './demo';
import { clone, demoBundle, rechain, testBeacon, testKey, testTsaPem } from './helpers';
import { independentVerify } from './independent';

const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);

/**
 * What the second implementation (test/independent.ts, written from docs/provably-fair.md alone)
 * refuses in the same evidence: the doc is enough to catch each forgery.
 */
const TSA = await testTsaPem();
const independently = (b: ShoeBundle, trusted: string[], receipts: ShoeBundle['heads'] = []) =>
  independentVerify(b, { trustedKeys: trusted, receipts, trustedTsas: [TSA] });

const BEACON = await testBeacon();
const GEN1 = testKey('key-1', '2024-06-01T00:00:00.000Z');
const OPERATOR = { trustedPublicKey: GEN1.pem, trustedBeacons: [BEACON.network] };

type Key = { keyId: string; sign: (m: Uint8Array) => Uint8Array };

/**
 * What an insider does after editing stored events: renumber nothing, recompute every link and hash,
 * then sign again with the key he holds whatever the edit invalidated — the close (keeping its date),
 * and, if `heads`, every stored head whose hash moved (keeping their dates).
 */
function cover(b: ShoeBundle, key: Key, opts: { heads: boolean }) {
  rechain(b);
  if (opts.heads) {
    for (const h of b.heads) {
      const event = b.audit.events[h.statement.seq];
      if (!event || event.hash === h.statement.head) continue;
      h.statement.head = event.hash;
      h.statement.keyId = key.keyId;
      h.signature = bytesToBase64(key.sign(headStatementBytes(h.statement)));
    }
  }
  const close = b.audit.close;
  close.head = b.audit.events.at(-1)!.hash;
  close.length = b.audit.events.length;
  close.keyId = key.keyId;
  b.audit.signature = bytesToBase64(key.sign(closeStatementBytes(close)));
}

let honest: ShoeBundle;
beforeAll(async () => {
  honest = await demoBundle({ keys: [GEN1], beacon: BEACON, rounds: 30 });
});

const eventsOf = (b: ShoeBundle, roundId: string) =>
  b.audit.events.map((e, i) => ({ e, i })).filter(({ e }) => e.event.roundId === roundId);

describe('forgeries by an insider with database write access and the signing key', () => {
  it('reorder: BETTING_CLOSED moved after COUP_DEALT (a bet taken once the cards were known)', async () => {
    const b = clone(honest);
    const round = b.rounds[4]!;
    const [, closed, dealt] = eventsOf(b, round.roundId);
    // Swap the two events and their sequence numbers, so seq still equals the index.
    const events = b.audit.events;
    [events[closed!.i], events[dealt!.i]] = [events[dealt!.i]!, events[closed!.i]!];
    events[closed!.i]!.event.seq = closed!.i;
    events[dealt!.i]!.event.seq = dealt!.i;
    // And their times, so that no time goes back: only the order gives it away.
    [events[closed!.i]!.event.at, events[dealt!.i]!.event.at] = [closed!.e.event.at, dealt!.e.event.at];
    cover(b, GEN1, { heads: true });
    const ids = failed((await verifyShoe(b, OPERATOR)).checks);
    expect(ids).toContain(`audit.round.${round.number}.order`);
    expect(ids).toContain('audit.order');
    expect(ids).not.toContain('audit.times');
    const detail = (await verifyShoe(b, OPERATOR)).checks.find(
      (c) => c.id === `audit.round.${round.number}.order`,
    )!.detail;
    expect(detail).toMatch(/COUP_DEALT < BETTING_CLOSED/);
    expect(independently(b, [GEN1.pem])).toEqual([`audit.round.${round.number}.order`]);
  });

  it('back-dated close with a newer key: a position removed after a rotation, the close re-signed by generation 2 with the old date', async () => {
    // Generation 2 took over after the shoe closed; generation 1 is retired (KMS denies it Sign).
    const gen2 = testKey('key-2', '2026-01-01T00:00:00.000Z');
    const b = clone(await demoBundle({ keys: [GEN1, gen2], beacon: BEACON, rounds: 30 }));
    expect(b.audit.close.keyId).toBe('key-1');
    // Remove player-2's position from round 3 and fix every digest that committed to it.
    const round = b.rounds[2]!;
    round.positions = round.positions.filter((p) => p.playerId !== 'player-2');
    const [, closed, , settled] = eventsOf(b, round.roundId);
    const open = round.positions.map((p) => ({ ...p, settlement: null, ledgerSeq: null }));
    closed!.e.event.data = { betsDigest: betsDigest(open), positions: open.length };
    settled!.e.event.data = {
      settlementsDigest: settlementsDigest(round.positions),
      positions: round.positions.length,
    };
    cover(b, gen2, { heads: true });
    const checks = (await verifyShoe(b, { ...OPERATOR, trustedPublicKey: [GEN1.pem, gen2.pem] })).checks;
    const ids = failed(checks);
    expect(ids).toContain('audit.close.key');
    expect(checks.find((c) => c.id === 'audit.close.key')!.detail).toMatch(
      /dated .* but generation 2 \(key-2\) is valid 2026-01-01T00:00:00.000Z \.\. now only/,
    );
    expect(ids).toContain(`heads.round.${round.number}`);
    expect(independently(b, [GEN1.pem, gen2.pem])).toEqual(['audit.close.key', 'heads', 'heads.complete']);
  });

  it('a close signed by a generation two steps after the statement’s key', async () => {
    const gen2 = testKey('key-2', '2025-01-01T20:01:00.000Z');
    const gen3 = testKey('key-3', '2025-01-01T20:01:30.000Z');
    const b = clone(await demoBundle({ keys: [GEN1, gen2, gen3], beacon: BEACON, rounds: 30 }));
    expect(b.audit.close.keyId).toBe('key-3');
    // The certificates as the service lists them: the rotations were honest, the close is not.
    const keyCertificates = await demoKeyCertificates([GEN1, gen2, gen3]);
    expect(failed((await verifyShoe(b, { ...OPERATOR, keyCertificates })).checks)).toEqual([
      'audit.close.key',
    ]);
    expect(independently(b, [GEN1.pem])).toEqual(['audit.close.key']);
  });

  it('an event naming another shoe (copied in from a shoe with a better outcome)', async () => {
    const b = clone(honest);
    const dealt = eventsOf(b, b.rounds[6]!.roundId)[2]!;
    dealt.e.event.shoeId = 'shoe-other';
    cover(b, GEN1, { heads: true });
    const checks = (await verifyShoe(b, OPERATOR)).checks;
    expect(failed(checks)).toEqual(['audit.shoe']);
    expect(checks.find((c) => c.id === 'audit.shoe')!.detail).toMatch(
      /names shoe shoe-other, not shoe-demo-1/,
    );
    expect(independently(b, [GEN1.pem])).toEqual(['audit.shoe']);
  });

  it('seq gaps: an event deleted and the chain relinked over the hole', async () => {
    const b = clone(honest);
    // The last round's ROUND_SETTLED removed: its numbers leave a gap.
    const last = b.rounds.at(-1)!;
    const settledAt = eventsOf(b, last.roundId).at(-1)!.i;
    b.audit.events.splice(settledAt, 1);
    b.heads = b.heads.filter((h) => h.statement.seq !== settledAt);
    cover(b, GEN1, { heads: true });
    const ids = failed((await verifyShoe(b, OPERATOR)).checks);
    expect(ids).toContain('audit.seq');
    expect((await verifyShoe(b, OPERATOR)).checks.find((c) => c.id === 'audit.seq')!.detail).toBe(
      `event #${settledAt} of the chain has sequence number ${settledAt + 1}`,
    );
    expect(independently(b, [GEN1.pem])).toContain('audit.seq');
  });

  it('seq renumbered to hide nothing but still out of step', async () => {
    const b = clone(honest);
    b.audit.events[9]!.event.seq = 99;
    cover(b, GEN1, { heads: true });
    expect(failed((await verifyShoe(b, OPERATOR)).checks)).toContain('audit.seq');
    expect(independently(b, [GEN1.pem])).toContain('audit.seq');
  });

  describe('a rewrite of the shoe while it was open, after a round head was signed', () => {
    /** Round 5 rewritten: player-1's winning position (or whatever he had) dropped, digests fixed. */
    function rewrite(b: ShoeBundle) {
      const round = b.rounds[4]!;
      const dropped = round.positions[0]!;
      round.positions = round.positions.slice(1);
      const [, closed, , settled] = eventsOf(b, round.roundId);
      const open: RecordedPosition[] = round.positions.map((p) => ({
        ...p,
        settlement: null,
        ledgerSeq: null,
      }));
      closed!.e.event.data = { betsDigest: betsDigest(open), positions: open.length };
      settled!.e.event.data = {
        settlementsDigest: settlementsDigest(round.positions),
        positions: round.positions.length,
      };
      return { round, dropped };
    }

    it('the round heads stored with the rounds no longer match the chain', async () => {
      const b = clone(honest);
      const { round } = rewrite(b);
      cover(b, GEN1, { heads: false });
      const checks = (await verifyShoe(b, OPERATOR)).checks;
      const ids = failed(checks);
      expect(ids).toContain(`heads.round.${round.number}`);
      expect(checks.find((c) => c.id === `heads.round.${round.number}`)!.detail).toMatch(
        /the chain was rewritten after this head was signed/,
      );
      expect(independently(b, [GEN1.pem])).toContain('heads');
    });

    it('with every stored head re-signed too, the receipt the operator kept refuses it', async () => {
      const receipt = clone(honest.heads.find((h) => h.statement.roundId === honest.rounds[4]!.roundId)!);
      const later = clone(honest.heads.find((h) => h.statement.roundId === honest.rounds[10]!.roundId)!);
      const b = clone(honest);
      rewrite(b);
      cover(b, GEN1, { heads: true });
      // Consistent in itself (the insider holds the key) ...
      expect(failed((await verifyShoe(b, OPERATOR)).checks)).toEqual([]);
      // ... but not with what was handed out when the rounds were settled.
      const checks = (await verifyShoe(b, { ...OPERATOR, receipts: [receipt, later] })).checks;
      expect(failed(checks)).toEqual(['receipt.1', 'receipt.2']);
      expect(independently(b, [GEN1.pem])).toEqual([]);
      expect(independently(b, [GEN1.pem], [receipt, later])).toEqual(['receipt.1', 'receipt.2']);
      // The honest chain agrees with the same receipts.
      expect(
        failed((await verifyShoe(clone(honest), { ...OPERATOR, receipts: [receipt, later] })).checks),
      ).toEqual([]);
    });
  });

  it('a self-signed bundle: the whole shoe made again under the forger’s own key', async () => {
    const own = testKey('key-1', '2024-06-01T00:00:00.000Z');
    const forged = await demoBundle({ keys: [own], beacon: BEACON, rounds: 30 });
    const alone = await verifyShoe(forged, { trustedBeacons: OPERATOR.trustedBeacons });
    expect(failed(alone.checks)).toEqual([]);
    expect(alone.verdict).toBe('untrusted');
    const pinned = await verifyShoe(forged, OPERATOR);
    expect(pinned.verdict).toBe('failed');
    expect(failed(pinned.checks)).toEqual(['keys.trusted']);
    expect(independently(forged, [])).toEqual(['keys.trusted']);
    expect(independently(forged, [GEN1.pem])).toEqual(['keys.trusted']);
    expect(independently(honest, [GEN1.pem])).toEqual([]);
  });

  it('a certificate for a newer key made by that key itself', async () => {
    const gen2 = testKey('key-2', '2025-01-01T20:00:30.000Z');
    const b = clone(await demoBundle({ keys: [GEN1, gen2], beacon: BEACON, rounds: 30 }));
    // Re-signed by generation 2, not by generation 1 which alone may certify it.
    b.keys[1]!.signature = bytesToBase64(gen2.sign(keyCertificateBytes(b.keys[1]!.certificate)));
    expect(failed((await verifyShoe(b, OPERATOR)).checks)).toContain('keys.chain');
    expect(independently(b, [GEN1.pem])).toContain('keys.chain');
  });

  it('a void note with a lone surrogate written straight into the table: refused, never a crash', async () => {
    // The API refuses such a note (RFC 8785 has no form for it); an insider writing the item directly
    // gets a chain no verifier can hash.
    const b = clone(await demoBundle({ keys: [GEN1], beacon: BEACON, rounds: 8, voided: [3] }));
    const voided = b.audit.events.find((e) => e.event.type === 'ROUND_VOIDED')!;
    voided.event.data = { ...(voided.event.data as object), note: 'dealer \ud800 slip' };
    const checks = (await verifyShoe(b, OPERATOR)).checks;
    expect(failed(checks)).toEqual(['audit.chain']);
    expect(checks.find((c) => c.id === 'audit.chain')!.detail).toMatch(/event \d+: Lone surrogate/);
    expect(independently(b, [GEN1.pem])).toContain('audit.chain');
  });
});
