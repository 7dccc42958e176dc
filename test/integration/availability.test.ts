/**
 * Game availability (docs/regulators.md, "Game availability"; AGCO 4.02(8), NJ 13:69O-1.8(f), PA
 * 811a.7(f)): an operator switches a table, or one of its pair or side bets, off and on; what is in
 * play finishes, nothing new opens or is taken; each change is a table event with who, when and why,
 * read back in the Game Availability Log, the table's events, the regulator feed and the live feed.
 */
import { catchUpFeed, type LiveFeedStore, listLiveEvents, noPublisher, type Store } from '@pyb/core';
import { context, exportFeed } from '@pyb/core/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundPlayers, tableWithShoe } from '../support/fixture';
import { codeOf } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

const OP = 'op-avail';
const op = operator(OP);
const boss = admin(OP);
const LIMIT = { min: 100, max: 10_000 };
const CONFIG = {
  pairBets: true,
  sideBets: { DRAGON_7: { limit: LIMIT } },
  cutCard: { minCardsBehind: 14, maxCardsBehind: 20 },
} as const;
const OFF = { available: false, reason: 'dealer studio maintenance', person: 'Ana Ruiz (shift manager)' };
const ON = { available: true, reason: 'maintenance done', person: 'Ana Ruiz (shift manager)' };

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('availability');
  await fundPlayers(stack.core, op, ['lia', 'bo'], 1_000_000);
});
afterAll(async () => {
  await stack?.cleanup();
});

const newTable = (name: string) =>
  tableWithShoe(stack.core, { name, variant: 'custom', config: CONFIG }, OP).then(({ table }) => table);

const bet = (roundId: string, playerId: string, bets: { type: string; amount: number }[], key: string) =>
  stack.core.placeBet(op, { roundId, playerId, bets: bets as never, idempotencyKey: key });

