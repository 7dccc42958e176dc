/**
 * Done-when: concurrency, idempotency and crashes never lose or double a cent (DynamoDB Local).
 */
import type { Core, PlaceBetInput, RoundView } from '@pyb/core';
import { type Bet, settle, type TableConfig, tablePreset } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { CrashingStore, InjectedCrash } from '../support/faulty-store';
import { fundPlayers } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('conc');
});
afterAll(() => stack?.cleanup());

const op = operator();
const overrides = {
  pairBets: true,
  limits: {
    TIE: { min: 100, max: 100_000 },
    PLAYER: { min: 100, max: 100_000 },
    BANKER: { min: 100, max: 100_000 },
  },
};
const config: TableConfig = tablePreset('mini', overrides);

/** A table with a shoe in play; returns its id. */
async function tableInPlay(name: string): Promise<string> {
  const table = await stack.core.createTable(admin(), { name, variant: 'mini', config: overrides });
  await stack.core.openShoe(admin(), { tableId: table.tableId });
  return table.tableId;
}

const fund = (playerId: string, amount: number) => fundPlayers(stack.core, op, [playerId], amount);

const balance = async (playerId: string) => (await stack.core.getWallet(op, { playerId })).balance;

describe('concurrent bets from one wallet', () => {
  it('accepts exactly as many as the balance covers (50 bets, covers 10)', async () => {
    const tableId = await tableInPlay('fifty');
    await fund('spender', 1_000);
    const round = await stack.core.openRound(op, { tableId });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        stack.core.placeBet(op, {
          roundId: round.roundId,
          playerId: 'spender',
          bets: [{ type: 'TIE', amount: 100 }],
          idempotencyKey: `tie-${i}`,
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toHaveLength(10);
    expect(new Set(refused.map((r) => r.reason.code))).toEqual(new Set(['INSUFFICIENT_FUNDS']));
    const wallet = await stack.core.getWallet(op, { playerId: 'spender' });
    expect(wallet.balance).toBe(0);
    expect(wallet.available).toBe(0);
    const view = await stack.core.getRound(op, { roundId: round.roundId });
    expect(view.positions).toHaveLength(1);
    expect(view.positions[0]!.stake).toBe(1_000);
    const ledger = await wholeLedger(stack.core, op, 'spender');
    expect(ledger.map((e) => e.kind)).toEqual(['CREDIT', ...Array(10).fill('BET')]);
    expect(ledger.every((e) => e.balanceAfter >= 0)).toBe(true);
    expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(0);
  });
});

describe('idempotency keys', () => {
  it('20 concurrent requests with one key place one bet; the same key with another body is refused', async () => {
    const tableId = await tableInPlay('twenty');
    await fund('retrier', 50_000);
    const round = await stack.core.openRound(op, { tableId });
    const bet: PlaceBetInput = {
      roundId: round.roundId,
      playerId: 'retrier',
      bets: [{ type: 'PLAYER', amount: 2_500 }],
      idempotencyKey: 'same-key',
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => stack.core.placeBet(op, bet)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.seq)).size).toBe(1);
    expect(new Set(results.map((r) => r.balance))).toEqual(new Set([47_500]));
    expect(await balance('retrier')).toBe(47_500);
    const view = await stack.core.getRound(op, { roundId: round.roundId });
    expect(view.positions[0]!.stake).toBe(2_500);

    expect(await codeOf(stack.core.placeBet(op, { ...bet, bets: [{ type: 'PLAYER', amount: 5_000 }] }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await codeOf(stack.core.placeBet(op, { ...bet, bets: [{ type: 'TIE', amount: 2_500 }] }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(
      await codeOf(
        stack.core.walletTransaction(op, {
          playerId: 'retrier',
          type: 'CREDIT',
          amount: 1,
          currency: 'EUR',
          idempotencyKey: 'same-key',
        }),
      ),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await balance('retrier')).toBe(47_500);
    // Keys are scoped per player: another player may use the same key.
    await fund('other', 10_000);
    const other = await stack.core.placeBet(op, { ...bet, playerId: 'other' });
    expect(other.replayed).toBe(false);
  });

  it('operator credits and debits are idempotent too, and a debit never takes the balance below zero', async () => {
    await fund('cashier', 1_000);
    const debit = {
      playerId: 'cashier',
      type: 'DEBIT' as const,
      amount: 400,
      currency: 'EUR',
      idempotencyKey: 'withdraw-1',
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => stack.core.walletTransaction(op, debit)),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await balance('cashier')).toBe(600);
    const drains = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        stack.core.walletTransaction(op, { ...debit, idempotencyKey: `drain-${i}` }),
      ),
    );
    expect(drains.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await balance('cashier')).toBe(200);
    expect(
      await codeOf(stack.core.walletTransaction(op, { ...debit, currency: 'USD', idempotencyKey: 'usd' })),
    ).toBe('CURRENCY_MISMATCH');
  });
});

/** A round with six players on all sides of the table, betting still open. */
async function roundWithBets(
  name: string,
): Promise<{ roundId: string; bets: Map<string, Bet[]>; start: Map<string, number> }> {
  const tableId = await tableInPlay(name);
  const round = await stack.core.openRound(op, { tableId });
  const bets = new Map<string, Bet[]>([
    ['p1', [{ type: 'PLAYER', amount: 1_000 }]],
    ['p2', [{ type: 'BANKER', amount: 1_500 }]],
    ['p3', [{ type: 'TIE', amount: 300 }]],
    [
      'p4',
      [
        { type: 'PLAYER', amount: 700 },
        { type: 'PLAYER_PAIR', amount: 200 },
      ],
    ],
    [
      'p5',
      [
        { type: 'BANKER', amount: 2_100 },
        { type: 'TIE', amount: 100 },
        { type: 'BANKER_PAIR', amount: 100 },
      ],
    ],
    [
      'p6',
      [
        { type: 'PLAYER_PAIR', amount: 500 },
        { type: 'BANKER_PAIR', amount: 500 },
      ],
    ],
  ]);
  const start = new Map<string, number>();
  for (const [playerId, position] of bets) {
    const id = `${name}-${playerId}`;
    await fund(id, 100_000);
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId: id,
      bets: position,
      idempotencyKey: `bet-${id}`,
    });
    start.set(id, 100_000);
  }
  return { roundId: round.roundId, bets: new Map([...bets].map(([p, b]) => [`${name}-${p}`, b])), start };
}

