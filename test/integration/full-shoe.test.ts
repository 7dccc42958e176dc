/**
 * Done-when: a whole shoe played to its cut card with several players and all bet types; every wallet
 * equals its start plus the engine's settlement of its bets, to the unit, and equals its ledger.
 */
import { tablePreset } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { PINNED_V2 } from '../support/dealt';
import { fundPlayers } from '../support/fixture';
import { coupsOfClosedShoe, expectedOutcome, type PlayedRound, playShoe, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('shoe', PINNED_V2);
});
afterAll(() => stack?.cleanup());

const PLAYERS = ['ana', 'ben', 'carla', 'dario'];
const START = 2_000_000;

describe('a whole 6-deck shoe (commission at payment)', () => {
  it('pays every wallet exactly what the engine says, and the ledger adds up', async () => {
    const { core } = stack;
    const op = operator();
    const overrides = { pairBets: true };
    const config = tablePreset('mini', overrides);
    const table = await core.createTable(admin(), {
      name: 'Mini 6 decks',
      variant: 'mini',
      config: overrides,
    });
    await fundPlayers(core, op, PLAYERS, START);
    const shoe = await core.openShoe(admin(), { tableId: table.tableId });
    expect(shoe.commitment).toMatch(/^[0-9a-f]{64}$/);

    const rounds: PlayedRound[] = await playShoe({
      core,
      actor: op,
      tableId: table.tableId,
      players: PLAYERS,
      config,
      seed: 'full-shoe',
      clientSeed: 'players-choice-1',
      voidRounds: [7],
    });

    // The cut card ended the shoe: no more rounds, and closing reveals the seed.
    const ended = await core.getShoe(op, { shoeId: shoe.shoeId });
    expect(ended.phase).toBe('ENDED');
    expect(await core.openRound(op, { tableId: table.tableId }).catch((e) => e.code)).toBe('SHOE_ENDED');
    const closed = await core.closeShoe(admin(), { shoeId: shoe.shoeId });
    expect(closed.status).toBe('CLOSED');

    // Independently: the shoe the revealed seed deals, coup by coup, to its cut card.
    const coups = coupsOfClosedShoe(closed, config);
    expect(coups.length).toBeGreaterThan(50);
    const expected = expectedOutcome(config, rounds, coups);
    rounds
      .filter((r) => !r.voided)
      .forEach((r, i) => {
        expect(r.view.result?.winner).toBe(coups[i]!.winner);
      });
    expect(rounds.at(-1)!.view.lastCoup).toBe(true);

    // Every bet type was played.
    const types = new Set(rounds.flatMap((r) => [...r.bets.values()].flat().map((b) => b.type)));
    expect([...types].sort()).toEqual(['BANKER', 'BANKER_PAIR', 'PLAYER', 'PLAYER_PAIR', 'TIE']);

    for (const playerId of PLAYERS) {
      const wallet = await core.getWallet(op, { playerId });
      expect(wallet.balance, playerId).toBe(START + expected.net.get(playerId)!);
      const ledger = await wholeLedger(core, op, playerId);
      expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
      // Each movement starts from where the previous one left the balance; none goes negative.
      ledger.forEach((e, i) => {
        expect(e.seq).toBe(i + 1);
        expect(e.balanceBefore).toBe(i === 0 ? 0 : ledger[i - 1]!.balanceAfter);
        expect(e.balanceAfter).toBe(e.balanceBefore + e.amount);
        expect(e.balanceAfter).toBeGreaterThanOrEqual(0);
      });
    }

    const report = await core.checkShoeChain(op, { shoeId: shoe.shoeId });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.coupsVerified).toBe(true);
    expect(report.rounds).toBe(rounds.length);
  });
});