describe('a table switched off and on', () => {
  it('off mid-round: the round gets its "no va más", is dealt and settled; nothing new opens until it is on', async () => {
    const table = await newTable('Avail 1');
    const round = await stack.core.openRound(op, { tableId: table.tableId });
    await bet(round.roundId, 'lia', [{ type: 'BANKER', amount: 1_000 }], 'lia-1');

    const off = await stack.core.setTableAvailability(op, { tableId: table.tableId, ...OFF });
    expect(off.disabled).toMatchObject({ reason: OFF.reason, person: OFF.person, seq: 0 });
    // No new bet on the round in play: its betting closed with the switch.
    expect((await stack.core.getRound(op, { roundId: round.roundId })).status).toBe('CLOSED');
    expect(await codeOf(bet(round.roundId, 'bo', [{ type: 'PLAYER', amount: 500 }], 'bo-1'))).toBe(
      'ROUND_NOT_OPEN',
    );
    // …but the game in play finishes: dealt and settled, lia paid or charged as usual.
    const resolved = await stack.core.resolveRound(op, { roundId: round.roundId });
    expect(resolved.status).toBe('SETTLED');
    expect(resolved.positions.map((p) => p.playerId)).toEqual(['lia']);

    // Nothing new: no round, no shoe (this one closed), each refused with what to do.
    const refused = await stack.core.openRound(op, { tableId: table.tableId }).catch((e) => e);
    expect([refused.kind, refused.code]).toEqual(['CONFLICT', 'TABLE_DISABLED']);
    expect(refused.message).toContain(`POST /v1/tables/${table.tableId}/availability`);
    await stack.core.closeShoe(boss, {
      shoeId: (await stack.core.getTable(op, { tableId: table.tableId })).currentShoeId!,
      reason: 'TABLE_CLOSING',
    });
    expect(await codeOf(stack.core.openShoe(boss, { tableId: table.tableId }))).toBe('TABLE_DISABLED');
    // Off twice: said so, nothing recorded twice.
    expect(await codeOf(stack.core.setTableAvailability(op, { tableId: table.tableId, ...OFF }))).toBe(
      'AVAILABILITY_UNCHANGED',
    );

    const on = await stack.core.setTableAvailability(op, { tableId: table.tableId, ...ON });
    expect(on.disabled).toBeNull();
    await stack.core.openShoe(boss, { tableId: table.tableId });
    const next = await stack.core.openRound(op, { tableId: table.tableId });
    expect(next.status).toBe('OPEN');

    const { events } = await stack.core.listTableEvents(op, { tableId: table.tableId });
    expect(events.map((e) => [e.seq, e.type, e.reason, e.person])).toEqual([
      [0, 'TABLE_DISABLED', OFF.reason, OFF.person],
      [1, 'TABLE_ENABLED', ON.reason, ON.person],
    ]);
    expect(events[0]!.by).toEqual({ role: 'operator', operatorId: OP });
  });

  it('a bet switched off is refused from the next round on; the round in play keeps it', async () => {
    const table = await newTable('Avail 2');
    const first = await stack.core.openRound(op, { tableId: table.tableId });
    const off = await stack.core.setTableAvailability(op, {
      tableId: table.tableId,
      ...OFF,
      reason: 'pay table under review',
      betType: 'DRAGON_7',
    });
    expect(off.betsOff).toEqual(['DRAGON_7']);
    expect(off.disabled).toBeNull();
    // The round already taking bets was opened with Dragon 7 offered: a bet on it still stands.
    const taken = await bet(first.roundId, 'lia', [{ type: 'DRAGON_7', amount: 200 }], 'lia-d7');
    expect(taken.position.bets.map((b) => b.type)).toEqual(['DRAGON_7']);
    expect((await stack.core.getRound(op, { roundId: first.roundId })).status).toBe('OPEN');
    await stack.core.resolveRound(op, { roundId: first.roundId });

    const second = await stack.core.openRound(op, { tableId: table.tableId });
    expect(second.betsOff).toEqual(['DRAGON_7']);
    const refused = await bet(second.roundId, 'lia', [{ type: 'DRAGON_7', amount: 200 }], 'lia-d7-2').catch(
      (e) => e,
    );
    expect([refused.kind, refused.code]).toEqual(['UNPROCESSABLE', 'BET_SIDE_DISABLED']);
    // Nothing was half-taken: the other bets of the table still play in that round.
    await bet(second.roundId, 'lia', [{ type: 'PLAYER_PAIR', amount: 200 }], 'lia-pp');
    // A bet the table never offered is not "switched": refused as such.
    expect(
      await codeOf(
        stack.core.setTableAvailability(op, { tableId: table.tableId, ...OFF, betType: 'PANDA_8' }),
      ),
    ).toBe('BET_SIDE_DISABLED');
    await stack.core.resolveRound(op, { roundId: second.roundId });
    await stack.core.setTableAvailability(op, { tableId: table.tableId, ...ON, betType: 'DRAGON_7' });
    const third = await stack.core.openRound(op, { tableId: table.tableId });
    expect(third.betsOff ?? []).toEqual([]);
    await bet(third.roundId, 'lia', [{ type: 'DRAGON_7', amount: 200 }], 'lia-d7-3');
  });

  it('refuses what it must: no reason or person, a reader, another operator', async () => {
    const table = await newTable('Avail 3');
    const { tableId } = table;
    expect(await codeOf(stack.core.setTableAvailability(op, { tableId, ...OFF, reason: '  ' }))).toBe(
      'INVALID_INPUT',
    );
    expect(await codeOf(stack.core.setTableAvailability(op, { tableId, ...OFF, person: '' }))).toBe(
      'INVALID_INPUT',
    );
    expect(await codeOf(stack.core.setTableAvailability(regulator(OP), { tableId, ...OFF }))).toBe(
      'READ_ONLY',
    );
    expect(await codeOf(stack.core.setTableAvailability(operator('op-else'), { tableId, ...OFF }))).toBe(
      'TABLE_NOT_FOUND',
    );
    // Nothing was recorded by any of them.
    expect((await stack.core.listTableEvents(op, { tableId })).events).toEqual([]);
    expect((await stack.core.getTable(op, { tableId })).disabled).toBeNull();
  });
});

