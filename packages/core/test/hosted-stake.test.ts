/** The hosted stake source: a round's money as wallet updates and ledger entries in the position's transaction. */
import { betList, settle } from '@pyb/engine';
import { describe, expect, it } from 'vitest';
import { hostedStakeMoney } from '../src/rounds/hosted-stake';
import { hostedStakeCalls } from '../src/rounds/hosted-stake-calls';
import { stakeCallsOf, stakeMoneyOf, stakeMoneyOfPosition } from '../src/rounds/stake-sources';
import { DomainError } from '../src/shared/errors';
import { refundKey, settleKey } from '../src/shared/ledger-keys';
import type { WalletRecord } from '../src/shared/model';
import { newWallet } from '../src/wallet/wallet-ledger';
import { AT, CONFIG, PUNTO_WINS, partsOnPuntoWin, position, readOnlyCtx, round } from './stake-fixtures';

/** The player's wallet after his bet of 100: 900 left, two entries (genesis deposit and the bet). */
const wallet: WalletRecord = {
  ...newWallet('op-1', 'p-1', CONFIG.currency, AT),
  balance: 900,
  available: 900,
  seq: 2,
};
const walletKey = { operatorId: 'op-1', playerId: 'p-1' };

describe('hostedStakeMoney and hostedStakeCalls', () => {
  it('is chosen for an operator without a record, a hosted one, and a position without a wallet mark', () => {
    expect(stakeCallsOf(undefined)).toBe(hostedStakeCalls);
    expect(stakeMoneyOf(undefined)).toBe(hostedStakeMoney);
    expect(stakeCallsOf({ walletMode: 'hosted' })).toBe(hostedStakeCalls);
    expect(stakeMoneyOf({ walletMode: 'hosted' })).toBe(hostedStakeMoney);
    expect(stakeMoneyOfPosition(position())).toBe(hostedStakeMoney);
    expect(hostedStakeMoney.debtMark).toEqual({});
  });

  it('pays a winning position by one conditional wallet update and a ledger entry under its settle key', async () => {
    const { ctx } = readOnlyCtx({ wallet });
    const p = position();
    const settlement = settle(CONFIG, betList(p.bets), PUNTO_WINS);
    expect(settlement.payout).toBe(200);
    const parts = await hostedStakeMoney.settlementParts(ctx, {
      round,
      position: p,
      config: CONFIG,
      settlement,
      at: AT,
    });
    expect(parts?.seq).toBe(3);
    expect(parts?.outbox).toEqual([]);
    expect(parts?.ops).toHaveLength(2);
    expect(parts?.ops[0]).toMatchObject({
      kind: 'update',
      entity: 'wallet',
      key: walletKey,
      set: { balance: 1100, seq: 3 },
      expect: { seq: 2 },
    });
    expect(parts?.ops[1]).toMatchObject({
      kind: 'put',
      entity: 'ledger',
      key: { ...walletKey, key: settleKey('r-1', 'p-1') },
      item: { kind: 'PAYOUT', amount: 200, seq: 3, roundId: 'r-1' },
    });
  });

  it('moves no money (reads no wallet) for a losing position that holds no reserve', async () => {
    const { ctx, reads } = readOnlyCtx({ wallet });
    const p = position({ bets: { BANKER: 100 } });
    const parts = await partsOnPuntoWin(hostedStakeMoney, ctx, p);
    expect(parts).toEqual({ ops: [], outbox: [] });
    expect(reads).toEqual([]);
  });

  it('answers undefined when the movement no longer fits and the position was settled meanwhile', async () => {
    // The wallet as read cannot give back a reserve it no longer holds: a concurrent settler took it.
    const { ctx } = readOnlyCtx({ wallet, position: position({ settledAt: AT }) });
    const p = position({ bets: { BANKER: 100 }, reserve: 5 });
    const parts = await partsOnPuntoWin(hostedStakeMoney, ctx, p);
    expect(parts).toBeUndefined();
  });

  it('refunds the stake by a REFUND entry under the refund key, referencing the void reason', async () => {
    const { ctx } = readOnlyCtx({ wallet });
    const parts = await hostedStakeMoney.refundParts(ctx, { round, position: position(), at: AT });
    expect(parts?.seq).toBe(3);
    expect(parts?.ops[0]).toMatchObject({ entity: 'wallet', set: { balance: 1000 }, expect: { seq: 2 } });
    expect(parts?.ops[1]).toMatchObject({
      entity: 'ledger',
      key: { ...walletKey, key: refundKey('r-1', 'p-1') },
      item: { kind: 'REFUND', amount: 100, reference: 'MISDEAL' },
    });
  });

  it('refunds nothing for a position whose bets were all withdrawn', async () => {
    const { ctx, reads } = readOnlyCtx({ wallet });
    const parts = await hostedStakeMoney.refundParts(ctx, {
      round,
      position: position({ bets: {}, stake: 0 }),
      at: AT,
    });
    expect(parts).toEqual({ ops: [], outbox: [] });
    expect(reads).toEqual([]);
  });

  it('delivers nothing after the commit, and does not know a leaving player without a wallet', async () => {
    const { ctx, sent } = readOnlyCtx({});
    await hostedStakeMoney.afterCommit(ctx, []);
    expect(sent).toEqual([]);
    let thrown: unknown;
    try {
      hostedStakeMoney.leavingBalance(ctx, { operator: undefined, playerId: 'p-9', currency: 'EUR' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).kind).toBe('NOT_FOUND');
  });
});
