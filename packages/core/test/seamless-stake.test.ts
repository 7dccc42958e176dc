/** The seamless stake source: a round's money as credits to the operator's wallet, written with the position's transaction and delivered after it. */
import { betList, settle } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import { seamlessStakeMoney } from '../src/rounds/seamless-stake';
import { seamlessStakeCalls } from '../src/rounds/seamless-stake-calls';
import { stakeCallsOf, stakeMoneyOf, stakeMoneyOfPosition } from '../src/rounds/stake-sources';
import { creditTxIdOf } from '../src/seamless/tx';
import type { Ctx, Wallets } from '../src/shared';
import { DomainError } from '../src/shared/errors';
import type { OperatorRecord } from '../src/shared/model';
import { AT, CONFIG, PUNTO_WINS, partsOnPuntoWin, position, readOnlyCtx, round } from './stake-fixtures';

const DEFERRED = { ...CONFIG, commission: { ...CONFIG.commission, mode: 'DEFERRED' as const } };
const seamless = position({ wallet: 'seamless', calls: 2, debits: ['dbt_1', 'dbt_2'] });
const operator = { operatorId: 'op-1', walletMode: 'seamless' } as OperatorRecord;

describe('seamlessStakeMoney and seamlessStakeCalls', () => {
  it('is chosen for a seamless operator and for a position its stake was debited for', () => {
    expect(stakeCallsOf(operator)).toBe(seamlessStakeCalls);
    expect(stakeMoneyOf(operator)).toBe(seamlessStakeMoney);
    expect(stakeMoneyOfPosition(seamless)).toBe(seamlessStakeMoney);
    expect(seamlessStakeMoney.debtMark).toEqual({ wallet: 'seamless' });
  });

  it('pays a winning position by a PAYOUT credit in the outbox, numbered after its calls, reading nothing', async () => {
    const { ctx, reads } = readOnlyCtx({});
    const settlement = settle(CONFIG, betList(seamless.bets), PUNTO_WINS);
    const parts = await seamlessStakeMoney.settlementParts(ctx, {
      round,
      position: seamless,
      config: CONFIG,
      settlement,
      at: AT,
    });
    const txId = creditTxIdOf('r-1', 'p-1', 'PAYOUT');
    expect(parts).toEqual({
      seq: 3,
      ops: [
        expect.objectContaining({
          kind: 'put',
          entity: 'seamlessTx',
          key: { txId },
          item: expect.objectContaining({
            op: 'CREDIT',
            creditKind: 'PAYOUT',
            amount: 200,
            state: 'CREDIT_PENDING',
          }),
        }),
      ],
      outbox: [txId],
    });
    expect(reads).toEqual([]);
  });

  it('gives a lost Banca bet its commission reserve back, with no payout to number', async () => {
    const { ctx } = readOnlyCtx({});
    const p = position({ ...seamless, bets: { BANKER: 100 }, reserve: 5 });
    const settlement = settle(DEFERRED, betList(p.bets), PUNTO_WINS);
    expect(settlement.payout).toBe(0);
    const parts = await seamlessStakeMoney.settlementParts(ctx, {
      round,
      position: p,
      config: DEFERRED,
      settlement,
      at: AT,
    });
    const txId = creditTxIdOf('r-1', 'p-1', 'COMMISSION_RELEASE');
    expect(parts?.seq).toBeUndefined();
    expect(parts?.outbox).toEqual([txId]);
    expect(parts?.ops[0]).toMatchObject({
      item: { creditKind: 'COMMISSION_RELEASE', amount: 5, debitTxIds: ['dbt_1', 'dbt_2'] },
    });
  });

  it('moves nothing for a lost bet without a reserve', async () => {
    const { ctx } = readOnlyCtx({});
    const p = position({ ...seamless, bets: { BANKER: 100 } });
    const parts = await partsOnPuntoWin(seamlessStakeMoney, ctx, p);
    expect(parts).toEqual({ ops: [], outbox: [] });
  });

  it("refunds stake and reserve by one REFUND credit in the shoe's currency", async () => {
    const { ctx } = readOnlyCtx({ shoe: { shoeId: 's-1', config: { ...CONFIG, currency: 'USD' } } });
    const parts = await seamlessStakeMoney.refundParts(ctx, {
      round,
      position: { ...seamless, reserve: 5 },
      at: AT,
    });
    const txId = creditTxIdOf('r-1', 'p-1', 'REFUND');
    expect(parts?.seq).toBe(3);
    expect(parts?.outbox).toEqual([txId]);
    expect(parts?.ops[0]).toMatchObject({
      key: { txId },
      item: { creditKind: 'REFUND', amount: 105, currency: 'USD', commissionReserve: 5 },
    });
  });

  it('refunds nothing (reads nothing) for a position whose bets were all withdrawn', async () => {
    const { ctx, reads } = readOnlyCtx({});
    const parts = await seamlessStakeMoney.refundParts(ctx, {
      round,
      position: { ...seamless, bets: {}, stake: 0 },
      at: AT,
    });
    expect(parts).toEqual({ ops: [], outbox: [] });
    expect(reads).toEqual([]);
  });

  it('hands the credits to the outbox after the commit, and nothing when there are none', async () => {
    const { ctx, sent } = readOnlyCtx({});
    await seamlessStakeMoney.afterCommit(ctx, []);
    await seamlessStakeMoney.afterCommit(ctx, ['crd_a', 'crd_b']);
    expect(sent).toEqual([['crd_a', 'crd_b']]);
  });

  it("answers a leaving player's balance from the operator's wallet, only when asked, and 503 when it does not answer", async () => {
    const asked: unknown[] = [];
    const wallets =
      (answers: unknown[]): Wallets =>
      () =>
        ({
          balance: async (request: unknown) => {
            asked.push(request);
            return answers.shift();
          },
        }) as never;
    const { ctx } = readOnlyCtx({}, {
      wallets: wallets([{ outcome: 'OK', answer: { balance: 4321 } }, { outcome: 'UNKNOWN' }]),
    } as Partial<Ctx>);
    const balance = seamlessStakeMoney.leavingBalance(ctx, { operator, playerId: 'p-1', currency: 'EUR' });
    expect(asked).toEqual([]);
    expect(await balance()).toBe(4321);
    expect(asked).toEqual([{ playerId: 'p-1', currency: 'EUR' }]);
    const failed = await balance().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(DomainError);
    expect((failed as DomainError).code).toBe('WALLET_UNAVAILABLE');
  });
});
