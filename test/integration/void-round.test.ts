/**
 * voidRound (core rounds): a round voided before its coup is dealt gives every stake back through
 * the ledger, and the round says VOIDED with the reason given.
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
  stack = await createTestStack('void-round');
  core = stack.core;
});
afterAll(() => stack?.cleanup());

const op = operator();
const FUNDS = 50_000;

describe('voidRound', () => {
  it('refunds every stake of the round and marks it VOIDED', async () => {
    const { round } = await tableWithRound(core, op, { name: 'VR', variant: 'mini' });
    const players = [
      await fundedPlayer(core, op, { prefix: 'vr', amount: FUNDS }),
      await fundedPlayer(core, op, { prefix: 'vr', amount: FUNDS }),
    ];
    for (const [i, playerId] of players.entries()) {
      await core.placeBet(op, {
        roundId: round.roundId,
        playerId,
        bets: [{ type: 'BANKER', amount: 1_000 * (i + 1) }],
        idempotencyKey: `bet-${i}`,
      });
    }
    const view = await core.voidRound(op, { roundId: round.roundId, reason: 'TECHNICAL_FAULT' });
    expect(view.status).toBe('VOIDED');
    for (const playerId of players) {
      expect((await core.getWallet(op, { playerId })).balance).toBe(FUNDS);
      const ledger = await wholeLedger(core, op, playerId);
      expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(FUNDS);
    }
  });
});
