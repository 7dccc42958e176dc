/**
 * pyb-shoe/2 on the platform, on DynamoDB Local: seed contributions closed by the first round, the
 * first coup waiting for a verified beacon round (never dealt without it), signed round heads as
 * receipts, close re-walking the chain, early closes with a reason, linked and listed shoes, the close
 * deadline, revealed voids, and the public proof the one verifier checks.
 */
import type { Beacon, Core, DomainError, RoundView, ShoeView } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import {
  base64ToBytes,
  beaconRoundAfter,
  headStatementBytes,
  parsePublicKey,
  roundTime,
  verifyDerSignature,
  verifyShoe,
} from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { PINNED_V2 } from '../support/dealt';
import { fundPlayers } from '../support/fixture';
import { codeOf, playShoe } from '../support/game';
import { deterministicSeeds } from '../support/keys';
import { stepsInOrder } from '../support/order';
import { createTestStack, TEST_BEACON, type TestStack } from '../support/stack';

// Its describes walk one table's shoes in turn (contributions, beacon, a whole shoe, its close).
stepsInOrder();

let stack: TestStack;
let core: Core;
const op = operator('op-f');
const boss = admin('op-f');
const PLAYERS = ['pia', 'quim'];
const CONFIG = { decks: 1, pairBets: true, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;

beforeAll(async () => {
  stack = await createTestStack('fairness', PINNED_V2);
  core = stack.core;
  await fundPlayers(core, op, PLAYERS, 1_000_000);
});
afterAll(async () => {
  await stack?.cleanup();
});

const newTable = async (c = core) =>
  (await c.createTable(boss, { name: 'V2', variant: 'custom', config: CONFIG })).tableId;
/** The configuration the tables above get (a custom one-deck table). */
const TABLE = () => tablePreset('custom', { ...CONFIG, name: 'V2' });
const trust = async () => ({ trustedBeacons: [await stack.beacon.network()] });

/** A beacon that has nothing yet, or answers with a signature of another round. */
const stubBeacon = (answer: 'pending' | 'forged'): Beacon => ({
  network: () => stack.beacon.network(),
  round: async (round) => {
    if (answer === 'pending') return { status: 'PENDING', retryAfterSeconds: 2, reason: 'not published yet' };
    const other = await stack.beacon.round(1); // long published: a real signature, of another round
    if (other.status !== 'PUBLISHED') throw new Error('the test beacon has no earlier round');
    return { status: 'PUBLISHED', round: { round, signature: other.round.signature } };
  },
});

describe('seed contributions', () => {
  it('are recorded in order until the first round closes them, the operator’s seed last; then refused', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    const a = await core.contributeSeed(op, { shoeId: shoe.shoeId, seed: 'pia: 31415' });
    const b = await core.contributeSeed(op, { shoeId: shoe.shoeId, seed: 'quim ♣' });
    expect([a.index, b.index, a.kind]).toEqual([0, 1, 'PLAYER']);
    expect(b.seq).toBe(a.seq + 1);
    expect(await codeOf(core.contributeSeed(op, { shoeId: shoe.shoeId, seed: 'tab\there' }))).toBe(
      'SEED_INVALID',
    );
    expect(await codeOf(core.contributeSeed(regulator('op-f'), { shoeId: shoe.shoeId, seed: 'x' }))).toBe(
      'READ_ONLY',
    );
    await core.openRound(op, { tableId, clientSeed: 'op-session-1' });
    const closed = await core.getShoe(op, { shoeId: shoe.shoeId });
    expect(closed.contributions).toMatchObject({ count: 3, beaconRound: expect.any(Number) });
    expect(closed.clientSeed).toBe('op-session-1');
    // The round that fixes the order is the first published the margin after the close.
    const network = await stack.beacon.network();
    expect(closed.contributions.beaconRound).toBe(
      beaconRoundAfter(network, closed.contributions.closedAt!, TEST_BEACON.marginSeconds),
    );
    expect(roundTime(network, closed.contributions.beaconRound!) * 1000).toBeGreaterThanOrEqual(
      Date.parse(closed.contributions.closedAt!) + TEST_BEACON.marginSeconds * 1000,
    );
    // Its head is signed by the statement key: a receipt of the close.
    const head = closed.contributions.head!;
    expect(head.statement).toMatchObject({
      type: 'CONTRIBUTIONS_CLOSED',
      shoeId: shoe.shoeId,
      keyId: shoe.keyId,
    });
    const key = await stack.keys.publicKey(shoe.keyId);
    expect(
      await verifyDerSignature(headStatementBytes(head.statement), base64ToBytes(head.signature), key.spki),
    ).toBe(true);
    expect(await codeOf(core.contributeSeed(op, { shoeId: shoe.shoeId, seed: 'too late' }))).toBe(
      'CONTRIBUTIONS_CLOSED',
    );
    expect(await codeOf(core.openRound(op, { tableId, clientSeed: 'another' }))).toBe('ROUND_IN_PLAY');
  });
});

