/**
 * An operator's wallet mode (docs/seamless-wallet.md §10): set by platform-admin keys only, checked
 * (https, the operator's own secret), idempotent by content, every change recorded (who, when, old →
 * new), refused while a round holds bets or — leaving seamless — a recent seamless transaction is not
 * final; and a switch to hosted keeps the wallet, so a container that has not seen the switch yet
 * still gets its credits delivered.
 */
import {
  type Core,
  creditTxIdOf,
  DomainError,
  InProcessOutboxQueue,
  type SeamlessTxRecord,
  TransactionCanceled,
} from '@pyb/core';
import { SeamlessWalletClient } from '@pyb/seamless-wallet';
import { ReferenceWallet } from '@pyb/seamless-wallet/reference-wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, platformAdmin, regulator } from '../support/actors';
import { codeOf } from '../support/game';
import { WALLET_DEADLINE_MS } from '../support/seamless';
import { createTestStack, type TestStack } from '../support/stack';

const SECRET = 'operator-wallet-test-secret-0123456789';
let stack: TestStack;
let wallet: ReferenceWallet;
const platform = platformAdmin();

beforeAll(async () => {
  stack = await createTestStack('opwallet');
  wallet = await ReferenceWallet.start({ secrets: [SECRET] });
});
afterAll(async () => {
  await wallet?.close();
  await stack?.cleanup();
});

let operators = 0;
const newOperator = () => `opw-${++operators}`;
const seamless = (operatorId: string, baseUrl = wallet.url, secretRef = 'env:OPW_SECRET') => ({
  operatorId,
  walletMode: 'seamless' as const,
  seamless: { baseUrl, secretRef },
});
const hosted = (operatorId: string) => ({ operatorId, walletMode: 'hosted' as const });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function tableOf(core: Core, operatorId: string) {
  const table = await core.createTable(admin(operatorId), { name: 'Switch', variant: 'mini' });
  await core.openShoe(admin(operatorId), { tableId: table.tableId });
  return table.tableId;
}

