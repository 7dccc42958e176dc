/**
 * The outside witness of "no va más" (docs/time-stamps.md, docs/provably-fair.md §15.12): every
 * pyb-shoe/3 head that names a beacon round is anchored by a TSA before the round is out, the close
 * answers with the anchor, the export carries it, and `baccarat verify --trust-tsa` refuses a head
 * without a token of a pinned TSA dated before the round's publication — the insider attack F2
 * (re-date a close of betting and re-sign its head with the platform's key once the round is out)
 * included. A TSA that is down: the close answers 503 TIME_STAMP_PENDING and nothing is drawn; once
 * the round is published unanchored, the table locks (TIME_STAMP_TOO_LATE) and the round is voided.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '@pyb/core';
import {
  bytesToBase64,
  headDigest,
  headStatementBytes,
  roundTime,
  type ShoeBundle,
  type SignedHead,
} from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { baccaratVerify } from '../support/cli';
import { fundPlayers } from '../support/fixture';
import { codeOf } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';
import { testTimeStamps } from '../support/time-stamps';

let stack: TestStack;
let core: Core;
let dir: string;
const op = operator('op-tsa');
const boss = admin('op-tsa');
const CONFIG = { decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;

beforeAll(async () => {
  stack = await createTestStack('time-stamps', { shoeScheme: 'pyb-shoe/3' });
  core = stack.core;
  dir = mkdtempSync(join(tmpdir(), 'pyb-tsa-'));
  await fundPlayers(core, op, ['ada'], 10_000_000);
});
afterAll(async () => {
  stack.timeStamps.down = false;
  await stack?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const newTable = async () =>
  (await core.createTable(boss, { name: 'TSA', variant: 'custom', config: CONFIG })).tableId;

async function playWholeShoe() {
  const tableId = await newTable();
  const shoe = await core.openShoe(boss, { tableId });
  const closes = [];
  for (let n = 1; (await stack.store.get('shoe', { shoeId: shoe.shoeId }))!.status === 'OPEN'; n++) {
    const round = await core.openRound(op, { tableId });
    await core.placeBet(op, {
      roundId: round.roundId,
      playerId: 'ada',
      bets: [{ type: 'BANKER', amount: 500 }],
      idempotencyKey: `tsa-${shoe.shoeId}-${n}`,
    });
    closes.push(await core.closeBetting(op, { roundId: round.roundId }));
    await core.resolveRound(op, { roundId: round.roundId });
  }
  await core.closeShoe(boss, { shoeId: shoe.shoeId });
  const bundle = (await core.exportAudit(regulator('op-tsa'), { shoeId: shoe.shoeId })) as ShoeBundle;
  return { shoe, closes, bundle };
}

let played: Awaited<ReturnType<typeof playWholeShoe>>;
const pins = async () => ({
  dir,
  publicKeys: [(await stack.keys.publicKey()).pem],
  trustBeacons: [await stack.beacon.network()],
});

describe('every head naming a beacon round is anchored, and verify checks it with the TSA you pin', () => {
  beforeAll(async () => {
    played = await playWholeShoe();
  });

  it('the close answers with the head and its anchor; the bundle verifies with the pinned TSA', async () => {
    const first = played.closes[0]!.bettingClosed!;
    expect(first.anchor).toMatchObject({ seq: first.head!.statement.seq, tokens: [{ tsa: 'test TSA' }] });
    expect(played.bundle.anchors?.length).toBe(played.closes.length + 1); // + the close of contributions
    const run = await baccaratVerify(played.bundle, { ...(await pins()), trustTsas: [stack.timeStamps.pem] });
    expect(run.failed).toEqual([]);
    expect(run.code).toBe(0);
    const ids = run.checks.map((c) => c.id);
    expect(ids).toContain('heads.contributions.timestamp');
    for (let n = 1; n <= played.closes.length; n++)
      expect(ids).toContain(`heads.round.${n}.betting.timestamp`);
  });

  it('without a pinned TSA it is untrusted; with another TSA pinned (the bundle’s own never counts), refused by name', async () => {
    const unpinned = await baccaratVerify(played.bundle, await pins());
    expect(unpinned.code).toBe(3);
    expect(unpinned.checks.find((c) => c.id === 'heads.round.1.betting.timestamp')).toMatchObject({
      ok: true,
      untrusted: true,
    });
    const other = await testTimeStamps(stack.clock, 'another TSA');
    const run = await baccaratVerify(played.bundle, { ...(await pins()), trustTsas: [other.pem] });
    expect(run.code).toBe(1);
    expect(run.failed).toContain('heads.round.1.betting.timestamp');
    expect(run.failed).toContain('heads.contributions.timestamp');
    expect(run.checks.find((c) => c.id === 'heads.round.1.betting.timestamp')?.detail).toMatch(
      /UNTRUSTED_TSA/,
    );
  });

  it('F2: an insider re-signs a close of betting after its round is out — no token before the round exists', async () => {
    const index = played.bundle.heads.findIndex(
      (h) => h.statement.type === 'BETTING_CLOSED' && h.statement.roundId === played.closes[0]!.roundId,
    );
    const genuine = played.bundle.heads[index]!;
    const named = played.closes[0]!.bettingClosed!.beaconRound;
    const published = roundTime(played.bundle.statement.beacon, named) * 1000;
    // With the signing key: the same chain head, signed again and dated after the round's publication.
    const statement = { ...genuine.statement, at: new Date(published + 3_600_000).toISOString() };
    const signed = await stack.keys.sign(headStatementBytes(statement));
    const forged: SignedHead = { statement, signature: bytesToBase64(signed.signature) };
    const withHead = (anchors: ShoeBundle['anchors']): ShoeBundle => ({
      ...played.bundle,
      heads: played.bundle.heads.map((h, i) => (i === index ? forged : h)),
      anchors,
    });
    const trust = { ...(await pins()), trustTsas: [stack.timeStamps.pem] };
    const seq = genuine.statement.seq;
    // Kept the genuine anchor: it stamps another digest.
    const kept = await baccaratVerify(withHead(played.bundle.anchors), trust);
    expect(kept.failed).toEqual(['heads.round.1.betting.timestamp']);
    // A fresh token from the real TSA now: dated after the round was out.
    const fresh = await stack.timeStamps.timeStamper.anchor(headDigest(forged));
    if (fresh.status !== 'ANCHORED') throw new Error('the TSA is up');
    const { existedBy: _, ...anchor } = fresh.anchor;
    const late = await baccaratVerify(
      withHead(played.bundle.anchors!.map((a) => (a.seq === seq ? { seq, ...anchor } : a))),
      trust,
    );
    expect(late.failed).toEqual(['heads.round.1.betting.timestamp']);
    expect(late.checks.find((c) => c.id === 'heads.round.1.betting.timestamp')?.detail).toMatch(
      new RegExp(`not before beacon round ${named} was published`),
    );
    // Dropped it: nothing outside the platform dates the head.
    const dropped = await baccaratVerify(
      withHead(played.bundle.anchors!.filter((a) => a.seq !== seq)),
      trust,
    );
    expect(dropped.failed).toEqual(['heads.round.1.betting.timestamp']);
    // The genuine bundle still verifies under the same pins.
    expect((await baccaratVerify(played.bundle, trust)).code).toBe(0);
  });
});

describe('a TSA that is down: nothing proceeds unanchored', () => {
  it('503 TIME_STAMP_PENDING at the close of contributions and of betting; nothing is drawn; then it goes on', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    stack.timeStamps.down = true;
    expect(await codeOf(core.openRound(op, { tableId }))).toBe('TIME_STAMP_PENDING');
    stack.timeStamps.down = false;
    const round = await core.openRound(op, { tableId });
    expect(
      (await stack.store.get('shoe', { shoeId: shoe.shoeId }))!.contributionsClosed?.anchor,
    ).toBeDefined();
    stack.timeStamps.down = true;
    expect(await codeOf(core.closeBetting(op, { roundId: round.roundId }))).toBe('TIME_STAMP_PENDING');
    expect(await codeOf(core.resolveRound(op, { roundId: round.roundId }))).toBe('TIME_STAMP_PENDING');
    const stored = (await stack.store.get('round', { roundId: round.roundId }))!;
    expect(stored.status).toBe('CLOSED');
    expect(stored.betting?.head).toBeDefined(); // signed and kept: the retry only stamps it
    expect(stored.betting?.anchor).toBeUndefined();
    expect((await stack.store.get('shoe', { shoeId: shoe.shoeId }))!.draw).toBeUndefined();
    stack.timeStamps.down = false;
    const closed = await core.closeBetting(op, { roundId: round.roundId });
    expect(closed.bettingClosed?.anchor).not.toBeNull();
    expect((await core.resolveRound(op, { roundId: round.roundId })).status).toBe('SETTLED');
  });

  it('the named round published before any anchor: the table locks (TIME_STAMP_TOO_LATE), the coup is never dealt, the round is voided', async () => {
    const tableId = await newTable();
    await core.openShoe(boss, { tableId });
    const round = await core.openRound(op, { tableId });
    await core.placeBet(op, {
      roundId: round.roundId,
      playerId: 'ada',
      bets: [{ type: 'BANKER', amount: 500 }],
      idempotencyKey: `late-${round.roundId}`,
    });
    stack.timeStamps.down = true;
    expect(await codeOf(core.closeBetting(op, { roundId: round.roundId }))).toBe('TIME_STAMP_PENDING');
    const named = (await stack.store.get('round', { roundId: round.roundId }))!.betting!.beaconRound;
    const shoe = (await stack.store.get('shoe', { shoeId: round.shoeId }))!;
    const published = roundTime(shoe.statement.beacon, named) * 1000;
    await stack.clock.sleep!(Math.max(0, published - stack.clock.now().getTime()) + 10);
    expect(await codeOf(core.resolveRound(op, { roundId: round.roundId }))).toBe('TABLE_LOCKED');
    const table = (await stack.store.get('table', { tableId }))!;
    expect(table.lock).toMatchObject({
      source: 'TIME_STAMP',
      cause: 'TIME_STAMP_TOO_LATE',
      roundId: round.roundId,
    });
    // Even with the TSA back, a locked table deals nothing; the round is voided, its bet refunded.
    stack.timeStamps.down = false;
    expect(await codeOf(core.resolveRound(op, { roundId: round.roundId }))).toBe('TABLE_LOCKED');
    const voided = await core.voidRound(boss, { roundId: round.roundId, reason: 'MISDEAL' });
    expect(['VOIDED', 'VOIDING']).toContain(voided.status);
    expect(voided.result).toBeNull();
  });
});
