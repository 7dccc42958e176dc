/**
 * Side bets and Banca modes through the use cases (#13): a table offers each side bet with its limit
 * and pay table, and raises its cut card; a bet of a type the table does not offer is refused with
 * BET_SIDE_DISABLED before anything is written; settled side bets show in the round and on the
 * scoreboard. On the in-memory Store (fast tier) and DynamoDB Local.
 */
import type { CreateTableInput } from '@pyb/core';
import { getScoreboard } from '@pyb/core/use-cases';
import {
  type Bet,
  SIDE_BET_TYPES,
  type SideBetType,
  settle,
  sideBetResults,
  type TableConfig,
  tablePreset,
} from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { fundedPlayer, tableWithShoe } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('side-bets');
});
afterAll(() => stack?.cleanup());

const op = operator('op-1');
const LIMIT = { min: 100, max: 10_000 };

/** Every side bet offered, each with the default pay table (left out on input). */
const ALL_SIDE_BETS = Object.fromEntries(SIDE_BET_TYPES.map((t) => [t, { limit: LIMIT }])) as Record<
  SideBetType,
  { limit: typeof LIMIT }
>;

const EZ: CreateTableInput['config'] = {
  bankerMode: 'EZ',
  sideBets: { DRAGON_7: { limit: LIMIT }, PANDA_8: { pays: { win: 30, per: 1 }, limit: LIMIT } },
  cutCard: { minCardsBehind: 78, maxCardsBehind: 90 },
};

const player = (amount?: number) => fundedPlayer(stack.core, op, { prefix: 'sb', amount });

const byType = (
  bets: readonly { type: string; amount: number; result: unknown; payout: unknown; commission: unknown }[],
) => Object.fromEntries(bets.map((b) => [b.type, [b.amount, b.result, b.payout, b.commission]]));

const openTable = (config: CreateTableInput['config'], name = 'Side bets') =>
  tableWithShoe(stack.core, { name, variant: 'mini', config });

describe('the configuration of a table with side bets', () => {
  it('stores each side bet with its limit and the pay table in force, and signs it into the shoe', async () => {
    const { table, shoe } = await openTable(EZ);
    expect(table.config.bankerMode).toBe('EZ');
    expect(table.config.sideBets).toEqual({
      DRAGON_7: { pays: { win: 40, per: 1 }, limit: LIMIT },
      PANDA_8: { pays: { win: 30, per: 1 }, limit: LIMIT },
    });
    expect(table.config.cutCard).toEqual({ minCardsBehind: 78, maxCardsBehind: 90 });
    expect((await stack.core.getTable(op, { tableId: table.tableId })).config).toEqual(table.config);
    // The signed statement binds the pay tables and the depth the shoe is dealt to.
    expect(shoe.statement.table).toEqual(table.config);
    expect(shoe.statement.cutCard).toEqual({ minCardsBehind: 78, maxCardsBehind: 90 });
  });

  it('leaves a table without side bets as it was (no bankerMode, no sideBets)', async () => {
    const { table } = await openTable({});
    expect(table.config).not.toHaveProperty('bankerMode');
    expect(table.config).not.toHaveProperty('sideBets');
    expect(table.config).toEqual(tablePreset('mini'));
  });

  it('refuses configurations the rules refuse', async () => {
    const refused = (config: unknown) =>
      codeOf(
        stack.core.createTable(admin(), {
          name: 'Bad',
          variant: 'mini',
          config: config as CreateTableInput['config'],
        }),
      );
    expect(await refused({ sideBets: {} })).toBe('TABLE_CONFIG_INVALID');
    expect(await refused({ sideBets: { DRAGON_7: {} } })).toBe('TABLE_CONFIG_INVALID');
    expect(await refused({ sideBets: { BIG: { limit: { min: 500, max: 100 } } } })).toBe(
      'TABLE_CONFIG_INVALID',
    );
    expect(await refused({ sideBets: { BIG: { pays: { win: 0, per: 1 }, limit: LIMIT } } })).toBe(
      'TABLE_CONFIG_INVALID',
    );
    expect(await refused({ sideBets: { LUCKY_6: { limit: LIMIT } } })).toBe('TABLE_CONFIG_INVALID');
    expect(await refused({ bankerMode: 'NO_COMMISSION' })).toBe('TABLE_CONFIG_INVALID');
    // 6 decks: the cut card must leave the burn (up to 11) and one coup (6) in front of it.
    expect(await refused({ cutCard: { minCardsBehind: 90, maxCardsBehind: 6 * 52 - 16 } })).toBe(
      'TABLE_CONFIG_INVALID',
    );
    expect(
      (
        await stack.core.createTable(admin(), {
          name: 'Deepest raise',
          variant: 'mini',
          config: { cutCard: { minCardsBehind: 90, maxCardsBehind: 6 * 52 - 17 } },
        })
      ).config.cutCard.maxCardsBehind,
    ).toBe(295);
  });
});

