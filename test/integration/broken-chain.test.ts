/**
 * A broken chain locks the table loudly, and an admin can recover (docs/regulators.md, "Lock-out";
 * issue 24 item 10). An audit item deleted the way an insider with write access would: close answers
 * 409 AUDIT_CHAIN_BROKEN, signs nothing, and locks the table with a TABLE_LOCKED event of source AUDIT
 * (listing the problems), counted by the TablesLocked metric, in the table's events and the regulator
 * feed; every refusal says what to do; an admin abandons the shoe with a reason (recorded, in the
 * feed), the shoe never verifies (replay ABANDONED, export SHOE_ABANDONED), and the table opens a new
 * shoe. Through the use cases, on both stores.
 */
import type { Core, FeedRecord, MetricName } from '@pyb/core';
import { context, exportFeed } from '@pyb/core/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { codeOf } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
const OP = 'op-broken';
const op = operator(OP);
const boss = admin(OP);
const inspector = regulator(OP);
const counted: MetricName[] = [];
const CONFIG = { decks: 1, cutCard: { minCardsBehind: 14, maxCardsBehind: 20 } } as const;

beforeAll(async () => {
  stack = await createTestStack('broken-chain');
  core = stack.coreWith({ metrics: { count: (name) => counted.push(name) } });
  await fundPlayers(core, op, ['bea'], 100_000);
});
afterAll(() => stack?.cleanup());

async function errorOf(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: string; message: string; details?: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
  throw new Error('expected a refusal');
}

/** A table whose shoe has one settled round, and its COUP_DEALT item deleted from the audit table. */
async function brokenShoe(name: string) {
  const table = await core.createTable(boss, { name, variant: 'custom', config: CONFIG });
  const shoe = await core.openShoe(boss, { tableId: table.tableId });
  const round = await core.openRound(op, { tableId: table.tableId });
  await core.placeBet(op, {
    roundId: round.roundId,
    playerId: 'bea',
    bets: [{ type: 'BANKER', amount: 1_000 }],
    idempotencyKey: `${round.roundId}-bea`,
  });
  await core.resolveRound(op, { roundId: round.roundId });
  const audit = await stack.store.listAudit(shoe.shoeId);
  const dealt = audit.find((a) => a.type === 'COUP_DEALT')!;
  const key = { pk: `SHOE#${shoe.shoeId}`, sk: `E#${String(dealt.seq).padStart(6, '0')}` };
  const item = (await stack.raw.get('audit', key))!;
  await stack.raw.delete('audit', key);
  return { tableId: table.tableId, shoeId: shoe.shoeId, roundId: round.roundId, key, item };
}

