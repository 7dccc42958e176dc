import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { createTestStack, type TestStack } from '../support/dynamodb';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('smoke');
});
afterAll(() => stack?.cleanup());

describe('smoke', () => {
  it('plays one round', async () => {
    const { core } = stack;
    const op = operator();
    const table = await core.createTable(admin(), { name: 'Mini 1', variant: 'mini' });
    await core.walletTransaction(op, {
      playerId: 'p1',
      type: 'CREDIT',
      amount: 10_000,
      currency: 'EUR',
      idempotencyKey: 'c1',
    });
    const shoe = await core.openShoe(admin(), { tableId: table.tableId });
    const round = await core.openRound(op, { tableId: table.tableId, clientSeed: 'hello' });
    const bet = await core.placeBet(op, {
      roundId: round.roundId,
      playerId: 'p1',
      bets: [{ type: 'BANKER', amount: 1000 }],
      idempotencyKey: 'b1',
    });
    expect(bet.balance).toBe(9000);
    const resolved = await core.resolveRound(op, { roundId: round.roundId });
    console.log(JSON.stringify(resolved.result?.winner), resolved.positions);
    const wallet = await core.getWallet(op, { playerId: 'p1' });
    console.log(wallet);
    const report = await core.checkShoeChain(op, { shoeId: shoe.shoeId });
    console.log(report);
    const closed = await core.closeShoe(admin(), { shoeId: shoe.shoeId });
    console.log(closed.status);
    console.log(await core.checkShoeChain(op, { shoeId: shoe.shoeId }));
  });
});
