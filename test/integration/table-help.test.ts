/**
 * A table's help screen (issue #28 item 6): each bet the table offers with its exact return to player
 * — the engine's exact house edge for the table's decks and pay tables, the figures `baccarat odds`
 * prints —, its maximum win at the table's maximum stake, the rules (es, en) and the interrupted-game
 * policy. On the in-memory Store and DynamoDB Local.
 */
import type { Actor } from '@pyb/core';
import { context, getTableHelp } from '@pyb/core/use-cases';
import { compositionOfDecks, exactOdds, houseEdgeExact } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { tableWithShoe } from '../support/fixture';
import { codeOf } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('table-help');
});
afterAll(() => stack?.cleanup());

const help = (actor: Actor, tableId: string) =>
  getTableHelp(context({ store: stack.store, keys: stack.keys, clock: stack.clock }), actor, { tableId });
const byType = <B extends { type: string }>(bets: B[]): Record<string, B> =>
  Object.fromEntries(bets.map((b) => [b.type, b]));

describe('the help screen of a table', () => {
  it('gives each bet of an 8-deck commission table its exact RTP (the published 98.9421 / 98.7649 / 85.6404) and maximum win', async () => {
    const { table } = await tableWithShoe(stack.core, {
      name: 'Help full',
      variant: 'full',
      config: { pairBets: true },
    });
    const view = await help(operator(), table.tableId);
    expect(view).toMatchObject({
      tableId: table.tableId,
      name: 'Help full',
      currency: table.config.currency,
      decks: 8,
    });
    const bets = byType(view.bets);
    expect(Object.keys(bets)).toEqual(['PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR']);
    expect(bets.BANKER).toMatchObject({ pays: '1:1 less 5% commission', rtp: { percent: '98.9421' } });
    expect(bets.PLAYER).toMatchObject({ pays: '1:1', rtp: { percent: '98.7649' } });
    expect(bets.TIE).toMatchObject({ pays: '8:1', rtp: { percent: '85.6404' } });
    // The exact fraction is 1 − the engine's exact edge, to the last digit.
    const edges = houseEdgeExact(table.config, exactOdds(compositionOfDecks(8)));
    const [num, den] = bets.BANKER!.rtp.exact.split('/').map(BigInt) as [bigint, bigint];
    expect(num * edges.banker.den).toBe((edges.banker.den - edges.banker.num) * den);
    const { max } = table.config.limits.BANKER;
    expect(bets.BANKER!.maxWin).toBe(max - Math.ceil((max * table.config.commission.rateBps) / 10_000));
    expect(bets.PLAYER!.maxWin).toBe(table.config.limits.PLAYER.max);
    expect(bets.TIE!.maxWin).toBe(table.config.limits.TIE.max * 8);
    expect(bets.PLAYER_PAIR!.maxWin).toBe(table.config.limits.PLAYER_PAIR.max * 11);
  });

  it('follows the Banca mode and the side bets offered, each at its own pay table', async () => {
    const limit = { min: 100, max: 10_000 };
    const { table } = await tableWithShoe(stack.core, {
      name: 'Help EZ',
      variant: 'mini',
      config: {
        bankerMode: 'EZ',
        sideBets: { DRAGON_7: { limit }, PANDA_8: { pays: { win: 30, per: 1 }, limit } },
        cutCard: { minCardsBehind: 78, maxCardsBehind: 90 },
      },
    });
    const view = await help(operator(), table.tableId);
    const bets = byType(view.bets);
    expect(Object.keys(bets)).toContain('DRAGON_7');
    expect(Object.keys(bets)).not.toContain('SUPER_6');
    const edges = houseEdgeExact(table.config, exactOdds(compositionOfDecks(table.config.decks)));
    const rtp = (e: { num: bigint; den: bigint }) => `${e.den - e.num}/${e.den}`;
    expect(bets.BANKER).toMatchObject({
      pays: '1:1, push on a three-card 7',
      rtp: { exact: rtp(edges.ezBanker) },
    });
    expect(bets.DRAGON_7).toMatchObject({
      pays: '40:1',
      rtp: { exact: rtp(edges.dragon7) },
      maxWin: 400_000,
    });
    expect(bets.PANDA_8).toMatchObject({ pays: '30:1', rtp: { exact: rtp(edges.panda8) }, maxWin: 300_000 });
    expect(view.rules.es).toContain('sin comisión');
    expect(view.rules.en).toContain('three-card 7');
  });

  it('gives the rules and the interrupted-game policy in Spanish and English, to a player token too', async () => {
    const { table } = await tableWithShoe(stack.core, { name: 'Help mini', variant: 'mini' });
    const player: Actor = {
      operatorId: 'op-1',
      role: 'player',
      supervises: [],
      player: { playerId: 'ana', sessionId: 'ses-1' },
    };
    const view = await help(player, table.tableId);
    expect(view.rules.es).toContain(`${table.config.decks} barajas`);
    expect(view.rules.en).toContain(`${table.config.decks} decks`);
    expect(view.interruptedGames.es).toContain('se devuelven todas las apuestas');
    expect(view.interruptedGames.en).toContain('every stake is returned');
    // With the deadlines the platform enforces (rounds/deadlines.ts; the defaults here).
    expect(view.interruptedGames.en).toContain('betting is still open 10 minutes after the round opened');
    expect(view.interruptedGames.en).toContain('no cards are dealt 5 minutes after "no va más"');
    expect(view.interruptedGames.es).toContain('a los 15 minutos');
  });

  it("does not show another operator's table", async () => {
    const { table } = await tableWithShoe(stack.core, { name: 'Help other', variant: 'mini' });
    expect(await codeOf(help(operator('op-2'), table.tableId))).toBe('TABLE_NOT_FOUND');
  });
});