describe('what the changes leave for the regulator and the players', () => {
  it('the Game Availability Log, the feed and the live feed all carry each change', async () => {
    const from = stack.clock.now().toISOString();
    const table = await newTable('Avail 4');
    await stack.core.setTableAvailability(op, { tableId: table.tableId, ...OFF, betType: 'PLAYER_PAIR' });
    await stack.core.setTableAvailability(op, { tableId: table.tableId, ...OFF });
    await stack.core.setTableAvailability(op, { tableId: table.tableId, ...ON });
    await stack.clock.sleep!(1_000);
    const to = stack.clock.now().toISOString();

    const log = await stack.core.availabilityLog(regulator(OP), { operatorId: OP, from, to });
    const mine = log.entries.filter((e) => e.tableId === table.tableId);
    expect(mine.map((e) => [e.type, e.betType, e.tableName, e.person])).toEqual([
      ['BET_DISABLED', 'PLAYER_PAIR', 'Avail 4', OFF.person],
      ['TABLE_DISABLED', undefined, 'Avail 4', OFF.person],
      ['TABLE_ENABLED', undefined, 'Avail 4', ON.person],
    ]);
    expect(log.entries.map((e) => e.at)).toEqual([...log.entries.map((e) => e.at)].sort());
    // Only availability events, only in the range, only to who may read the operator.
    expect(log.entries.every((e) => e.type.endsWith('_DISABLED') || e.type.endsWith('_ENABLED'))).toBe(true);
    const later = await stack.core.availabilityLog(op, {
      operatorId: OP,
      from: to,
      to: new Date(Date.parse(to) + 86_400_000).toISOString(),
    });
    expect(later.entries).toEqual([]);
    expect(await codeOf(stack.core.availabilityLog(regulator('op-else'), { operatorId: OP, from, to }))).toBe(
      'OPERATOR_NOT_FOUND',
    );
    expect(await codeOf(stack.core.availabilityLog(op, { operatorId: OP, from: to, to: from }))).toBe(
      'INVALID_INPUT',
    );
    expect(
      await codeOf(stack.core.availabilityLog(op, { operatorId: OP, from: '2020-01-01T00:00:00Z', to })),
    ).toBe('INVALID_INPUT');

    // The regulator feed: a tableEvent record per change, with who and why.
    const ctx = context({ store: stack.store, keys: stack.keys, clock: stack.clock });
    const feed = await exportFeed(ctx, regulator(OP), { operatorId: OP, from, to, format: 'ndjson' });
    const records = feed.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.type === 'tableEvent' && r.tableId === table.tableId);
    expect(records.map((r) => [r.event, r.betType, r.reason, r.person])).toEqual([
      ['BET_DISABLED', 'PLAYER_PAIR', OFF.reason, OFF.person],
      ['TABLE_DISABLED', undefined, OFF.reason, OFF.person],
      ['TABLE_ENABLED', undefined, ON.reason, ON.person],
    ]);
    const csv = await exportFeed(ctx, regulator(OP), { operatorId: OP, from, to, format: 'csv' });
    expect(csv.body).toContain('BET_DISABLED');

    // The live feed: players are told which bet and why — not who (that stays in the operator's log).
    const live = { store: stack.store as Store & LiveFeedStore, publisher: noPublisher };
    await catchUpFeed(live, table.tableId);
    const { events } = await listLiveEvents(live, op, { tableId: table.tableId });
    const told = events.filter((e) => e.type.endsWith('_DISABLED') || e.type.endsWith('_ENABLED'));
    expect(told.map((e) => [e.type, e.data])).toEqual([
      ['BET_DISABLED', { reason: OFF.reason, betType: 'PLAYER_PAIR' }],
      ['TABLE_DISABLED', { reason: OFF.reason }],
      ['TABLE_ENABLED', { reason: ON.reason }],
    ]);
  });
});
