/**
 * No item grows with the number of bets: a position driven past the old breaking point (1,586 raises
 * filled the position's betKeys list to 400 KB; resolve then failed forever and void was refused) stays a
 * small item, refuses calls past MAX_POSITION_CALLS with a 422, and its round settles — or voids.
 */
import { MAX_POSITION_CALLS } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('bounded');
});
afterAll(() => stack?.cleanup());

const op = operator();
const ATTEMPTS = 1_650;
/** A long client key, as in the incident: 255 characters. */
const key = (i: number) => `${'k'.repeat(240)}-${String(i).padStart(8, '0')}`;

/** About the stored size of an item (DynamoDB counts attribute names and values; JSON is close). */
const itemBytes = (item: object) => JSON.stringify(item).length;

async function roundWithFundedPlayer(playerId: string) {
  const table = await stack.core.createTable(admin(), { name: 'Raises', variant: 'mini' });
  await stack.core.openShoe(admin(), { tableId: table.tableId });
  await fundPlayers(stack.core, op, [playerId], 10_000_000);
  return stack.core.openRound(op, { tableId: table.tableId });
}

/** Drives one position: a bet of 500 on Punto (the mini table's minimum), then raises of 500. */
async function drive(roundId: string, playerId: string) {
  const outcomes: string[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const call = stack.core.placeBet(op, {
      roundId,
      playerId,
      bets: [{ type: 'PLAYER', amount: 500 }],
      idempotencyKey: key(i),
    });
    if (i < MAX_POSITION_CALLS) {
      await call;
      outcomes.push('ok');
    } else outcomes.push(await codeOf(call));
  }
  return outcomes;
}

describe(`a position driven past ${ATTEMPTS} calls`, () => {
  it('accepts the first MAX_POSITION_CALLS, refuses the rest with a 422 writing nothing, stays small, and settles', async () => {
    const playerId = 'raiser';
    const round = await roundWithFundedPlayer(playerId);
    const outcomes = await drive(round.roundId, playerId);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(MAX_POSITION_CALLS);
    expect(new Set(outcomes.slice(MAX_POSITION_CALLS))).toEqual(new Set(['POSITION_CALL_LIMIT']));
    const position = (await stack.store.get('position', { roundId: round.roundId, playerId }))!;
    // 1,000 calls of 500: the mini table's maximum on Punto, reached exactly.
    expect([position.calls, position.stake]).toEqual([MAX_POSITION_CALLS, MAX_POSITION_CALLS * 500]);
    // The item is the same size after a thousand calls as after one: nothing in it grows.
    expect(itemBytes(position)).toBeLessThan(1_024);
    expect(itemBytes((await stack.store.get('round', { roundId: round.roundId }))!)).toBeLessThan(1_024);
    // One ledger entry per accepted call; the refused ones wrote nothing.
    const bets = (await wholeLedger(stack.core, op, playerId)).filter((e) => e.kind === 'BET');
    expect(bets).toHaveLength(MAX_POSITION_CALLS);

    const view = await stack.core.resolveRound(op, { roundId: round.roundId });
    expect(view.status).toBe('SETTLED');
    const wallet = await stack.core.getWallet(op, { playerId });
    expect(wallet.balance).toBe(10_000_000 - position.stake + (view.positions[0]!.payout ?? 0));
    const ledger = await wholeLedger(stack.core, op, playerId);
    expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
    // The audit check reads every call's entry back from the position's ledger range.
    expect((await stack.core.checkShoeChain(op, { shoeId: view.shoeId })).problems).toEqual([]);
  }, 600_000); // some 1,700 calls one after the other, on a box shared with the rest of the suite

  it('a round with such a position can still be voided, every call refunded in one movement', async () => {
    const playerId = 'raiser-2';
    const round = await roundWithFundedPlayer(playerId);
    for (let i = 0; i < 40; i++) {
      await stack.core.placeBet(op, {
        roundId: round.roundId,
        playerId,
        bets: [{ type: 'PLAYER', amount: 500 }],
        idempotencyKey: key(i),
      });
    }
    const view = await stack.core.voidRound(op, { roundId: round.roundId, reason: 'TECHNICAL_FAULT' });
    expect(view.status).toBe('VOIDED');
    expect((await stack.core.getWallet(op, { playerId })).balance).toBe(10_000_000);
  });
});
