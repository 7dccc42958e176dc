/**
 * placeBet (core rounds): the stake leaves the wallet through one BET ledger entry, the position holds
 * the bets, and the client's idempotency key makes a retry return the same position without a second
 * debit.
 */
import type { Core } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
beforeAll(async () => {
  stack = await createTestStack('place-bet');
  core = stack.core;
});
afterAll(() => stack?.cleanup());

const op = operator();
const FUNDS = 100_000;

describe('placeBet', () => {
  it('debits the stake once, holds the bets on the position, and replays on its idempotency key', async () => {
    const { round } = await tableWithRound(core, op, { name: 'PB', variant: 'mini' });
    const playerId = await fundedPlayer(core, op, { prefix: 'pb', amount: FUNDS });
    const input = {
      roundId: round.roundId,
      playerId,
      bets: [
        { type: 'PLAYER' as const, amount: 3_000 },
        { type: 'TIE' as const, amount: 500 },
      ],
      idempotencyKey: 'bet-1',
    };
    const first = await core.placeBet(op, input);
    expect(first.position.bets.map((b) => [b.type, b.amount])).toEqual([
      ['PLAYER', 3_000],
      ['TIE', 500],
    ]);
    expect(first.position.stake).toBe(3_500);
    const again = await core.placeBet(op, input);
    expect(again.position).toEqual(first.position);
    expect((await core.getWallet(op, { playerId })).balance).toBe(FUNDS - 3_500);
    const ledger = await wholeLedger(core, op, playerId);
    expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(FUNDS - 3_500);
  });
});
