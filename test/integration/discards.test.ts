/**
 * Discards are visible; contributors can prove inclusion (issue #24 items 5 and 6; docs/provably-fair.md
 * §2 rows C1, D1, D2, §10). On the platform, a pyb-shoe/3 shoe:
 * - each contribution answers a signed receipt, and the open-shoe answer is the signed statement,
 *   which links the shoe opened before it: both are `baccarat verify --receipt` inputs;
 * - D2 built as an insider with database write access: a shoe deleted before its close and another
 *   opened under its number verifies on its own, and the operator's kept open-shoe answer refuses it;
 * - D1: a round voided, or a shoe closed early, after its beacon round is out is recorded as a
 *   discard, counted (DiscardsAfterBeacon) and reported per table and day (GGR report, feed summary).
 */
import type { Core } from '@pyb/core';
import { context, feedRecords } from '@pyb/core/use-cases';
import { roundTime, statementDigest, verifyShoe } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { createTestStack, TEST_BEACON, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
const counted: string[] = [];
const OP = 'op-discards';
const op = operator(OP);
const boss = admin(OP);
const CONFIG = { decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;

beforeAll(async () => {
  stack = await createTestStack('discards', { shoeScheme: 'pyb-shoe/3' });
  core = stack.coreWith({ metrics: { count: (name) => counted.push(name) } });
  await fundPlayers(core, op, ['ada'], 1_000_000);
});
afterAll(async () => {
  await stack?.cleanup();
});

const newTable = async () =>
  (await core.createTable(boss, { name: 'Discards', variant: 'custom', config: CONFIG })).tableId;

async function trustOf(keyId: string) {
  return {
    trustedPublicKey: (await stack.keys.publicKey(keyId)).pem,
    trustedBeacons: [await stack.beacon.network()],
    trustedTimeStampAuthorities: [stack.timeStamps.pem],
  };
}

/** Plays a coup, then closes the shoe early; answers its bundle. */
async function playAndClose(tableId: string, shoeId: string) {
  const round = await core.openRound(op, { tableId });
  await core.resolveRound(op, { roundId: round.roundId });
  await core.closeShoe(boss, { shoeId, reason: 'END_OF_SESSION' });
  return core.exportAudit(regulator(OP), { shoeId });
}

describe('receipts the operator and the contributors keep (C1, D2)', () => {
  it('a contribution answers a signed receipt; the open-shoe answer names the shoe opened before; both verify', async () => {
    const tableId = await newTable();
    const first = await core.openShoe(boss, { tableId });
    expect(first.statement.previousOpened).toBeNull();
    const ada = await core.contributeSeed(op, { shoeId: first.shoeId, seed: 'ada: 1618' });
    expect(ada.receipt.statement).toMatchObject({
      type: 'SEED_CONTRIBUTED',
      seq: ada.seq,
      head: ada.head,
      shoeId: first.shoeId,
    });
    const bundle = await playAndClose(tableId, first.shoeId);
    const trust = await trustOf(bundle.statement.keyId);
    const checked = await verifyShoe(bundle, {
      ...trust,
      receipts: [ada, first],
      seeds: [{ index: 0, seed: 'ada: 1618' }],
    });
    expect(checked.checks.filter((c) => !c.ok)).toEqual([]);
    expect(checked.verdict).toBe('verified');
    expect(checked.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['seed.0', 'receipt.1.contribution', 'receipt.2.opened']),
    );
    // The next shoe names this one as opened before it, by its signed statement.
    const second = await core.openShoe(boss, { tableId });
    expect(second.statement.previousOpened).toEqual({
      shoeId: first.shoeId,
      number: 1,
      statement: statementDigest(first.statement),
    });
  });

  it('D2: the insider deletes an unclosed shoe and opens another under its number; the kept open answer refuses it', async () => {
    const tableId = await newTable();
    const discarded = await core.openShoe(boss, { tableId });
    // As an insider with write access would: the shoe and its chain deleted, the table put back.
    for (const item of await stack.raw.partition('audit', `SHOE#${discarded.shoeId}`))
      await stack.raw.delete('audit', { pk: String(item.pk), sk: String(item.sk) });
    await stack.raw.delete('game', { pk: `SHOE#${discarded.shoeId}`, sk: 'SHOE' });
    const key = { pk: `TABLE#${tableId}`, sk: 'TABLE' };
    const { currentShoeId: _shoe, lastOpened: _opened, ...table } = (await stack.raw.get('game', key))!;
    await stack.raw.put('game', { ...table, shoes: 0 });
    const reopened = await core.openShoe(boss, { tableId });
    expect([reopened.number, reopened.statement.previousOpened]).toEqual([1, null]);
    const bundle = await playAndClose(tableId, reopened.shoeId);
    const trust = await trustOf(bundle.statement.keyId);
    expect((await verifyShoe(bundle, trust)).verdict).toBe('verified');
    const caught = await verifyShoe(bundle, { ...trust, receipts: [discarded] });
    expect(caught.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['receipt.1.opened']);
    expect(caught.checks.find((c) => c.id === 'receipt.1.opened')?.detail).toContain('(D2)');
  });
});

describe('D1: a void or an early close after the beacon round is out is a discard, counted and reported', () => {
  it('a void once the named round is published counts; one before it, and a dealer-error burn, do not', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    const before = counted.length;
    // Voided while its round is not out: nobody could know the cards.
    const early = await core.openRound(op, { tableId });
    await core.closeBetting(op, { roundId: early.roundId });
    await core.voidRound(op, { roundId: early.roundId, reason: 'MISDEAL' });
    // A dealer-error burn: its betting closes in the void, naming a round not out yet.
    const burn = await core.openRound(op, { tableId });
    await core.voidRound(op, { roundId: burn.roundId, reason: 'EXPOSED_CARD', burnCards: true });
    expect(counted.slice(before)).not.toContain('DiscardsAfterBeacon');
    // The round named at "no va más" comes out; then the void: a discard.
    const late = await core.openRound(op, { tableId });
    const closed = await core.closeBetting(op, { roundId: late.roundId });
    const network = await stack.beacon.network();
    const published = roundTime(network, closed.bettingClosed!.beaconRound) * 1000;
    await stack.clock.sleep!(Math.max(0, published - stack.clock.now().getTime()) + 1);
    await core.voidRound(op, { roundId: late.roundId, reason: 'TECHNICAL_FAULT' });
    const stored = await stack.store.get('round', { roundId: late.roundId });
    expect(stored?.discard).toMatchObject({ beaconRound: closed.bettingClosed!.beaconRound });
    expect((await stack.store.get('round', { roundId: early.roundId }))?.discard).toBeUndefined();
    expect((await stack.store.get('round', { roundId: burn.roundId }))?.discard).toBeUndefined();
    // The shoe's own round is out (the burn drew its start): closing it early is one too.
    await core.closeShoe(boss, { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
    expect((await stack.store.get('shoe', { shoeId: shoe.shoeId }))?.discard).toBeDefined();
    expect(counted.slice(before).filter((n) => n === 'DiscardsAfterBeacon')).toHaveLength(2);

    const date = stored!.discard!.at.slice(0, 10);
    const report = await core.ggrReport(regulator(OP), { operatorId: OP, date });
    const row = report.rows.find((r) => r.tableId === tableId)!;
    expect([row.voidedRounds, row.voidsAfterBeacon, row.earlyClosesAfterBeacon]).toEqual([3, 1, 1]);
    const from = `${date}T00:00:00.000Z`;
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    const records: Record<string, unknown>[] = [];
    for await (const r of feedRecords(
      context({ store: stack.store, keys: stack.keys, clock: stack.clock }),
      OP,
      from,
      to,
    ))
      records.push(r);
    const summary = records.at(-1)!;
    expect(summary.discards).toContainEqual({ tableId, voidsAfterBeacon: 1, earlyClosesAfterBeacon: 1 });
    expect(records.find((r) => r.type === 'round' && r.roundId === late.roundId)).toMatchObject({
      discardBeaconRound: closed.bettingClosed!.beaconRound,
    });
  });

  it('an early close before the shoe round is out is no discard', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    const before = counted.length;
    await core.closeShoe(boss, { shoeId: shoe.shoeId, reason: 'TABLE_CLOSING' });
    expect((await stack.store.get('shoe', { shoeId: shoe.shoeId }))?.discard).toBeUndefined();
    expect(counted.slice(before)).not.toContain('DiscardsAfterBeacon');
    expect(TEST_BEACON.marginSeconds).toBeGreaterThanOrEqual(5);
  });
});
