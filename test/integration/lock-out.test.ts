/**
 * Lock-out (docs/regulators.md, "Lock-out"; AGCO 21.1.9, 4.26(5)): a key service that fails for good,
 * or randomness that does not hold, locks the table — no shoe opens, no round opens or is dealt — and
 * the lock and its clearing are audited table events; a throttled key service only answers "retry".
 */
import type { Beacon, Core, DomainError, KeyService } from '@pyb/core';
import { KeyServiceError, type KeyServiceErrorCode } from '@pyb/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { codeOf } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const OP = 'op-lock';
const op = operator(OP);
const boss = admin(OP);
const CONFIG = { decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;

beforeAll(async () => {
  stack = await createTestStack('lockout');
  await fundPlayers(stack.core, op, ['lia'], 100_000);
});
afterAll(async () => {
  await stack?.cleanup();
});

type Call = keyof KeyService;
/** The test stack's key service, with `call` failing as a KMS adapter would report it. */
const failing = (call: Call, code: KeyServiceErrorCode, retryable = false): KeyService => {
  const keys = stack.keys;
  const fail = () => Promise.reject(new KeyServiceError(code, `KMS ${call} failed: injected`, retryable));
  return {
    generateSeed: call === 'generateSeed' ? fail : () => keys.generateSeed(),
    sealSeed: call === 'sealSeed' ? fail : (s, c) => keys.sealSeed(s, c),
    unsealSeed: call === 'unsealSeed' ? fail : (s, c) => keys.unsealSeed(s, c),
    sign: call === 'sign' ? fail : (m, k) => keys.sign(m, k),
    publicKey: (k) => keys.publicKey(k),
  };
};

/** A beacon answering every round with a real signature of another round (a lying relay). */
const forgedBeacon = (): Beacon => ({
  network: () => stack.beacon.network(),
  round: async (round) => {
    const other = await stack.beacon.round(1);
    if (other.status !== 'PUBLISHED') throw new Error('the test beacon has no earlier round');
    return { status: 'PUBLISHED', round: { round, signature: other.round.signature } };
  },
});

const newTable = async (core: Core = stack.core) =>
  (await core.createTable(boss, { name: 'Lock', variant: 'custom', config: CONFIG })).tableId;

const refusal = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as DomainError;

describe('a key service that fails for good', () => {
  it.each([
    ['generateSeed', 'KEY_SERVICE_MISCONFIGURED'],
    ['sealSeed', 'KEY_SERVICE_BAD_RESPONSE'],
    ['sign', 'KEY_SERVICE_MISCONFIGURED'],
  ] as const)('%s failing (%s) at open-shoe locks the table; nothing is opened', async (call, code) => {
    const broken = stack.coreWith({ keys: failing(call, code) });
    const tableId = await newTable();
    const error = await refusal(broken.openShoe(boss, { tableId }));
    expect([error.kind, error.code]).toEqual(['LOCKED', 'TABLE_LOCKED']);
    expect(error.details?.lock).toMatchObject({
      source: 'KEY_SERVICE',
      cause: code,
      phase: 'OPEN_SHOE',
      seq: 0,
    });
    const table = await stack.core.getTable(op, { tableId });
    expect(table.currentShoeId).toBeNull();
    expect(table.lock).toMatchObject({ source: 'KEY_SERVICE', cause: code, phase: 'OPEN_SHOE' });
    // A healthy key service does not clear it: a person does.
    expect(await codeOf(stack.core.openShoe(boss, { tableId }))).toBe('TABLE_LOCKED');
    const { events } = await stack.core.listTableEvents(regulator(OP), { tableId });
    expect(events.map((e) => [e.seq, e.type, e.lock?.cause])).toEqual([[0, 'TABLE_LOCKED', code]]);
  });

  it('a throttled key service answers 503 KEY_SERVICE_UNAVAILABLE and locks nothing', async () => {
    const throttled = stack.coreWith({ keys: failing('generateSeed', 'KEY_SERVICE_UNAVAILABLE', true) });
    const tableId = await newTable();
    const error = await refusal(throttled.openShoe(boss, { tableId }));
    expect([error.kind, error.code, error.details?.retryAfterSeconds]).toEqual([
      'UNAVAILABLE',
      'KEY_SERVICE_UNAVAILABLE',
      2,
    ]);
    expect((await stack.core.getTable(op, { tableId })).lock).toBeNull();
    expect((await stack.core.listTableEvents(op, { tableId })).events).toEqual([]);
    // The same call, once the service answers, opens the shoe.
    expect((await stack.core.openShoe(boss, { tableId })).status).toBe('OPEN');
  });

  it('a stuck generator (a seed of one byte repeated) is a randomness failure: locked', async () => {
    const keys = stack.keys;
    const stuck = stack.coreWith({
      keys: {
        generateSeed: async () => new Uint8Array(32),
        sealSeed: (s, c) => keys.sealSeed(s, c),
        unsealSeed: (s, c) => keys.unsealSeed(s, c),
        sign: (m, k) => keys.sign(m, k),
        publicKey: (k) => keys.publicKey(k),
      },
    });
    const tableId = await newTable();
    const error = await refusal(stuck.openShoe(boss, { tableId }));
    expect(error.details?.lock).toMatchObject({ source: 'RANDOMNESS', cause: 'ENTROPY_FAILED' });
  });

  it('a sealed seed that no longer opens at the first deal locks the table; the round stays voidable', async () => {
    const tableId = await newTable();
    await stack.core.openShoe(boss, { tableId });
    const broken = stack.coreWith({ keys: failing('unsealSeed', 'SEALED_SEED_INVALID') });
    const round = await broken.openRound(op, { tableId });
    await broken.placeBet(op, {
      roundId: round.roundId,
      playerId: 'lia',
      idempotencyKey: `bet-${round.roundId}`,
      bets: [{ type: 'BANKER', amount: 1_000 }],
    });
    const error = await refusal(broken.resolveRound(op, { roundId: round.roundId }));
    expect(error.code).toBe('TABLE_LOCKED');
    expect(error.details?.lock).toMatchObject({
      source: 'KEY_SERVICE',
      cause: 'SEALED_SEED_INVALID',
      phase: 'RESOLVE',
    });
    const table = await stack.core.getTable(op, { tableId });
    expect(table.lock).toMatchObject({ roundId: round.roundId });
    // The lock holds whatever key service the next caller has.
    expect(await codeOf(stack.core.resolveRound(op, { roundId: round.roundId }))).toBe('TABLE_LOCKED');
    expect((await stack.core.getRound(op, { roundId: round.roundId })).status).not.toBe('DEALT');
    const voided = await stack.core.voidRound(op, { roundId: round.roundId, reason: 'TECHNICAL_FAULT' });
    expect(voided.status).toBe('VOIDED');
  });
});

describe('a beacon round whose signature does not verify', () => {
  it('locks the table at resolve: nothing dealt, no round opens, stakes refunded by void; an admin clears it with a reason', async () => {
    const lying = stack.coreWith({ beacon: forgedBeacon() });
    const tableId = await newTable();
    const shoe = await stack.core.openShoe(boss, { tableId });
    const round = await lying.openRound(op, { tableId });
    const before = (await stack.core.getWallet(op, { playerId: 'lia' })).balance;
    await lying.placeBet(op, {
      roundId: round.roundId,
      playerId: 'lia',
      idempotencyKey: `bet-${round.roundId}`,
      bets: [{ type: 'PLAYER', amount: 2_500 }],
    });
    const error = await refusal(lying.resolveRound(op, { roundId: round.roundId }));
    expect([error.kind, error.code]).toEqual(['LOCKED', 'TABLE_LOCKED']);
    expect(error.details?.lock).toMatchObject({
      source: 'RANDOMNESS',
      cause: 'BEACON_INVALID',
      phase: 'RESOLVE',
    });
    const stored = await stack.store.get('shoe', { shoeId: shoe.shoeId });
    expect([stored?.entropy, stored?.state]).toEqual([undefined, undefined]);

    // Locked: no round is dealt (whoever calls), none opens, no shoe opens.
    expect(await codeOf(stack.core.resolveRound(op, { roundId: round.roundId }))).toBe('TABLE_LOCKED');
    // Bets are refundable: the round is voided, the stake comes back.
    const voided = await stack.core.voidRound(op, { roundId: round.roundId, reason: 'TECHNICAL_FAULT' });
    expect(voided.status).toBe('VOIDED');
    expect((await stack.core.getWallet(op, { playerId: 'lia' })).balance).toBe(before);
    expect(await codeOf(stack.core.openRound(op, { tableId }))).toBe('TABLE_LOCKED');

    // Clearing: admins of the table's operator only, with a reason.
    expect(await codeOf(stack.core.unlockTable(regulator(OP), { tableId, reason: 'fixed' }))).toBe(
      'READ_ONLY',
    );
    expect(await codeOf(stack.core.unlockTable(admin('op-other'), { tableId, reason: 'fixed' }))).toBe(
      'TABLE_NOT_FOUND',
    );
    expect(await codeOf(stack.core.unlockTable(boss, { tableId, reason: '  ' }))).toBe('INVALID_INPUT');
    expect(await codeOf(stack.core.unlockTable(boss, { tableId, reason: 'bidi \u202e' }))).toBe(
      'INVALID_INPUT',
    );
    const cleared = await stack.core.unlockTable(boss, { tableId, reason: 'relay list fixed (OPS-7)' });
    expect(cleared.lock).toBeNull();
    expect(await codeOf(stack.core.unlockTable(boss, { tableId, reason: 'again' }))).toBe('TABLE_NOT_LOCKED');
    const { events } = await stack.core.listTableEvents(op, { tableId });
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [0, 'TABLE_LOCKED'],
      [1, 'TABLE_UNLOCKED'],
    ]);
    expect(events[1]).toMatchObject({
      reason: 'relay list fixed (OPS-7)',
      clears: 0,
      by: { role: 'admin', operatorId: OP },
    });

    // Play goes on with the true beacon: the same shoe deals its first coup.
    const next = await stack.core.openRound(op, { tableId });
    expect((await stack.core.resolveRound(op, { roundId: next.roundId })).status).toBe('SETTLED');
    // A second failure is a second lock, numbered after the first clearing.
    const again = await newTable(lying);
    await stack.core.openShoe(boss, { tableId: again });
    const r2 = await lying.openRound(op, { tableId: again });
    expect(await codeOf(lying.resolveRound(op, { roundId: r2.roundId }))).toBe('TABLE_LOCKED');
    expect((await stack.core.getTable(op, { tableId: again })).lock?.seq).toBe(0);
  });
});
