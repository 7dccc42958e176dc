/**
 * A transaction that collides with a concurrent one (DynamoDB's TransactionConflict) changed nothing:
 * every use case that writes tries again instead of answering with a refusal. Found by the
 * model-based test (test/model): openShoe answered a collision with SHOE_ALREADY_OPEN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { CollidingStore } from '../support/faulty-store';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let store: CollidingStore;
beforeAll(async () => {
  stack = await createTestStack('collide');
  store = new CollidingStore(stack.store, 0);
});
afterAll(() => stack?.cleanup());

const op = operator('op-collide');
const adm = admin('op-collide');

describe('a collision is retried, not reported', () => {
  it('on every write of a shoe: open, fund, bet, resolve, void, leave, close', async () => {
    const core = stack.coreWith({ store });
    const table = await core.createTable(adm, {
      name: 'collisions',
      variant: 'mini',
      config: { commission: { rateBps: 500, mode: 'DEFERRED' } },
    });
    const steps: Array<[string, () => Promise<unknown>]> = [];
    let shoeId = '';
    let roundId = '';
    steps.push([
      'openShoe',
      async () => (shoeId = (await core.openShoe(adm, { tableId: table.tableId })).shoeId),
    ]);
    steps.push([
      'credit',
      () =>
        core.walletTransaction(op, {
          playerId: 'p',
          type: 'CREDIT',
          amount: 50_000,
          currency: 'EUR',
          idempotencyKey: 'f',
        }),
    ]);
    steps.push([
      'debit',
      () =>
        core.walletTransaction(op, {
          playerId: 'p',
          type: 'DEBIT',
          amount: 100,
          currency: 'EUR',
          idempotencyKey: 'd',
        }),
    ]);
    steps.push([
      'openRound',
      async () => (roundId = (await core.openRound(op, { tableId: table.tableId })).roundId),
    ]);
    steps.push([
      'placeBet',
      () =>
        core.placeBet(op, {
          roundId,
          playerId: 'p',
          bets: [{ type: 'BANKER', amount: 1_000 }],
          idempotencyKey: 'b1',
        }),
    ]);
    steps.push(['resolveRound', () => core.resolveRound(op, { roundId })]);
    steps.push([
      'openRound',
      async () => (roundId = (await core.openRound(op, { tableId: table.tableId })).roundId),
    ]);
    steps.push([
      'placeBet',
      () =>
        core.placeBet(op, {
          roundId,
          playerId: 'p',
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: 'b2',
        }),
    ]);
    steps.push(['voidRound', () => core.voidRound(op, { roundId, reason: 'MISDEAL' })]);
    steps.push(['leaveTable', () => core.leaveTable(op, { tableId: table.tableId, playerId: 'p' })]);
    steps.push(['closeShoe', () => core.closeShoe(adm, { shoeId, reason: 'END_OF_SESSION' })]);
    for (const [name, step] of steps) {
      store.collideNext(1);
      const before = store.collided;
      await expect(step(), name).resolves.toBeDefined();
      // Leaving writes only when commission is owed (it depends on the coup).
      if (name !== 'leaveTable') expect(store.collided, `${name} met a collision`).toBe(before + 1);
      store.collideNext(0);
    }
    const report = await stack.core.checkShoeChain(op, { shoeId });
    expect(report.problems).toEqual([]);
    expect((await stack.core.getShoe(op, { shoeId })).status).toBe('CLOSED');
  });
});