describe("an operator's wallet mode", () => {
  it("is set by platform-admin keys only; the operator's keys and its regulators read it", async () => {
    const { core } = stack;
    const op = newOperator();
    expect(await core.getOperatorWallet(operator(op), { operatorId: op })).toEqual({
      operatorId: op,
      walletMode: 'hosted',
      updatedAt: null,
      effectiveBy: null,
      changes: [],
    });
    // The operator's own admin key may not: the mode decides where its players' money is.
    expect(await codeOf(core.setOperatorWallet(admin(op), seamless(op)))).toBe('PLATFORM_ADMIN_REQUIRED');
    expect(await codeOf(core.setOperatorWallet(operator(op), seamless(op)))).toBe('PLATFORM_ADMIN_REQUIRED');
    // A platform flag on another role counts for nothing.
    expect(await codeOf(core.setOperatorWallet({ ...operator(op), platform: true }, seamless(op)))).toBe(
      'PLATFORM_ADMIN_REQUIRED',
    );
    const set = await core.setOperatorWallet(platform, seamless(op));
    expect(set).toMatchObject({ operatorId: op, walletMode: 'seamless', seamless: seamless(op).seamless });
    expect(Date.parse(set.effectiveBy!) - Date.parse(set.updatedAt!)).toBe(60_000);
    for (const reader of [operator(op), admin(op), regulator(op), platform])
      expect(await core.getOperatorWallet(reader, { operatorId: op })).toEqual(set);
    // Another tenant, or a regulator of others, sees no such operator.
    expect(await codeOf(core.getOperatorWallet(admin('opw-other'), { operatorId: op }))).toBe(
      'OPERATOR_NOT_FOUND',
    );
    expect(await codeOf(core.getOperatorWallet(regulator('opw-other'), { operatorId: op }))).toBe(
      'OPERATOR_NOT_FOUND',
    );
  });

  it("takes an https wallet and the operator's own secret, nothing else", async () => {
    const { core } = stack;
    const op = newOperator();
    const bad = [
      seamless(op, 'http://wallet.casino.example/pyb', `pyb-prod/seamless/${op}`), // plain http, not loopback
      seamless(op, 'ftp://wallet.casino.example/pyb', `pyb-prod/seamless/${op}`),
      seamless(op, 'https://wallet.casino.example/pyb/', `pyb-prod/seamless/${op}`), // trailing slash
      seamless(op, 'https://user:pw@wallet.casino.example/pyb', `pyb-prod/seamless/${op}`),
      seamless(op, 'https://wallet.casino.example/pyb?x=1', `pyb-prod/seamless/${op}`),
      seamless(op, 'not a url', `pyb-prod/seamless/${op}`),
      seamless(op, 'https://wallet.casino.example/pyb', 'env:OPW_SECRET'), // env: is the local stack's
      seamless(op, 'https://wallet.casino.example/pyb', 'pyb-prod/seamless/another-op'), // another's secret
      seamless(op, 'https://wallet.casino.example/pyb', `pyb-prod/seamless/${op}-x`),
      seamless(
        op,
        'https://wallet.casino.example/pyb',
        'arn:aws:secretsmanager:eu-west-1:123456789012:secret:pyb-prod/seamless/another-op-AbCdEf',
      ),
      seamless(op, 'https://wallet.casino.example/pyb', 'a secret with spaces'),
      { operatorId: op, walletMode: 'seamless' as const },
    ];
    for (const input of bad) {
      const error = await refusal(core.setOperatorWallet(platform, input));
      expect([error.code, error.kind], JSON.stringify(input)).toEqual(['SEAMLESS_CONFIG_INVALID', 'INVALID']);
    }
    expect(
      await codeOf(core.setOperatorWallet(platform, { ...hosted(op), walletMode: 'cash' as never })),
    ).toBe('INVALID_INPUT');
    expect(await codeOf(core.setOperatorWallet(platform, hosted('Not An Id')))).toBe('OPERATOR_ID_INVALID');
    expect((await core.getOperatorWallet(platform, { operatorId: op })).changes).toEqual([]);
    // A name or an ARN (with the suffix Secrets Manager appends) of the operator's own secret.
    const arn = `arn:aws:secretsmanager:eu-west-1:123456789012:secret:pyb-prod/seamless/${op}-AbCdEf`;
    for (const secretRef of [`pyb-prod/seamless/${op}`, arn, `seamless/${op}`]) {
      const view = await core.setOperatorWallet(
        platform,
        seamless(op, 'https://wallet.casino.example/pyb', secretRef),
      );
      expect(view.seamless).toEqual({ baseUrl: 'https://wallet.casino.example/pyb', secretRef });
    }
  });

  it('changes nothing when asked for what it is, and records each change: who, when, old → new', async () => {
    const { core } = stack;
    const op = newOperator();
    // Hosted and never set: nothing to write.
    expect((await core.setOperatorWallet(platform, hosted(op))).updatedAt).toBeNull();
    const first = await core.setOperatorWallet(platform, seamless(op));
    expect(await core.setOperatorWallet(platform, seamless(op))).toEqual(first);
    const moved = await core.setOperatorWallet(platform, seamless(op, 'http://127.0.0.1:1/pyb'));
    const back = await core.setOperatorWallet(platform, hosted(op));
    expect(await core.setOperatorWallet(platform, hosted(op))).toEqual(back);
    expect(back.changes).toEqual([
      {
        seq: 0,
        at: first.updatedAt,
        by: { role: 'admin', operatorId: 'platform', keyId: 'key-platform' },
        from: { walletMode: 'hosted' },
        to: { walletMode: 'seamless', seamless: seamless(op).seamless },
      },
      {
        seq: 1,
        at: moved.updatedAt,
        by: { role: 'admin', operatorId: 'platform', keyId: 'key-platform' },
        from: { walletMode: 'seamless', seamless: seamless(op).seamless },
        to: {
          walletMode: 'seamless',
          seamless: { baseUrl: 'http://127.0.0.1:1/pyb', secretRef: 'env:OPW_SECRET' },
        },
      },
      {
        seq: 2,
        at: back.updatedAt,
        by: { role: 'admin', operatorId: 'platform', keyId: 'key-platform' },
        from: {
          walletMode: 'seamless',
          seamless: { baseUrl: 'http://127.0.0.1:1/pyb', secretRef: 'env:OPW_SECRET' },
        },
        // Leaving seamless keeps the wallet: late credits and rollbacks are still delivered to it.
        to: {
          walletMode: 'hosted',
          seamless: { baseUrl: 'http://127.0.0.1:1/pyb', secretRef: 'env:OPW_SECRET' },
        },
      },
    ]);
    // The audit table's events are written once.
    const events = await stack.store.listOperatorEvents(op);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2]);
    await expect(
      stack.store.transact([
        { kind: 'put', entity: 'operatorEvent', key: { operatorId: op, seq: 1 }, item: events[1]! },
      ]),
    ).rejects.toBeInstanceOf(TransactionCanceled);
  });

  it('refuses to change the mode while a round holds bets; a round without bets does not block', async () => {
    const { core } = stack;
    const op = newOperator();
    const tableId = await tableOf(core, op);
    await core.walletTransaction(admin(op), {
      playerId: 'p1',
      type: 'CREDIT',
      amount: 10_000,
      currency: 'EUR',
      idempotencyKey: 'fund',
    });
    const round = await core.openRound(operator(op), { tableId });
    // An open round without bets: nothing to cut through.
    await core.setOperatorWallet(platform, seamless(op));
    await core.setOperatorWallet(platform, hosted(op));
    await core.placeBet(operator(op), {
      roundId: round.roundId,
      playerId: 'p1',
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: 'b1',
    });
    const busy = await refusal(core.setOperatorWallet(platform, seamless(op)));
    expect([busy.code, busy.kind, busy.details]).toEqual([
      'OPERATOR_WALLET_BUSY',
      'CONFLICT',
      { rounds: [round.roundId], pendingTransactions: [] },
    ]);
    expect(busy.message).toContain(round.roundId);
    expect((await core.getOperatorWallet(platform, { operatorId: op })).walletMode).toBe('hosted');
    await core.resolveRound(operator(op), { roundId: round.roundId });
    expect((await core.setOperatorWallet(platform, seamless(op))).walletMode).toBe('seamless');
  });

  it('leaving seamless, waits until the recent seamless transactions are final', async () => {
    const { core } = stack;
    const op = newOperator();
    await core.setOperatorWallet(platform, seamless(op));
    const at = stack.clock.now().toISOString();
    const tx: SeamlessTxRecord = {
      txId: `crd_${'a'.repeat(40)}`,
      op: 'CREDIT',
      creditKind: 'PAYOUT',
      operatorId: op,
      playerId: 'p1',
      currency: 'EUR',
      amount: 1_950,
      roundId: 'rnd_pending',
      tableId: 'tbl_pending',
      betRef: 'ref',
      state: 'CREDIT_PENDING',
      attempts: 1,
      createdAt: at,
      updatedAt: at,
    };
    await stack.store.transact([{ kind: 'put', entity: 'seamlessTx', key: { txId: tx.txId }, item: tx }]);
    const busy = await refusal(core.setOperatorWallet(platform, hosted(op)));
    expect([busy.code, busy.details]).toEqual([
      'OPERATOR_WALLET_BUSY',
      { rounds: [], pendingTransactions: [tx.txId] },
    ]);
    // Pending does not block a new wallet URL (the delivery goes to the new one).
    await core.setOperatorWallet(platform, seamless(op, 'http://127.0.0.1:3/pyb'));
    await stack.store.transact([
      {
        kind: 'update',
        entity: 'seamlessTx',
        key: { txId: tx.txId },
        set: { state: 'CREDITED', resolvedAt: at },
      },
    ]);
    expect((await core.setOperatorWallet(platform, hosted(op))).walletMode).toBe('hosted');
  });
});