describe('the beacon round', () => {
  it('not published yet: the first coup is refused with a retryable BEACON_PENDING and nothing is dealt', async () => {
    const waiting = stack.coreWith({ beacon: stubBeacon('pending'), beaconWaitMs: 0 });
    const tableId = await newTable(waiting);
    const shoe = await waiting.openShoe(boss, { tableId });
    const round = await waiting.openRound(op, { tableId });
    const error = (await waiting
      .resolveRound(op, { roundId: round.roundId })
      .catch((e: unknown) => e)) as DomainError;
    expect([error.kind, error.code, error.details?.retryAfterSeconds]).toEqual([
      'UNAVAILABLE',
      'BEACON_PENDING',
      2,
    ]);
    const stored = await stack.store.get('shoe', { shoeId: shoe.shoeId });
    expect([stored?.entropy, stored?.state, stored?.beacon]).toEqual([undefined, undefined, undefined]);
    expect((await waiting.getRound(op, { roundId: round.roundId })).status).toBe('CLOSED');
    // Once the round is out, the same call goes on: nothing was lost.
    const resolved = await core.resolveRound(op, { roundId: round.roundId });
    expect(resolved.status).toBe('SETTLED');
  });

  it('a signature that does not verify (a lying relay) is refused, never used: the table is locked (lock-out.test.ts)', async () => {
    const lying = stack.coreWith({ beacon: stubBeacon('forged') });
    const tableId = await newTable(lying);
    const shoe = await lying.openShoe(boss, { tableId });
    const round = await lying.openRound(op, { tableId });
    expect(await codeOf(lying.resolveRound(op, { roundId: round.roundId }))).toBe('TABLE_LOCKED');
    expect((await stack.store.get('shoe', { shoeId: shoe.shoeId }))?.entropy).toBeUndefined();
  });

  it('the order depends on every contributed seed and on the beacon round: same server seed, one seed changed, another shoe', async () => {
    // Two cores drawing the same server seeds: only the contributions differ.
    const coupsWith = async (seed: string) => {
      const same = stack.coreWith({ keys: deterministicSeeds(stack.keys, 'order-depends') });
      const tableId = await newTable(same);
      const shoe = await same.openShoe(boss, { tableId });
      await same.contributeSeed(op, { shoeId: shoe.shoeId, seed });
      const played = await playShoe({
        core: same,
        actor: op,
        tableId,
        players: PLAYERS,
        config: TABLE(),
        seed: 'x',
        maxRounds: 3,
      });
      const closed = await same.closeShoe(boss, { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
      return { closed, cards: played.map((r) => r.view.result?.player.cards.join(' ')).join(' | ') };
    };
    const a = await coupsWith('pia');
    const b = await coupsWith('piA');
    expect(a.closed.commitment).toBe(b.closed.commitment); // the same server seed
    expect(a.cards).not.toBe(b.cards);
    // The beacon round recorded was published after the statement and after the close of contributions.
    for (const { closed } of [a, b]) {
      const network = await stack.beacon.network();
      const published = roundTime(network, closed.beacon!.round) * 1000;
      expect(published).toBeGreaterThan(Date.parse(closed.statement.createdAt));
      expect(published).toBeGreaterThanOrEqual(
        Date.parse(closed.contributions.closedAt!) + TEST_BEACON.marginSeconds * 1000,
      );
    }
  });
});

describe('a whole shoe: heads, close, linked shoes, deadline, voids, proof', () => {
  let tableId: string;
  let first: ShoeView;
  let rounds: { view: RoundView; voided: boolean }[];

  beforeAll(async () => {
    tableId = await newTable();
    first = await core.openShoe(boss, { tableId });
    await core.contributeSeed(op, { shoeId: first.shoeId, seed: 'a player seed' });
    rounds = await playShoe({
      core,
      actor: op,
      tableId,
      players: PLAYERS,
      config: TABLE(),
      seed: 'whole',
      voidRounds: [2],
    });
  });

  it('every resolve and void answers with its signed head, by the statement key', async () => {
    const key = parsePublicKey((await stack.keys.publicKey(first.keyId)).pem);
    for (const { view, voided } of rounds) {
      const head = view.head!;
      expect(head.statement).toMatchObject({
        type: voided ? 'ROUND_VOIDED' : 'ROUND_SETTLED',
        roundId: view.roundId,
        keyId: first.keyId,
      });
      expect(
        await verifyDerSignature(headStatementBytes(head.statement), base64ToBytes(head.signature), key),
      ).toBe(true);
    }
    // A second call answers the same head (it is signed once).
    expect((await core.resolveRound(op, { roundId: rounds[0]!.view.roundId })).head).toEqual(
      rounds[0]!.view.head,
    );
  });

  it('the cut card ended it: a close deadline was scheduled; the check says it is not closed yet', async () => {
    const ended = await core.getShoe(op, { shoeId: first.shoeId });
    expect(ended.phase).toBe('ENDED');
    const scheduled = stack.closeDeadlines.scheduled.get(first.shoeId)!;
    const endedAt = (await stack.store.get('shoe', { shoeId: first.shoeId }))!.endedAt!;
    expect(Date.parse(scheduled.dueAt) - Date.parse(endedAt)).toBe(3600 * 1000);
    expect(await core.checkCloseDeadline({ shoeId: first.shoeId })).toMatchObject({
      closedInTime: false,
      status: 'ENDED',
    });
  });

  it('close re-walks the chain: an audit event rewritten after its round head was signed is not signed over', async () => {
    const seq = rounds[0]!.view.head!.statement.seq - 1; // the COUP_DEALT before ROUND_SETTLED
    const Key = { pk: `SHOE#${first.shoeId}`, sk: `E#${String(seq).padStart(6, '0')}` };
    const Item = (await stack.raw.get('audit', Key))!;
    const edited = structuredClone(Item) as { event: string };
    edited.event = edited.event.replace('"cutCardOut":false', '"cutCardOut":true');
    expect(edited.event).not.toBe(Item.event);
    await stack.raw.put('audit', edited);
    try {
      expect(await codeOf(core.closeShoe(boss, { shoeId: first.shoeId }))).toBe('AUDIT_CHAIN_BROKEN');
      expect((await core.getShoe(op, { shoeId: first.shoeId })).phase).toBe('CLOSING');
    } finally {
      await stack.raw.put('audit', Item);
    }
    const closed = await core.closeShoe(boss, { shoeId: first.shoeId });
    expect([closed.phase, closed.closeReason]).toEqual(['CLOSED', null]);
    // The broken chain locked the table (TABLE_LOCKED, source AUDIT): an admin clears it once repaired.
    expect((await core.getTable(op, { tableId })).lock).toMatchObject({
      source: 'AUDIT',
      shoeId: first.shoeId,
    });
    await core.unlockTable(boss, { tableId, reason: 'the rewritten audit item was restored' });
    expect(closed.voids).toMatchObject({ count: 1, houseNet: expect.any(Number) });
    expect(await core.checkCloseDeadline({ shoeId: first.shoeId })).toMatchObject({ closedInTime: true });
  });

  it('the next shoe links to this one: number 2, its close head; an early close needs a reason', async () => {
    const second = await core.openShoe(boss, { tableId });
    const closedFirst = await core.getShoe(op, { shoeId: first.shoeId });
    expect(second.statement).toMatchObject({
      number: 2,
      previous: { shoeId: first.shoeId, number: 1, closeHead: closedFirst.close!.statement.head },
      codeVersion: 'test',
    });
    await core.openRound(op, { tableId }).then((r) => core.resolveRound(op, { roundId: r.roundId }));
    expect(await codeOf(core.closeShoe(boss, { shoeId: second.shoeId }))).toBe('CLOSE_REASON_REQUIRED');
    expect(await codeOf(core.closeShoe(boss, { shoeId: second.shoeId, reason: 'NO_SUCH' as never }))).toBe(
      'CLOSE_REASON_INVALID',
    );
    const closed = await core.closeShoe(boss, { shoeId: second.shoeId, reason: 'TABLE_CLOSING' });
    expect(closed.closeReason).toBe('TABLE_CLOSING');
    const audit = await stack.store.listAudit(second.shoeId);
    expect(JSON.parse(audit.at(-1)!.event).data.early).toBe('TABLE_CLOSING');
    // Both verify, and the second one's link checks out against the first.
    const bundles = await Promise.all(
      [first, second].map((s) => core.exportAudit(regulator('op-f'), { shoeId: s.shoeId })),
    );
    const key = (await stack.keys.publicKey(first.keyId)).pem;
    const checked = await verifyShoe(bundles[1], {
      ...(await trust()),
      trustedPublicKey: key,
      previous: bundles[0],
    });
    expect(checked.checks.filter((c) => !c.ok)).toEqual([]);
    expect([checked.verdict, checked.checks.find((c) => c.id === 'statement.previous')?.detail]).toEqual([
      'verified',
      expect.stringMatching(/^follows shoe /),
    ]);
  });

  it('lists the table’s shoes by number, paged', async () => {
    const page1 = await core.listShoes(regulator('op-f'), { tableId, limit: 1 });
    expect(page1.shoes.map((s) => [s.number, s.phase])).toEqual([[1, 'CLOSED']]);
    const page2 = await core.listShoes(regulator('op-f'), { tableId, limit: 1, cursor: page1.nextCursor! });
    expect(page2.shoes.map((s) => [s.number, s.phase, s.closeReason])).toEqual([
      [2, 'CLOSED', 'TABLE_CLOSING'],
    ]);
    expect(page1.shoes[0]!.voids?.count).toBe(1);
    expect(await codeOf(core.listShoes(operator('op-other'), { tableId }))).toBe('TABLE_NOT_FOUND');
  });

  it('the public proof: nothing personal, and the one verifier says verified', async () => {
    const proof = await core.shoeProof({ shoeId: first.shoeId });
    const text = JSON.stringify(proof);
    for (const p of PLAYERS) expect(text).not.toContain(`"${p}"`);
    expect(text).not.toMatch(/"playerId"|"stake"/);
    const key = (await stack.keys.publicKey(first.keyId)).pem;
    const { verdict, checks } = await verifyShoe(proof, { ...(await trust()), trustedPublicKey: key });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict).toBe('verified');
    // The receipts handed out at resolve and void check out against it too.
    const receipts = rounds.map((r) => r.view.head);
    expect((await verifyShoe(proof, { ...(await trust()), trustedPublicKey: key, receipts })).verdict).toBe(
      'verified',
    );
    // The replay of the voided round reports what it would have dealt.
    const voided = await core.replayRound(op, { roundId: rounds[1]!.view.roundId });
    expect(voided.voided).toMatchObject({
      revealed: true,
      coup: { winner: expect.any(String) },
      houseNet: expect.any(Number),
    });
  });
});

describe('a signing key with no certificate', () => {
  it('signs nothing until the previous generation certifies it: SIGNING_KEY_UNCERTIFIED', async () => {
    const fresh = await createTestStack('uncertified');
    try {
      await fresh.core.openShoe(boss, { tableId: await newTable(fresh.core) });
      fresh.keys.rotateSigningKey();
      // As in production after the handover deploy: the previous generation may not sign any more.
      const retired = fresh.coreWith({
        keys: {
          generateSeed: () => fresh.keys.generateSeed(),
          sealSeed: (s, c) => fresh.keys.sealSeed(s, c),
          unsealSeed: (s, c) => fresh.keys.unsealSeed(s, c),
          publicKey: (id) => fresh.keys.publicKey(id),
          sign: (m, keyId) =>
            keyId === undefined ? fresh.keys.sign(m) : Promise.reject(new Error('AccessDeniedException')),
        },
      });
      expect(await codeOf(retired.openShoe(boss, { tableId: await newTable(retired) }))).toBe(
        'SIGNING_KEY_UNCERTIFIED',
      );
    } finally {
      await fresh.cleanup();
    }
  });
});
