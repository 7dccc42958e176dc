/**
 * Deferred commission in seamless mode, as a property over any table, position and coup: a
 * seamless position's commission reserve is either kept (the commission its Banca bet owes) or
 * released, never more nor less; and the player's money ends where a hosted wallet's would.
 */
import { type Bet, type BetType, playCoup, settle, type TableConfig, tablePreset } from '@pyb/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stakeAndReserve } from '../src/rounds/seamless-bets';
import { reserveReleased, seamlessCredits } from '../src/rounds/settle-credits';
import { stakePart } from '../src/seamless/tx';
import type { Bets, PositionRecord, SeamlessTxRecord } from '../src/shared/model';
import { newWallet, planMovement } from '../src/wallet/wallet-ledger';

/** The table, its commission (rate, mode) and its Banca variant drawn; validated once (tablePreset). */
const BASE = tablePreset('full', { pairBets: true });
const configArb = fc
  .record({
    rateBps: fc.integer({ min: 0, max: 10_000 }),
    later: fc.boolean(),
    bankerMode: fc.constantFrom(undefined, 'EZ' as const, 'SUPER_6' as const),
  })
  .map(
    ({ rateBps, later, bankerMode }): TableConfig => ({
      ...BASE,
      commission: { rateBps, mode: later ? 'DEFERRED' : 'AT_PAYMENT' },
      ...(bankerMode && { bankerMode }),
    }),
  );
/** A position: Punto or Banca (or neither) with any of the other bets, each 1..1,000,000. */
const betsArb = fc
  .record({
    main: fc.constantFrom<BetType | undefined>('PLAYER', 'BANKER', undefined),
    others: fc.subarray(['TIE', 'PLAYER_PAIR', 'BANKER_PAIR'] as BetType[]),
    amounts: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 4, maxLength: 4 }),
  })
  .filter(({ main, others }) => main !== undefined || others.length > 0)
  .map(({ main, others, amounts }) =>
    [...(main ? [main] : []), ...others].map((type, i): Bet => ({ type, amount: amounts[i]! })),
  );
const coupArb = fc
  .array(fc.integer({ min: 0, max: 51 }), { minLength: 6, maxLength: 6 })
  .map((c) => playCoup(c));

const AT = '2026-12-01T00:00:00.000Z';
const betsOf = (bets: readonly Bet[]): Bets => Object.fromEntries(bets.map((b) => [b.type, b.amount]));

describe('deferred commission in seamless mode', () => {
  it('property: reserve kept + released = reserve, and the player nets what a hosted wallet nets', () => {
    fc.assert(
      fc.property(configArb, betsArb, coupArb, (config, bets, coup) => {
        const { stake, reserve } = stakeAndReserve(config, betsOf(bets));
        const banca = bets.find((b) => b.type === 'BANKER');
        // Only a DEFERRED table's commission-paying Banca bet reserves: the worst case, as hosted.
        const charged = config.commission.mode === 'DEFERRED' && !config.bankerMode && banca;
        expect(reserve).toBe(charged ? Math.ceil((banca.amount * config.commission.rateBps) / 10_000) : 0);
        const position = {
          roundId: 'rnd_1',
          playerId: 'p',
          operatorId: 'op',
          tableId: 'tbl_1',
          bets: betsOf(bets),
          stake,
          reserve,
          wallet: 'seamless',
          debits: ['dbt_0123456789abcdef'],
        } as PositionRecord;
        const s = settle(config, bets, coup);
        const credits = seamlessCredits(position, s, config, AT).map(
          (c) => (c.op as { item: SeamlessTxRecord }).item,
        );
        const amountOf = (kind: string) => credits.find((c) => c.creditKind === kind)?.amount ?? 0;
        const released = amountOf('COMMISSION_RELEASE');
        const kept = s.commissionOwed;
        expect(kept + released).toBe(reserve);
        expect(released).toBe(reserveReleased(reserve, s));
        expect(credits.every((c) => c.amount > 0)).toBe(true);
        // A won Banca bet keeps it all; a lost or pushed one gets it all back.
        const result = s.bets.find((b) => b.type === 'BANKER')?.result;
        if (reserve > 0) expect(released).toBe(result === 'WIN' ? 0 : reserve);
        // The operator's wallet: −(stake + reserve) at the bet, the credits at settlement.
        const seamlessNet = -(stake + reserve) + amountOf('PAYOUT') + released;
        // The hosted wallet: the same position through the platform's own ledger, its commission
        // collected at the end of the shoe.
        let w = { ...newWallet('op', 'p', 'EUR', AT), balance: 10_000_000, available: 10_000_000 };
        const move = (kind: 'BET' | 'PAYOUT' | 'COMMISSION', amount: number, more = {}) => {
          w = planMovement(w, { kind, key: `s:${kind}`, requestHash: 'h', amount, at: AT, ...more }).wallet;
        };
        move('BET', -stake, { reserved: reserve });
        move('PAYOUT', s.payout, { owed: s.commissionOwed, reserved: -reserve });
        move('COMMISSION', -w.owed, { owed: -w.owed });
        expect(w.reserved).toBe(0);
        expect(seamlessNet).toBe(w.balance - 10_000_000);
        // A seamless record's stake part is what a hosted entry shows.
        const debit = {
          op: 'DEBIT',
          amount: stake + reserve,
          commissionReserve: reserve,
        } as SeamlessTxRecord;
        expect(stakePart(debit)).toBe(-stake);
      }),
      { numRuns: 300 },
    );
  });
});
