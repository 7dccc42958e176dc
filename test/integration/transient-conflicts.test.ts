/**
 * A transaction that collides with a concurrent one (DynamoDB's TransactionConflict) changed nothing:
 * every use case that writes tries again instead of answering with a refusal. Found by the
 * model-based test (test/model): openShoe answered a collision with SHOE_ALREADY_OPEN.
 */
import type { WriteOp } from '@pyb/core';
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
    const wallet = (type: 'CREDIT' | 'DEBIT', amount: number, idempotencyKey: string) => () =>
      core.walletTransaction(op, { playerId: 'p', type, amount, currency: 'EUR', idempotencyKey });
    /** Two steps: a round opened, and p's bet in it. */
    const roundWithBet = (bet: { type: 'PLAYER' | 'BANKER'; amount: number }, idempotencyKey: string) => {
      steps.push([
        'openRound',
        async () => (roundId = (await core.openRound(op, { tableId: table.tableId })).roundId),
      ]);
      steps.push([
        'placeBet',
        () => core.placeBet(op, { roundId, playerId: 'p', bets: [bet], idempotencyKey }),
      ]);
    };
    steps.push(['credit', wallet('CREDIT', 50_000, 'f')]);
    steps.push(['debit', wallet('DEBIT', 100, 'd')]);
    roundWithBet({ type: 'BANKER', amount: 1_000 }, 'b1');
    steps.push(['resolveRound', () => core.resolveRound(op, { roundId })]);
    roundWithBet({ type: 'PLAYER', amount: 500 }, 'b2');
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

describe('a collision on a write made once (a signed receipt, an outside time-stamp)', () => {
  /** Transactions that set `path` on an item. */
  const setting = (path: string) => (ops: readonly WriteOp[]) =>
    ops.some((op) => op.kind === 'update' && op.set !== undefined && path in op.set);

  it('is tried again, not taken for a concurrent caller’s write: no coup is dealt without them', async () => {
    // Found by the model-based test: a collision on the signing of the close of contributions was
    // read back as "signed by another", the round opened with neither receipt nor time-stamp, and
    // its coup could never be dealt.
    const core = stack.coreWith({ store });
    await core.walletTransaction(op, {
      playerId: 'q',
      type: 'CREDIT',
      amount: 10_000,
      currency: 'EUR',
      idempotencyKey: 'fund-q',
    });
    for (const path of ['contributionsClosed.head', 'contributionsClosed.anchor']) {
      // A shoe each: the close of its contributions is signed and time-stamped at its first round.
      const table = await core.createTable(adm, { name: `once ${path}`, variant: 'mini' });
      const { shoeId } = await core.openShoe(adm, { tableId: table.tableId });
      const before = store.collided;
      store.collideNext(1, setting(path));
      const { roundId } = await core.openRound(op, { tableId: table.tableId });
      expect(store.collided, `a write of ${path} collided`).toBe(before + 1);
      const shoe = (await stack.store.get('shoe', { shoeId }))!;
      expect(shoe.contributionsClosed?.head, 'the close is signed').toBeDefined();
      expect(shoe.contributionsClosed?.anchor, 'and time-stamped').toBeDefined();
      await core.placeBet(op, {
        roundId,
        playerId: 'q',
        bets: [{ type: 'BANKER', amount: 500 }],
        idempotencyKey: `bet-${path}`,
      });
      const collided = store.collided;
      store.collideNext(1, setting('betting.anchor'));
      const resolved = await core.resolveRound(op, { roundId });
      expect(store.collided, '"no va más"\'s time-stamp collided').toBe(collided + 1);
      expect(resolved.status).toBe('SETTLED');
      expect((await stack.store.get('round', { roundId }))?.betting?.anchor).toBeDefined();
      expect((await stack.core.checkShoeChain(op, { shoeId })).problems).toEqual([]);
    }
    store.collideNext(0);
  });
});
