/**
 * Two callers finishing the same round, interleaved at the worst moment: the second has read a
 * position as still open, then reads the wallet only after the first has paid or refunded it (and
 * released its reserve). It must see the position is done, not refuse for lack of funds, and nothing
 * may be paid twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { bancaWinsFirst, openRoundDealing, PINNED_V2 } from '../support/dealt';
import { InterleavingStore } from '../support/faulty-store';
import { fundedPlayer } from '../support/fixture';
import { wholeLedger } from '../support/game';
import { deterministicSeeds } from '../support/keys';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('interleave', PINNED_V2);
});
afterAll(() => stack?.cleanup());

const op = operator();

/** A DEFERRED table (so a BANKER bet holds a reserve) with one round and two players' bets in it. */
async function roundWithBets() {
  const core = stack.core;
  const table = await core.createTable(admin(), {
    name: 'T',
    variant: 'mini',
    config: { commission: { mode: 'DEFERRED' } },
  });
  await core.openShoe(admin(), { tableId: table.tableId });
  const round = await core.openRound(op, { tableId: table.tableId, clientSeed: 'interleave' });
  const players: string[] = [];
  for (const bets of [
    [{ type: 'BANKER' as const, amount: 5_000 }],
    [{ type: 'PLAYER' as const, amount: 600 }],
  ]) {
    const playerId = await fundedPlayer(core, op, { prefix: 'il', amount: 10_000 });
    await core.placeBet(op, { roundId: round.roundId, playerId, bets, idempotencyKey: `bet-${playerId}` });
    players.push(playerId);
  }
  return { round, players };
}

describe('a second caller that read a position just before the first one finished it', () => {
  it('void: refunds each stake once and releases each reserve once', async () => {
    const { round, players } = await roundWithBets();
    const first = () => stack.core.voidRound(op, { roundId: round.roundId, reason: 'MISDEAL' });
    const late = stack.coreWith({ store: new InterleavingStore(stack.store, first) });
    const view = await late.voidRound(op, { roundId: round.roundId, reason: 'MISDEAL' });
    expect(view.status).toBe('VOIDED');
    for (const playerId of players) {
      const wallet = await stack.core.getWallet(op, { playerId });
      expect([wallet.balance, wallet.reserved, wallet.available]).toEqual([10_000, 0, 10_000]);
      const refunds = (await wholeLedger(stack.core, op, playerId)).filter((e) => e.kind === 'REFUND');
      expect(refunds).toHaveLength(1);
    }
  });

  it('resolve: pays each position once and releases each reserve once', async () => {
    const { round, players } = await roundWithBets();
    const first = () => stack.core.resolveRound(op, { roundId: round.roundId });
    const late = stack.coreWith({ store: new InterleavingStore(stack.store, first) });
    const view = await late.resolveRound(op, { roundId: round.roundId });
    expect(view.status).toBe('SETTLED');
    for (const playerId of players) {
      const wallet = await stack.core.getWallet(op, { playerId });
      expect(wallet.reserved).toBe(0);
      const ledger = await wholeLedger(stack.core, op, playerId);
      expect(ledger.filter((e) => e.kind === 'PAYOUT').length).toBeLessThanOrEqual(1);
      expect(wallet.balance).toBe(ledger.reduce((sum, e) => sum + e.amount, 0));
    }
  });

  it('leave, on a shoe dealt to open on a Banca win: collects the deferred commission once', async () => {
    let n = 0;
    const deps = {
      keys: deterministicSeeds(stack.keys, 'interleave-leave'),
      ids: { next: (prefix: string) => `${prefix}_${String(++n).padStart(12, '0')}` },
    };
    const core = stack.coreWith(deps);
    const table = await core.createTable(admin(), {
      name: 'T',
      variant: 'mini',
      config: { commission: { mode: 'DEFERRED' } },
    });
    await core.openShoe(admin(), { tableId: table.tableId });
    const playerId = await fundedPlayer(core, op, { prefix: 'il', amount: 100_000 });
    // One coup: the player's Banca bet wins it, so he owes its commission.
    const { round } = await openRoundDealing(stack, op, {
      tableId: table.tableId,
      deps,
      deals: bancaWinsFirst,
    });
    const bets = [{ type: 'BANKER' as const, amount: 1_000 }];
    await core.placeBet(op, { roundId: round.roundId, playerId, bets, idempotencyKey: 'bet-1' });
    await core.resolveRound(op, { roundId: round.roundId });
    const before = await core.getWallet(op, { playerId });
    expect(before.commissionOwed).toBe(50);
    let first = -1;
    const leave = async () => {
      first = (await core.leaveTable(op, { tableId: table.tableId, playerId })).commissionCollected;
    };
    const late = stack.coreWith({ ...deps, store: new InterleavingStore(stack.store, leave) });
    const second = await late.leaveTable(op, { tableId: table.tableId, playerId });
    expect([first, second.commissionCollected]).toEqual([before.commissionOwed, 0]);
    const after = await core.getWallet(op, { playerId });
    expect([after.balance, after.commissionOwed]).toEqual([before.balance - before.commissionOwed, 0]);
    const collections = (await wholeLedger(core, op, playerId)).filter((e) => e.kind === 'COMMISSION');
    expect(collections).toHaveLength(1);
  });
});

describe('a retry that reads the wallet just after the first call with its key committed', () => {
  const wallet = (amount: number) => fundedPlayer(stack.core, op, { prefix: 'il', amount });

  it('debit: is answered with the first result, not refused for the money the first took', async () => {
    const playerId = await wallet(1_000);
    const debit = {
      playerId,
      type: 'DEBIT' as const,
      amount: 800,
      currency: 'EUR',
      idempotencyKey: 'cash-out',
    };
    let first: Awaited<ReturnType<typeof stack.core.walletTransaction>> | undefined;
    const late = stack.coreWith({
      store: new InterleavingStore(stack.store, async () => {
        first = await stack.core.walletTransaction(op, debit);
      }),
    });
    const retry = await late.walletTransaction(op, debit);
    expect(retry.replayed).toBe(true);
    expect(retry.entry).toEqual(first!.entry);
    expect((await stack.core.getWallet(op, { playerId })).balance).toBe(200);
  });

  it('bet: is answered with the first result, not refused for the money the first took', async () => {
    const { round } = await roundWithBets();
    const playerId = await wallet(1_000);
    const bet = {
      roundId: round.roundId,
      playerId,
      bets: [{ type: 'BANKER' as const, amount: 800 }],
      idempotencyKey: 'bet-once',
    };
    let first: Awaited<ReturnType<typeof stack.core.placeBet>> | undefined;
    const late = stack.coreWith({
      store: new InterleavingStore(stack.store, async () => {
        first = await stack.core.placeBet(op, bet);
      }),
    });
    const retry = await late.placeBet(op, bet);
    expect(retry.replayed).toBe(true);
    expect(retry.entry).toEqual(first!.entry);
    const after = await stack.core.getWallet(op, { playerId });
    expect([after.balance, after.reserved]).toEqual([200, 40]);
  });
});
