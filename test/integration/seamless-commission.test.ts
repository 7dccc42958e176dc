/**
 * Deferred commission in seamless mode (docs/seamless-wallet.md, "Deferred commission"; docs/rules.md):
 * a DEFERRED table's Banca bet is debited its stake plus its commission reserve; a won Banca bet is
 * paid in full and its reserve is the commission it owes (recorded as collected at leave / shoe end /
 * close, with no wallet call); a lost or pushed one gets its reserve back by a COMMISSION_RELEASE
 * credit; a void gives both back. Over real HTTP against the reference operator wallet, faults
 * injected on the credits; the books, the reconciliation, the GGR and the feed agree to the unit, and
 * every round replays VERIFIED.
 */
import { creditTxIdOf, debitTxIdOf, type FeedRecord, type PositionRecord } from '@pyb/core';
import { context, feedRecords } from '@pyb/core/use-cases';
import { type Bet, type ShoeCoup, tablePreset } from '@pyb/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, regulator } from '../support/actors';
import { bancaResult, openRoundDealing, PINNED_V2 } from '../support/dealt';
import { codeOf } from '../support/game';
import {
  expectBooksReconcile,
  expectReplaysVerified,
  type SeamlessFixture,
  seamlessFixture,
} from '../support/seamless';

const OP = 'op-seamless-commission';
const FUNDS = 1_000_000;

let f: SeamlessFixture;
let stack: SeamlessFixture['stack'];
let wallet: SeamlessFixture['wallet'];
let core: SeamlessFixture['core'];
let outbox: SeamlessFixture['outbox'];
let op: SeamlessFixture['op'];
/** The release credits a fault has hit once. */
const releasesHit = new Set<string>();

beforeAll(async () => {
  f = await seamlessFixture({
    label: 'seamless-commission',
    deps: PINNED_V2,
    operatorId: OP,
    secret: 'seamless-commission-secret-0123456789',
    players: { prefix: 'cp', funds: FUNDS },
    // One delivery at a time, so a fault injected just before a call is the one that call meets.
    outbox: { retryDelayMs: 2, maxRetryDelayMs: 10, maxReceives: 30, concurrency: 1 },
    // Each COMMISSION_RELEASE meets a real fault on its way until one has hit it: a 500 after the
    // wallet booked it, so only its redelivery (same txId) is acknowledged — and must book nothing more.
    wallet: (client, reference) => ({
      ...client,
      credit: async (r) => {
        const unhit = r.kind === 'COMMISSION_RELEASE' && !releasesHit.has(r.txId);
        if (unhit)
          reference.inject({ operation: 'credit', fault: { kind: 'status', status: 500, apply: true } });
        const answer = await client.credit(r);
        if (unhit && answer.outcome === 'UNKNOWN') releasesHit.add(r.txId);
        return answer;
      },
    }),
  });
  ({ stack, wallet, core, outbox, op } = f);
});

afterAll(() => f?.close());

const overrides = { decks: 1, commission: { mode: 'DEFERRED' as const } };
const config = tablePreset('custom', { ...overrides, name: 'Seamless deferred' });
/** The worst-case commission of a Banca stake (5%, rounded up): what its debit reserves. */
const reserveOf = (stake: number) => Math.ceil((stake * config.commission.rateBps) / 10_000);

/** What each player bets every coup: Banca alone, Banca with Tie, Punto alone (no reserve). */
const PLAYS: Record<string, Bet[]> = {
  ana: [{ type: 'BANKER', amount: 1_000 }],
  ben: [
    { type: 'BANKER', amount: 2_500 },
    { type: 'TIE', amount: 200 },
  ],
  carla: [{ type: 'PLAYER', amount: 1_500 }],
  dora: [{ type: 'BANKER', amount: 3_000 }],
};
const PLAYERS = Object.keys(PLAYS);
/** This coup is voided: every stake and reserve goes back. */
const VOIDED = 2;
/**
 * The resolved coups the test plays (the void deals none): its shoe deals a Banca win first (dora
 * leaves owing it), then a Punto win and a tie in some order, none of them the shoe's last — so every
 * branch below runs on every run, in both tiers (./support/dealt).
 */
const COUPS = 3;
const dealsWinThenLoseAndTie = (coups: readonly ShoeCoup[]) => {
  const first = coups.slice(0, COUPS);
  return (
    first.length === COUPS &&
    !first.some((c) => c.last) &&
    bancaResult(first[0]!) === 'WIN' &&
    new Set(first.map(bancaResult)).size === 3
  );
};

const balanceOf = (playerId: string) => wallet.balanceOf(playerId) ?? 0;
const record = (txId: string) => stack.store.get('seamlessTx', { txId });
const bankerOf = (p: PositionRecord) => p.settlement?.bets.find((b) => b.type === 'BANKER');