describe('a switch to hosted while a container still thinks seamless', () => {
  it("delivers that container's seamless refunds to the wallet the record kept", async () => {
    const op = newOperator();
    const outbox = new InProcessOutboxQueue({ retryDelayMs: 5, maxRetryDelayMs: 40, maxReceives: 10 });
    // Two containers: each its own operator cache (they see a switch within 60 s, not at once).
    const container = () =>
      stack.coreWith({
        outboxQueue: outbox,
        wallets: (o) =>
          new SeamlessWalletClient({
            baseUrl: o.seamless!.baseUrl,
            secrets: { current: SECRET },
            timeoutMs: WALLET_DEADLINE_MS,
          }),
      });
    const switcher = container();
    const stale = container();
    outbox.attach(async (txId) => {
      await switcher.deliverSeamlessTx(txId);
    });
    await switcher.setOperatorWallet(platform, seamless(op));
    const tableId = await tableOf(switcher, op);
    wallet.fund('late-1', 'EUR', 10_000);
    // The stale container reads the record (seamless) with its first bet, and keeps it for 60 s.
    const first = await switcher.openRound(operator(op), { tableId });
    await stale.placeBet(operator(op), {
      roundId: first.roundId,
      playerId: 'late-1',
      bets: [{ type: 'BANKER', amount: 1_000 }],
      idempotencyKey: 'first',
    });
    // A round holds bets: another wallet URL or secret is allowed (no change of mode), hosted is not.
    await switcher.setOperatorWallet(platform, seamless(op, wallet.url, 'env:OPW_SECRET_NEXT'));
    expect((await refusal(switcher.setOperatorWallet(platform, hosted(op)))).details).toEqual({
      rounds: [first.roundId],
      pendingTransactions: [],
    });
    await switcher.setOperatorWallet(platform, seamless(op));
    await switcher.voidRound(operator(op), { roundId: first.roundId, reason: 'EXPOSED_CARD' });
    await outbox.idle();
    expect(wallet.balanceOf('late-1')).toBe(10_000);
    const round = await switcher.openRound(operator(op), { tableId });
    const view = await switcher.setOperatorWallet(platform, hosted(op));
    expect(view).toMatchObject({ walletMode: 'hosted', seamless: seamless(op).seamless });
    // Within its 60 s, the stale container still takes a seamless bet …
    const bet = await stale.placeBet(operator(op), {
      roundId: round.roundId,
      playerId: 'late-1',
      bets: [{ type: 'BANKER', amount: 2_500 }],
      idempotencyKey: 'late',
    });
    expect(bet.balance).toBe(7_500);
    // … and its refund, written after the switch, is still delivered to the operator's wallet.
    await switcher.voidRound(operator(op), { roundId: round.roundId, reason: 'EXPOSED_CARD' });
    await outbox.idle();
    expect(outbox.deadLetters).toEqual([]);
    expect(wallet.balanceOf('late-1')).toBe(10_000);
    expect(
      await stack.store.get('seamlessTx', { txId: creditTxIdOf(round.roundId, 'late-1', 'REFUND') }),
    ).toMatchObject({ state: 'CREDITED', amount: 2_500 });
  });
});
