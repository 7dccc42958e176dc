/**
 * The money invariants, checked against what is stored (through the Store port, strongly consistent
 * reads), after every step of the model-based test:
 *
 * - each wallet: its ledger is gapless (1..n) and a hash chain from the wallet's genesis; the balance
 *   is the sum of the ledger; before/after amounts chain; owed and reserved are the last entry's;
 *   available = balance − owed − reserved, and nothing is ever negative;
 * - each position: its stake is the sum of its bets and of its BET entries (one per call, `calls` of them between
 *   `firstSeq` and `lastSeq`); it is
 *   paid at most once and refunded at most once, never both; a settled position's payout is what the
 *   engine pays for its bets on the recorded coup, and its PAYOUT entry says so; a refund is the stake;
 *   every PAYOUT and REFUND entry belongs to the position that records it;
 * - reserved = the reserves of the player's open positions; owed = his debts; commission collected
 *   = his COMMISSION entries;
 * - idempotency: every success of one key of one wallet was for the same request and answered the
 *   same entry, and at most one of them was not a replay;
 * - finished (all rounds over, all shoes closed): every stake settled or refunded, nothing reserved or
 *   owed, every shoe's audit chain verifies.
 */
import type { Actor, Core, LedgerEntry, PositionRecord, Store, WalletRecord } from '@pyb/core';
import { ledgerBody, walletGenesis } from '@pyb/core';
import { BET_TYPES, type Bet, settle } from '@pyb/engine';
import { eventHash } from '@pyb/fairness';
import { expect } from 'vitest';

export interface World {
  op: Actor;
  admin: Actor;
  core: Core;
  store: Store;
  players: string[];
  tables: { tableId: string }[];
  /** Every shoe opened (tables' current shoes are added as they are found). */
  shoes: Set<string>;
  /** Rounds opened, newest last (bets aim at the open round, else at the last one). */
  rounds: string[];
  /** `player:key` -> each success of a call with that key (`hash`: the entry as answered). */
  successes: Map<string, { body: string; seq: number; hash: string; replayed: boolean }[]>;
}

async function wholeLedger(store: Store, operatorId: string, playerId: string): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listLedger(operatorId, playerId, {
      limit: 100,
      order: 'asc',
      ...(cursor && { cursor }),
    });
    entries.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return entries;
}

function checkWallet(wallet: WalletRecord | undefined, ledger: LedgerEntry[], playerId: string): void {
  const where = `wallet ${playerId}`;
  if (!wallet) {
    expect(ledger, `${where}: a ledger without a wallet`).toEqual([]);
    return;
  }
  let prev = walletGenesis(wallet.operatorId, playerId);
  let balance = 0;
  ledger.forEach((e, i) => {
    expect(e.seq, `${where}: gapless ledger`).toBe(i + 1);
    expect(e.prevHash, `${where}: entry ${e.seq} links to the previous`).toBe(prev);
    expect(e.hash, `${where}: entry ${e.seq} hash`).toBe(eventHash(e.prevHash, ledgerBody(e)));
    expect(e.balanceBefore, `${where}: entry ${e.seq} balance before`).toBe(balance);
    balance += e.amount;
    expect(e.balanceAfter, `${where}: entry ${e.seq} balance after`).toBe(balance);
    expect(e.balanceAfter, `${where}: entry ${e.seq} never negative`).toBeGreaterThanOrEqual(0);
    expect(e.owedAfter).toBeGreaterThanOrEqual(0);
    expect(e.reservedAfter).toBeGreaterThanOrEqual(0);
    expect(
      e.balanceAfter - e.owedAfter - e.reservedAfter,
      `${where}: entry ${e.seq} available`,
    ).toBeGreaterThanOrEqual(0);
    prev = e.hash;
  });
  const last = ledger.at(-1);
  expect(wallet.seq, `${where}: seq = ledger length`).toBe(ledger.length);
  expect(wallet.head, `${where}: head = last hash`).toBe(prev);
  expect(wallet.balance, `${where}: balance = sum of its ledger`).toBe(balance);
  expect(wallet.owed).toBe(last?.owedAfter ?? 0);
  expect(wallet.reserved).toBe(last?.reservedAfter ?? 0);
  expect(wallet.available, `${where}: available`).toBe(wallet.balance - wallet.owed - wallet.reserved);
  expect(wallet.available, `${where}: available never negative`).toBeGreaterThanOrEqual(0);
}

/** A position's bets in the engine's order of bet types (as the use cases list them). */
const betList = (bets: PositionRecord['bets']): Bet[] =>
  BET_TYPES.filter((type) => bets[type] !== undefined).map((type) => ({ type, amount: bets[type]! }));