describe('a DEFERRED table in seamless mode', () => {
  it('on a shoe dealt to give a Banca win, then a Punto win and a tie: debits each Banca bet its reserve, keeps it when the bet wins, releases it once when it loses or pushes, refunds both on a void; the books, reconciliation, GGR and feed agree to the unit, and every round replays VERIFIED', async () => {
    for (const p of PLAYERS) wallet.fund(p, 'EUR', FUNDS);
    // From now, not earlier: the file's other test (in any order) books on the same wallet.
    const start = f.at(0);
    const table = await core.createTable(admin(OP), {
      name: 'Seamless deferred',
      variant: 'custom',
      config: overrides,
    });
    const { shoeId } = await core.openShoe(admin(OP), { tableId: table.tableId });
    const roundIds: string[] = [];
    const seen = { WIN: 0, LOSE: 0, PUSH: 0 };
    /** dora leaves after the first coup her Banca bet wins: what she owes is collected then. */
    let doraCollected: number | undefined;
    let rolledBack = false;
    for (let n = 1, coups = 0; coups < COUPS; n++) {
      const round =
        n === 1
          ? (await openRoundDealing(stack, op, { tableId: table.tableId, deals: dealsWinThenLoseAndTie }))
              .round
          : await core.openRound(op, { tableId: table.tableId });
      roundIds.push(round.roundId);
      const seated = doraCollected === undefined ? PLAYERS : PLAYERS.filter((p) => p !== 'dora');
      for (const p of seated) {
        if (p === 'ana' && !rolledBack) {
          // One debit lost on the way (booked, answered 500): it is rolled back, stake and reserve.
          rolledBack = true;
          wallet.inject({ operation: 'debit', fault: { kind: 'status', status: 500, apply: true } });
          expect(
            await codeOf(
              core.placeBet(op, {
                roundId: round.roundId,
                playerId: p,
                bets: PLAYS[p]!,
                idempotencyKey: 'lost',
              }),
            ),
          ).toBe('WALLET_UNAVAILABLE');
          await outbox.idle();
          const lost = (await record(debitTxIdOf(OP, round.roundId, p, 'lost')))!;
          expect(lost).toMatchObject({ state: 'ROLLED_BACK', amount: 1_050, commissionReserve: 50 });
          expect(await record(lost.rollbackTxId!)).toMatchObject({
            state: 'ROLLED_BACK',
            amount: 1_050,
            commissionReserve: 50,
          });
          expect(balanceOf(p)).toBe(FUNDS);
        }
        const before = balanceOf(p);
        const placed = await core.placeBet(op, {
          roundId: round.roundId,
          playerId: p,
          bets: PLAYS[p]!,
          idempotencyKey: `k${n}`,
        });
        const stake = PLAYS[p]!.reduce((s, b) => s + b.amount, 0);
        const banca = PLAYS[p]!.find((b) => b.type === 'BANKER')?.amount ?? 0;
        const debit = (await record(placed.entry.entryId))!;
        // The debit is the stake plus the Banca bet's reserve, its parts recorded; Punto carries none.
        expect(debit.amount).toBe(stake + reserveOf(banca));
        expect(debit.commissionReserve).toBe(banca > 0 ? reserveOf(banca) : undefined);
        expect(placed.entry.amount).toBe(-stake);
        expect(before - balanceOf(p)).toBe(debit.amount);
        const position = await stack.store.get('position', { roundId: round.roundId, playerId: p });
        expect(position?.reserve).toBe(reserveOf(banca));
      }
      if (n === VOIDED) {
        wallet.inject({
          operation: 'credit',
          fault: { kind: 'status', status: 503, apply: false },
          times: 2,
        });
        await core.voidRound(op, { roundId: round.roundId, reason: 'EXPOSED_CARD' });
        await outbox.idle();
        for (const p of seated) {
          const stake = PLAYS[p]!.reduce((s, b) => s + b.amount, 0);
          const reserve = reserveOf(PLAYS[p]!.find((b) => b.type === 'BANKER')?.amount ?? 0);
          expect(await record(creditTxIdOf(round.roundId, p, 'REFUND'))).toMatchObject({
            state: 'CREDITED',
            amount: stake + reserve,
            ...(reserve > 0 && { commissionReserve: reserve }),
          });
        }
        continue;
      }
      // The wallet fails the first credits of every coup (a 503: not booked; a 500: booked, and an
      // answer signed with a wrong secret: booked, not trusted); each is delivered again, booked once.
      wallet.inject({ operation: 'credit', fault: { kind: 'status', status: 503, apply: false } });
      wallet.inject({ operation: 'credit', fault: { kind: 'status', status: 500, apply: true } });
      wallet.inject({ operation: 'credit', fault: { kind: 'badSignature' } });
      await core.resolveRound(op, { roundId: round.roundId });
      await outbox.idle();
      expect(outbox.deadLetters).toEqual([]);
      for (const pos of await stack.store.listPositions(round.roundId)) {
        const s = pos.settlement!;
        const payout = await record(creditTxIdOf(round.roundId, pos.playerId, 'PAYOUT'));
        const release = await record(creditTxIdOf(round.roundId, pos.playerId, 'COMMISSION_RELEASE'));
        // A DEFERRED table pays in full: the PAYOUT is the whole settlement payout.
        if (s.payout > 0) expect(payout).toMatchObject({ state: 'CREDITED', amount: s.payout });
        else expect(payout).toBeUndefined();
        const banker = bankerOf(pos);
        if (!banker) {
          expect(release).toBeUndefined();
          continue;
        }
        seen[banker.result] += 1;
        const reserve = reserveOf(banker.amount);
        if (banker.result === 'WIN') {
          // Paid stake × 2; the reserve is exactly the commission owed, kept: nothing released.
          expect(banker.payout).toBe(banker.amount * 2);
          expect(s.commissionOwed).toBe(reserve);
          expect(release).toBeUndefined();
        } else {
          expect(s.commissionOwed).toBe(0);
          expect(release).toMatchObject({
            state: 'CREDITED',
            amount: reserve,
            creditKind: 'COMMISSION_RELEASE',
            debitTxIds: pos.debits,
          });
        }
      }
      coups += 1;
      if (doraCollected === undefined && seen.WIN > 0) {
        const owed = (await stack.store.get('debt', { shoeId, operatorId: OP, playerId: 'dora' }))?.owed;
        const calls = wallet.received.length;
        const left = await core.leaveTable(op, { tableId: table.tableId, playerId: 'dora' });
        // Collected with no wallet call beyond the balance it shows: the reserves already took it.
        expect(left.commissionCollected).toBe(owed ?? 0);
        expect(wallet.received.length - calls).toBe(1);
        expect(left.balance).toBe(balanceOf('dora'));
        doraCollected = left.commissionCollected;
      }
    }
    // ana, ben and dora won the first coup; ana and ben lost one and pushed one after dora left.
    expect(seen).toEqual({ WIN: 3, LOSE: 2, PUSH: 2 });
    expect(doraCollected).toBeGreaterThan(0);
    // Closed early: the close collects what is still owed.
    await core.closeShoe(admin(OP), { shoeId, reason: 'END_OF_SESSION' });
    const end = f.at(1_000);

    // The platform's records of the shoe, each final; the operator's books hold each txId once, each
    // booking a record to the unit; the reconciliation names nothing unresolved, and its net is the
    // operator's books for these txIds, to the unit.
    const { records, books, byTx, booked } = await expectBooksReconcile(f, {
      from: start,
      to: end,
      players: { ids: PLAYERS, funds: FUNDS },
      roundIds: new Set(roundIds),
    });
    // The faults hit release credits, and each was still booked exactly once.
    const releases = records.filter((r) => r.creditKind === 'COMMISSION_RELEASE');
    expect(releases.length).toBe(releasesHit.size);
    for (const r of releases) expect(r.attempts, r.txId).toBeGreaterThan(1);
    expect(records.some((r) => r.op === 'CREDIT' && r.attempts > 1)).toBe(true);
    for (const r of releases) expect(books.filter((b) => b.txId === r.txId)).toHaveLength(1);
    for (const b of books) {
      const r = byTx.get(b.txId)!;
      // The operator's books hold how each amount splits, and what a release gives back for.
      expect(b.commissionReserve).toBe(r.commissionReserve);
      if (r.creditKind === 'COMMISSION_RELEASE') expect(b.debitTxIds).toEqual(r.debitTxIds);
    }

    // Per player: what the operator's wallet shows is what a hosted wallet would, to the unit:
    // −stakes + payouts − the deferred commission collected (reserves kept, released or refunded).
    const debts = await stack.store.listDebts(shoeId);
    expect(debts.every((d) => d.owed === 0 && d.wallet === 'seamless')).toBe(true);
    let kept = 0;
    for (const p of PLAYERS) {
      let net = 0;
      let owed = 0;
      for (const roundId of roundIds) {
        const pos = await stack.store.get('position', { roundId, playerId: p });
        if (pos?.settlement) {
          net += pos.settlement.payout - pos.stake;
          owed += pos.settlement.commissionOwed;
        }
      }
      const collected = debts.filter((d) => d.playerId === p).reduce((sum, d) => sum + d.collected, 0);
      expect(collected, p).toBe(owed);
      kept += owed;
      expect(balanceOf(p), p).toBe(FUNDS + net - collected);
    }
    // Commission is kept because Banca bets won (the first coup).
    expect(kept).toBeGreaterThan(0);

    // The reconciliation's net (checked above) is what the players' balances moved, in all.
    expect(booked).toBe(PLAYERS.reduce((sum, p) => sum + balanceOf(p) - FUNDS, 0));

    // GGR: the commission is the reserves kept; the feed says the same, and its movements are a hosted
    // table's: the bets' stakes and the payouts (−GGR).
    const dates = [...new Set([start.slice(0, 10), end.slice(0, 10)])];
    let deferred = 0;
    let ggr = 0;
    for (const date of dates) {
      const eur = (await core.ggrReport(regulator(OP), { operatorId: OP, date })).totals.find(
        (t) => t.currency === 'EUR',
      );
      deferred += eur?.commissionDeferred ?? 0;
      ggr += eur?.ggr ?? 0;
    }
    expect(deferred).toBe(kept);
    const ctx = context({ store: stack.store, keys: stack.keys, clock: stack.clock });
    const feed: FeedRecord[] = [];
    for await (const r of feedRecords(ctx, OP, start, end)) feed.push(r);
    const settlements = feed.filter((r) => r.type === 'settlement');
    expect(settlements.reduce((s, r) => s + (r.commissionOwed as number), 0)).toBe(kept);
    const settled = new Set(
      feed.filter((r) => r.type === 'round' && r.status === 'SETTLED').map((r) => r.roundId),
    );
    const moved = feed
      .filter(
        (r) =>
          r.type === 'movement' && settled.has(r.roundId) && ['BET', 'PAYOUT'].includes(r.kind as string),
      )
      .reduce((s, r) => s + (r.amount as number), 0);
    expect(-moved).toBe(ggr);
    // The collections are the feed's COMMISSION movements, as a hosted wallet's ledger entries are.
    const collections = feed.filter((r) => r.type === 'movement' && r.kind === 'COMMISSION');
    expect(collections.reduce((s, r) => s + (r.amount as number), 0)).toBe(0 - kept);
    expect(collections.length).toBe(debts.reduce((s, d) => s + d.collections, 0));

    // Replay: every round, the voided one included, VERIFIED (the releases checked against the reserves).
    await expectReplaysVerified(f, roundIds);
  });
});