/** Each wallet: start − stake + the engine's payout for the dealt coup, one PAYOUT entry at most. */
async function expectPaidOnce(
  core: Core,
  view: RoundView,
  bets: Map<string, Bet[]>,
  start: Map<string, number>,
) {
  const round = await core.getRound(op, { roundId: view.roundId });
  expect(round.status).toBe('SETTLED');
  const stored = await stack.store.get('round', { roundId: view.roundId });
  for (const [playerId, position] of bets) {
    const s = settle(config, position, stored!.coup!.result);
    expect(await balance(playerId), playerId).toBe(start.get(playerId)! - s.stake + s.payout);
    const ledger = await wholeLedger(core, op, playerId);
    const payouts = ledger.filter((e) => e.kind === 'PAYOUT' && e.roundId === view.roundId);
    expect(payouts).toHaveLength(s.payout > 0 ? 1 : 0);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(await balance(playerId));
  }
  const audit = await stack.store.listAudit(stored!.shoeId);
  const events = audit.filter((e) => e.roundId === view.roundId).map((e) => e.type);
  expect(events).toEqual(['ROUND_OPENED', 'BETTING_CLOSED', 'COUP_DEALT', 'ROUND_SETTLED']);
  const report = await core.checkShoeChain(op, { shoeId: stored!.shoeId });
  expect(report.problems).toEqual([]);
}

describe('resolving', () => {
  it('two concurrent resolves give one outcome and pay each position once', async () => {
    const { roundId, bets, start } = await roundWithBets('twice');
    // Two separate instances, like two Lambda containers.
    const [a, b] = await Promise.all([
      stack.coreWith({}).resolveRound(op, { roundId }),
      stack.coreWith({}).resolveRound(op, { roundId }),
    ]);
    expect(a.result).toEqual(b.result);
    expect(a.positions).toEqual(b.positions);
    await expectPaidOnce(stack.core, a, bets, start);
  });

  for (const when of ['before-write', 'after-write'] as const) {
    it(`finishes a settlement that crashed (${when}) and pays everything exactly once`, async () => {
      const { roundId, bets, start } = await roundWithBets(`crash-${when}`);
      const crashing = new CrashingStore(stack.store, 2, when);
      await expect(
        stack.coreWith({ store: crashing, settleConcurrency: 2 }).resolveRound(op, { roundId }),
      ).rejects.toBeInstanceOf(InjectedCrash);
      expect(crashing.crashed).toBe(true);
      const stuck = await stack.core.getRound(op, { roundId });
      expect(stuck.status).toBe('DEALT');
      expect(stuck.positions.filter((p) => p.status === 'SETTLED').length).toBe(
        when === 'after-write' ? 3 : 2,
      );
      // A fresh process resumes.
      const resumed = await stack.coreWith({}).resolveRound(op, { roundId });
      expect(resumed.status).toBe('SETTLED');
      expect(resumed.result?.winner).toBe(stuck.result?.winner);
      await expectPaidOnce(stack.core, resumed, bets, start);
      // And resolving again changes nothing.
      await stack.core.resolveRound(op, { roundId });
      await expectPaidOnce(stack.core, resumed, bets, start);
    });
  }
});