describe('a close that finds the audit chain broken', () => {
  it('locks the table with TABLE_LOCKED (source AUDIT), counts it, and every refusal says what to do', async () => {
    const { tableId, shoeId, roundId } = await brokenShoe('Broken chain');
    counted.length = 0;
    const refused = await errorOf(core.closeShoe(boss, { shoeId, reason: 'END_OF_SESSION' }));
    expect(refused.code).toBe('AUDIT_CHAIN_BROKEN');
    expect(refused.message).toContain(`POST /v1/shoes/${shoeId}/abandon`);
    // The close was early, after the shoe's beacon round was out: a discard (shoes/discards.ts), counted
    // when the shoe went CLOSING, before the re-walk found the chain broken and locked the table.
    expect(counted).toEqual(['DiscardsAfterBeacon', 'TablesLocked']);

    const shoe = await core.getShoe(op, { shoeId });
    expect([shoe.phase, shoe.serverSeed, shoe.close]).toEqual(['CLOSING', null, null]);
    const table = await core.getTable(op, { tableId });
    expect(table.currentShoeId).toBe(shoeId);
    expect(table.lock).toMatchObject({
      source: 'AUDIT',
      cause: 'AUDIT_CHAIN_BROKEN',
      phase: 'CLOSE_SHOE',
      shoeId,
      seq: 0,
    });
    expect(table.lock!.problems!.length).toBeGreaterThan(0);
    expect(table.lock!.problems!.join(' ')).toMatch(/seq|sequence|missing/i);

    const { events } = await core.listTableEvents(inspector, { tableId });
    expect(events.map((e) => [e.type, e.lock?.source, e.lock?.shoeId])).toEqual([
      ['TABLE_LOCKED', 'AUDIT', shoeId],
    ]);

    // A second close answers the same and locks nothing more.
    expect(await codeOf(core.closeShoe(boss, { shoeId }))).toBe('AUDIT_CHAIN_BROKEN');
    expect((await core.listTableEvents(inspector, { tableId })).events).toHaveLength(1);

    // What each call answers now, and what to do about it.
    const opening = await errorOf(core.openShoe(boss, { tableId }));
    expect(opening.code).toBe('SHOE_ALREADY_OPEN');
    expect(opening.message).toContain('audit chain broken');
    expect(opening.message).toContain(`POST /v1/shoes/${shoeId}/abandon`);
    const round = await errorOf(core.openRound(op, { tableId }));
    expect(round.code).toBe('TABLE_LOCKED');
    expect(round.message).toContain(`POST /v1/shoes/${shoeId}/abandon`);
    const unlock = await errorOf(core.unlockTable(boss, { tableId, reason: 'looks fine' }));
    expect(unlock.code).toBe('AUDIT_LOCK_NEEDS_SHOE');
    expect(unlock.message).toContain(`POST /v1/shoes/${shoeId}/abandon`);

    // Before the abandon the replay finds the deleted event; no bundle exists (never closed).
    const replay = await core.replayRound(inspector, { roundId });
    expect(replay.verification.status).toBe('FAILED');
    expect(await codeOf(core.exportAudit(inspector, { shoeId }))).toBe('SHOE_NOT_CLOSED');
  });

  it('an admin abandons the shoe with a reason: recorded, in the feed, never verified; the table opens a new shoe', async () => {
    const { tableId, shoeId, roundId } = await brokenShoe('Abandoned');
    expect(await codeOf(core.closeShoe(boss, { shoeId, reason: 'END_OF_SESSION' }))).toBe(
      'AUDIT_CHAIN_BROKEN',
    );
    const lock = (await core.getTable(op, { tableId })).lock!;
    expect(await codeOf(core.abandonShoe(boss, { shoeId, reason: '  ' }))).toBe('INVALID_INPUT');

    const reason = 'audit item deleted by a faulty migration; no backup holds it (OPS-301)';
    const abandoned = await core.abandonShoe(boss, { shoeId, reason });
    expect(abandoned.phase).toBe('ABANDONED');
    expect(abandoned.abandoned).toEqual({ at: expect.any(String), reason, problems: lock.problems });
    expect(abandoned.serverSeed).toBeNull();
    expect(await core.getShoe(op, { shoeId })).toEqual(abandoned);

    const table = await core.getTable(op, { tableId });
    expect([table.currentShoeId, table.lock]).toEqual([null, null]);
    const { events } = await core.listTableEvents(inspector, { tableId });
    expect(events.map((e) => e.type)).toEqual(['TABLE_LOCKED', 'SHOE_ABANDONED']);
    expect(events[1]).toMatchObject({
      shoeId,
      reason,
      clears: lock.seq,
      by: { role: 'admin', operatorId: OP },
    });

    // Never closed, revealed or verified.
    expect(await codeOf(core.closeShoe(boss, { shoeId }))).toBe('SHOE_ABANDONED');
    expect(await codeOf(core.exportAudit(inspector, { shoeId }))).toBe('SHOE_ABANDONED');
    expect(await codeOf(core.shoeProof({ shoeId }))).toBe('SHOE_ABANDONED');
    expect((await core.replayRound(inspector, { roundId })).verification.status).toBe('ABANDONED');
    expect(await codeOf(core.abandonShoe(boss, { shoeId, reason }))).toBe('SHOE_ABANDONED');

    // Regulators are told: the lock, the abandonment, the shoe's status.
    const from = new Date(Date.parse(lock.at) - 60_000).toISOString();
    const to = new Date(Date.parse(abandoned.abandoned!.at) + 60_000).toISOString();
    const ctx = context({ store: stack.store, keys: stack.keys, clock: stack.clock });
    const feed = await exportFeed(ctx, inspector, { operatorId: OP, from, to, format: 'ndjson' });
    const records = feed.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as FeedRecord)
      .filter((r) => r.tableId === tableId);
    expect(records.find((r) => r.type === 'shoe' && r.shoeId === shoeId)).toMatchObject({
      status: 'ABANDONED',
      abandonReason: reason,
    });
    expect(records.filter((r) => r.type === 'tableEvent')).toEqual([
      expect.objectContaining({
        event: 'TABLE_LOCKED',
        lockSource: 'AUDIT',
        shoeId,
        problems: lock.problems,
      }),
      expect.objectContaining({ event: 'SHOE_ABANDONED', shoeId, reason, clears: lock.seq }),
    ]);
    const csv = await exportFeed(ctx, inspector, { operatorId: OP, from, to, format: 'csv' });
    expect(csv.body).toContain('SHOE_ABANDONED');

    // The table plays again: a new shoe, number 2, linking no close (the abandoned shoe has none).
    const next = await core.openShoe(boss, { tableId });
    expect(next.statement).toMatchObject({ number: 2, previous: null });
  });

  it('only a shoe whose close locked its table can be abandoned; a repaired chain closes, then the lock is cleared', async () => {
    const table = await core.createTable(boss, { name: 'Healthy', variant: 'custom', config: CONFIG });
    const healthy = await core.openShoe(boss, { tableId: table.tableId });
    expect(await codeOf(core.abandonShoe(boss, { shoeId: healthy.shoeId, reason: 'bad results' }))).toBe(
      'SHOE_NOT_ABANDONABLE',
    );
    expect((await core.getShoe(op, { shoeId: healthy.shoeId })).phase).toBe('OPEN');

    const { tableId, shoeId, key, item } = await brokenShoe('Repaired');
    expect(await codeOf(core.closeShoe(boss, { shoeId, reason: 'END_OF_SESSION' }))).toBe(
      'AUDIT_CHAIN_BROKEN',
    );
    await stack.raw.put('audit', { ...item, ...key });
    const closed = await core.closeShoe(boss, { shoeId });
    expect(closed.phase).toBe('CLOSED');
    expect(await codeOf(core.abandonShoe(boss, { shoeId, reason: 'too late' }))).toBe('SHOE_NOT_ABANDONABLE');
    // The lock stays until an admin says what was repaired.
    expect(await codeOf(core.openShoe(boss, { tableId }))).toBe('TABLE_LOCKED');
    await core.unlockTable(boss, { tableId, reason: 'audit item restored from the backup (OPS-302)' });
    expect((await core.openShoe(boss, { tableId })).number).toBe(2);
  });
});