describe('reducing and withdrawing on a DEFERRED table in seamless mode', () => {
  it('gives back, with each refund, the part of the reserve the bets left no longer need', async () => {
    const p = 'eve';
    wallet.fund(p, 'EUR', FUNDS);
    const table = await core.createTable(admin(OP), {
      name: 'Seamless deferred 2',
      variant: 'custom',
      config: overrides,
    });
    const { shoeId } = await core.openShoe(admin(OP), { tableId: table.tableId });
    const round = await core.openRound(op, { tableId: table.tableId });
    const { roundId } = round;
    const placed = await core.placeBet(op, {
      roundId,
      playerId: p,
      bets: [
        { type: 'BANKER', amount: 2_000 },
        { type: 'TIE', amount: 100 },
      ],
      idempotencyKey: 'bet',
    });
    expect(await record(placed.entry.entryId)).toMatchObject({ amount: 2_200, commissionReserve: 100 });
    // Banca 2,000 → 1,000: the stake taken off and half the reserve come back.
    const reduced = await core.withdrawBets(op, {
      roundId,
      playerId: p,
      bets: [{ type: 'BANKER', amount: 1_000 }],
      idempotencyKey: 'reduce',
    });
    expect(reduced.entry).toMatchObject({ kind: 'BET_WITHDRAWAL', amount: 1_000 });
    expect(await record(reduced.entry.entryId)).toMatchObject({
      creditKind: 'REFUND',
      amount: 1_050,
      commissionReserve: 50,
    });
    expect((await stack.store.get('position', { roundId, playerId: p }))!.reserve).toBe(50);
    // Everything withdrawn: the rest of the stake and of the reserve.
    const withdrawn = await core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'all' });
    expect(await record(withdrawn.entry.entryId)).toMatchObject({ amount: 1_150, commissionReserve: 50 });
    await outbox.idle();
    expect(balanceOf(p)).toBe(FUNDS);
    expect((await stack.store.get('position', { roundId, playerId: p }))!.reserve).toBe(0);
    await core.resolveRound(op, { roundId });
    await outbox.idle();
    expect(balanceOf(p)).toBe(FUNDS);
    await core.closeShoe(admin(OP), { shoeId, reason: 'END_OF_SESSION' });
    await expectReplaysVerified(f, [roundId]);
  });
});
