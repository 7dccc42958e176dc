import { verifyChain } from '@pyb/fairness';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../src/shared/errors';
import type { LedgerEntry, WalletRecord } from '../src/shared/model';
import {
  ledgerBody,
  type Movement,
  newWallet,
  planMovement,
  walletGenesis,
} from '../src/wallet/wallet-ledger';

const movement = fc.record({
  amount: fc.integer({ min: -5_000, max: 5_000 }),
  owed: fc.integer({ min: -300, max: 300 }),
  reserved: fc.integer({ min: -300, max: 300 }),
});

describe('wallet movements', () => {
  it('keep the balance equal to the ledger sum, never let available go negative, and chain the ledger', () => {
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 60 }), (moves) => {
        let wallet: WalletRecord = newWallet('op', 'p', 'EUR', '2025-01-01T00:00:00.000Z');
        const entries: LedgerEntry[] = [];
        for (const [i, m] of moves.entries()) {
          const next = {
            balance: wallet.balance + m.amount,
            owed: wallet.owed + m.owed,
            reserved: wallet.reserved + m.reserved,
          };
          const allowed =
            next.balance >= 0 &&
            next.owed >= 0 &&
            next.reserved >= 0 &&
            next.balance - next.owed - next.reserved >= 0;
          const plan = (): ReturnType<typeof planMovement> =>
            planMovement(
              wallet,
              { kind: 'CREDIT', key: `c:${i}`, requestHash: 'h', at: 't', ...m } satisfies Movement,
              wallet.seq === 0,
            );
          if (!allowed) {
            expect(plan).toThrow(DomainError);
            continue;
          }
          const { entry, wallet: after, ops } = plan();
          expect(ops[0]!.kind).toBe(wallet.seq === 0 ? 'put' : 'update');
          if (ops[0]!.kind === 'update') expect(ops[0]!.expect).toMatchObject({ seq: wallet.seq });
          expect(entry.balanceBefore).toBe(wallet.balance);
          expect(entry.balanceAfter).toBe(after.balance);
          wallet = after;
          entries.push(entry);
        }
        expect(wallet.balance).toBe(entries.reduce((s, e) => s + e.amount, 0));
        expect(wallet.available).toBe(wallet.balance - wallet.owed - wallet.reserved);
        expect(wallet.available).toBeGreaterThanOrEqual(0);
        expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
        const chain = verifyChain(
          entries.map((e) => ({ hash: e.hash, prevHash: e.prevHash, event: ledgerBody(e) })),
          walletGenesis('op', 'p'),
        );
        expect(chain.ok).toBe(true);
      }),
    );
  });

  it('refuses a debit beyond what is available, with the amounts', () => {
    const wallet = {
      ...newWallet('op', 'p', 'EUR', 't'),
      balance: 1_000,
      owed: 300,
      reserved: 200,
      available: 500,
      seq: 3,
    };
    try {
      planMovement(wallet, { kind: 'DEBIT', key: 'c:x', requestHash: 'h', amount: -501, at: 't' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { available: 500, needed: 501 } });
    }
    const ok = planMovement(wallet, { kind: 'DEBIT', key: 'c:y', requestHash: 'h', amount: -500, at: 't' });
    expect(ok.ops[0]).toMatchObject({ kind: 'update', expect: { seq: 3, available: { gte: 500 } } });
  });

  it('keeps a movement outside rounds by time too; a round movement (a bet) writes nothing more', () => {
    const wallet = { ...newWallet('op', 'p', 'EUR', 't'), balance: 1_000, available: 1_000, seq: 3 };
    const at = '2026-12-01T10:00:00.000Z';
    const credit = planMovement(wallet, { kind: 'CREDIT', key: 'c:c', requestHash: 'h', amount: 5, at });
    expect(credit.ops.map((o) => o.entity)).toEqual(['wallet', 'ledger', 'movement']);
    expect(credit.ops[2]).toEqual({
      kind: 'put',
      entity: 'movement',
      key: { operatorId: 'op', playerId: 'p', at, seq: 4 },
      item: credit.entry,
    });
    const bet = planMovement(wallet, {
      kind: 'BET',
      key: 'c:b',
      requestHash: 'h',
      amount: -5,
      roundId: 'r1',
      shoeId: 's1',
      tableId: 't1',
      at,
    });
    expect(bet.ops.map((o) => o.entity)).toEqual(['wallet', 'ledger']);
  });
});