export async function checkInvariants(world: World, options: { finished?: boolean } = {}): Promise<void> {
  const { store, op } = world;
  for (const t of world.tables) {
    const stored = await store.get('table', { tableId: t.tableId });
    if (stored?.currentShoeId) world.shoes.add(stored.currentShoeId);
  }
  const ledgers = new Map<string, LedgerEntry[]>();
  const wallets = new Map<string, WalletRecord | undefined>();
  for (const playerId of world.players) {
    const wallet = await store.get('wallet', { operatorId: op.operatorId, playerId });
    const ledger = await wholeLedger(store, op.operatorId, playerId);
    checkWallet(wallet, ledger, playerId);
    wallets.set(playerId, wallet);
    ledgers.set(playerId, ledger);
  }

  const reserved = new Map<string, number>();
  const owed = new Map<string, number>();
  const collected = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  /** PAYOUT / REFUND entries that a settled / refunded position accounts for. */
  const accounted = new Set<string>();

  for (const shoeId of world.shoes) {
    const shoe = (await store.get('shoe', { shoeId }))!;
    for (const debt of await store.listDebts(shoeId)) {
      add(owed, debt.playerId, debt.owed);
      add(collected, debt.playerId, debt.collected);
    }
    for (const round of await store.listRounds(shoeId)) {
      for (const p of await store.listPositions(round.roundId)) {
        const where = `position ${p.playerId} in round ${round.roundId} (${round.status})`;
        const ledger = ledgers.get(p.playerId) ?? [];
        const mine = ledger.filter((e) => e.roundId === round.roundId);
        const callsOf = mine.filter((e) => e.kind === 'BET' || e.kind === 'BET_WITHDRAWAL');
        const payouts = mine.filter((e) => e.kind === 'PAYOUT');
        const refunds = mine.filter((e) => e.kind === 'REFUND');
        const stake = Object.values(p.bets).reduce((s, n) => s + (n ?? 0), 0);
        expect(p.stake, `${where}: stake = sum of its bets`).toBe(stake);
        expect(
          callsOf.reduce((s, e) => s - e.amount, 0),
          `${where}: stake = its BET (and BET_WITHDRAWAL) entries`,
        ).toBe(stake);
        expect(callsOf.length, `${where}: one ledger entry per call`).toBe(p.calls);
        expect(
          [callsOf[0]?.seq, callsOf.at(-1)?.seq],
          `${where}: its calls' entries span [firstSeq, lastSeq]`,
        ).toEqual(p.calls > 0 ? [p.firstSeq, p.lastSeq] : [undefined, undefined]);
        expect(payouts.length, `${where}: paid at most once`).toBeLessThanOrEqual(1);
        expect(refunds.length, `${where}: refunded at most once`).toBeLessThanOrEqual(1);
        expect(p.settledAt !== undefined && p.refundedAt !== undefined, `${where}: paid and refunded`).toBe(
          false,
        );
        if (p.settledAt) {
          expect(round.coup, `${where}: settled without a coup`).toBeDefined();
          const s = settle(shoe.config, betList(p.bets), round.coup!.result);
          expect(p.settlement, `${where}: pays what the engine pays`).toEqual(s);
          expect(refunds, `${where}: settled and refunded`).toEqual([]);
          if (p.settleSeq === undefined) {
            expect(payouts, `${where}: a payout entry without settleSeq`).toEqual([]);
            expect(s.payout + s.commissionOwed + p.reserve, `${where}: money moved without an entry`).toBe(0);
          } else {
            expect(
              payouts.map((e) => e.seq),
              `${where}: its PAYOUT entry`,
            ).toEqual([p.settleSeq]);
            expect(payouts[0]!.amount).toBe(s.payout);
            accounted.add(`${p.playerId}:${p.settleSeq}`);
          }
        } else if (p.refundedAt) {
          expect(payouts, `${where}: refunded and paid`).toEqual([]);
          expect(
            refunds.map((e) => [e.seq, e.amount]),
            `${where}: refund of the stake`,
          ).toEqual([[p.refundSeq, stake]]);
          accounted.add(`${p.playerId}:${p.refundSeq}`);
        } else {
          expect([...payouts, ...refunds], `${where}: open, yet money came back`).toEqual([]);
          add(reserved, p.playerId, p.reserve);
          if (options.finished) throw new Error(`${where}: neither settled nor refunded at the end`);
        }
      }
    }
    if (options.finished) {
      expect(shoe.status, `shoe ${shoeId} closed at the end`).toBe('CLOSED');
      const report = await world.core.checkShoeChain(op, { shoeId });
      expect(report.problems, `audit chain of shoe ${shoeId}`).toEqual([]);
    }
  }

  for (const playerId of world.players) {
    const wallet = wallets.get(playerId);
    const ledger = ledgers.get(playerId) ?? [];
    for (const e of ledger) {
      if (e.kind === 'PAYOUT' || e.kind === 'REFUND') {
        expect(
          accounted.has(`${playerId}:${e.seq}`),
          `${playerId} entry ${e.seq} (${e.kind}) has no position`,
        ).toBe(true);
      }
    }
    const commission = ledger.filter((e) => e.kind === 'COMMISSION').reduce((s, e) => s - e.amount, 0);
    expect(commission, `${playerId}: commission entries = debts collected`).toBe(
      collected.get(playerId) ?? 0,
    );
    if (!wallet) continue;
    expect(wallet.reserved, `${playerId}: reserved = reserves of open positions`).toBe(
      reserved.get(playerId) ?? 0,
    );
    expect(wallet.owed, `${playerId}: owed = debts`).toBe(owed.get(playerId) ?? 0);
    if (options.finished) {
      expect(wallet.reserved).toBe(0);
      expect(wallet.owed, `${playerId}: owes nothing once every shoe is closed`).toBe(0);
    }
  }

  for (const [id, list] of world.successes) {
    expect(new Set(list.map((s) => s.body)).size, `${id}: one key, one request`).toBe(1);
    expect(new Set(list.map((s) => `${s.seq}:${s.hash}`)).size, `${id}: one entry for all its answers`).toBe(
      1,
    );
    expect(list.filter((s) => !s.replayed).length, `${id}: written once`).toBeLessThanOrEqual(1);
  }
}