describe('bets on side bets', () => {
  it('refuses a bet of a type the table does not offer, writing nothing', async () => {
    const { table } = await openTable(EZ);
    const round = await stack.core.openRound(op, { tableId: table.tableId });
    const p = await player();
    const bet = (bets: Bet[], key: string) =>
      stack.core.placeBet(op, { roundId: round.roundId, playerId: p, bets, idempotencyKey: key });
    const before = await stack.core.getWallet(op, { playerId: p });

    expect(await codeOf(bet([{ type: 'SUPER_6', amount: 100 }], 'a'))).toBe('BET_SIDE_DISABLED');
    // One bet of the call is not offered: the whole call is refused, the Punto bet included.
    expect(
      await codeOf(
        bet(
          [
            { type: 'PLAYER', amount: 1_000 },
            { type: 'EITHER_PAIR', amount: 100 },
          ],
          'b',
        ),
      ),
    ).toBe('BET_SIDE_DISABLED');
    expect(await codeOf(bet([{ type: 'PLAYER_PAIR', amount: 100 }], 'c'))).toBe('BET_SIDE_DISABLED');
    const error = await bet([{ type: 'BIG', amount: 100 }], 'd').catch((e) => e);
    expect(error.details).toEqual({ betType: 'BIG' });

    expect(await stack.core.getWallet(op, { playerId: p })).toEqual(before);
    expect(await wholeLedger(stack.core, op, p)).toHaveLength(1); // the credit only
    expect((await stack.core.getRound(op, { roundId: round.roundId })).positions).toEqual([]);

    // The side bet's own limit, across calls.
    expect(await codeOf(bet([{ type: 'DRAGON_7', amount: 99 }], 'e'))).toBe('BET_BELOW_MIN');
    expect(await codeOf(bet([{ type: 'DRAGON_7', amount: 10_001 }], 'f'))).toBe('BET_ABOVE_MAX');
    await bet([{ type: 'DRAGON_7', amount: 9_000 }], 'g');
    expect(await codeOf(bet([{ type: 'DRAGON_7', amount: 1_001 }], 'h'))).toBe('BET_ABOVE_MAX');
    // An offered side bet needs no main bet, and takes one beside it.
    const placed = await bet(
      [
        { type: 'PANDA_8', amount: 500 },
        { type: 'BANKER', amount: 1_000 },
      ],
      'i',
    );
    expect(placed.position.bets.map((b) => [b.type, b.amount])).toEqual([
      ['BANKER', 1_000],
      ['DRAGON_7', 9_000],
      ['PANDA_8', 500],
    ]);
    expect((await stack.core.getWallet(op, { playerId: p })).balance).toBe(100_000 - 10_500);
  });

  it('settles every side bet by the engine, and shows them in the round and on the scoreboard', async () => {
    const config: CreateTableInput['config'] = { bankerMode: 'SUPER_6', sideBets: ALL_SIDE_BETS };
    const { table, shoe } = await openTable(config, 'Super 6');
    const stored: TableConfig = tablePreset('mini', config as never);
    expect(table.config).toEqual(stored);
    const [p, q] = [await player(1_000_000), await player(1_000_000)];
    const bets: Record<string, Bet[]> = {
      [p]: [{ type: 'BANKER', amount: 1_000 }, ...SIDE_BET_TYPES.map((type) => ({ type, amount: 100 }))],
      [q]: [
        { type: 'PLAYER', amount: 2_000 },
        { type: 'TIE', amount: 500 },
        ...SIDE_BET_TYPES.map((type) => ({ type, amount: 1_500 })),
      ],
    };
    for (let coup = 1; coup <= 4; coup++) {
      const round = await stack.core.openRound(op, { tableId: table.tableId });
      for (const [playerId, position] of Object.entries(bets)) {
        await stack.core.placeBet(op, {
          roundId: round.roundId,
          playerId,
          bets: position,
          idempotencyKey: `${round.roundId}-${playerId}`,
        });
      }
      const view = await stack.core.resolveRound(op, { roundId: round.roundId });
      const stored = (await stack.store.get('round', { roundId: round.roundId }))!.coup!.result;
      for (const position of view.positions) {
        const expected = settle(table.config, bets[position.playerId]!, stored);
        expect(position.payout).toBe(expected.payout);
        expect(position.commission).toBe(expected.commission);
        expect(byType(position.bets)).toEqual(byType(expected.bets));
        // Side bets never pay commission; a Super 6 table takes none on Banca either.
        expect(position.commission).toBe(0);
      }
      const board = await getScoreboard(stack, op, { tableId: table.tableId, shoeId: shoe.shoeId });
      const shown = board.coups.at(-1)!;
      expect(shown.roundId).toBe(round.roundId);
      expect(shown.cards).toBe(stored.cardsUsed);
      expect(shown.sideBets.map((s) => s.type)).toEqual(SIDE_BET_TYPES);
      expect(shown.sideBets).toEqual(sideBetResults(table.config, stored));
      expect(shown.sideBets.find((s) => s.type === 'BIG')!.result).toBe(
        stored.cardsUsed >= 5 ? 'WIN' : 'LOSE',
      );
    }

    // A table offering none shows none.
    const { table: plain } = await openTable({});
    const round = await stack.core.openRound(op, { tableId: plain.tableId });
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: `${round.roundId}-plain`,
    });
    await stack.core.resolveRound(op, { roundId: round.roundId });
    const board = await getScoreboard(stack, op, { tableId: plain.tableId });
    expect(board.coups[0]!.sideBets).toEqual([]);
  });
});
