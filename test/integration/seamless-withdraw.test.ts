/**
 * Reducing and withdrawing a seamless operator's bets (docs/seamless-wallet.md §5), over real HTTP
 * against the reference operator wallet: the stake taken back is a REFUND credit written in the
 * transaction that reduces the position and delivered at least once — through wallet faults — never
 * twice; a retry answers the first answer; "no va más" either lists the position reduced or refuses
 * the withdraw; the books reconcile to the unit and the rounds replay VERIFIED.
 */
import {
  type PlaceBetResult,
  type SeamlessTxRecord,
  type Store,
  type WriteOp,
  withdrawTxIdOf,
} from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../support/actors';
import { DelegatingStore } from '../support/faulty-store';
import { codeOf } from '../support/game';
import { stepsInOrder } from '../support/order';
import {
  expectBookedOnce,
  expectBooksReconcile,
  expectRecallVerified,
  expectReplaysVerified,
  type SeamlessFixture,
  seamlessFixture,
} from '../support/seamless';

// The last test checks the books of all the ones before it.
stepsInOrder();

const OP = 'op-seamless-wd';
const FUNDS = 100_000;

/** Runs `hook` once, just before the next transaction that writes a withdrawal's refund. */
class HookStore extends DelegatingStore {
  beforeRefund: (() => Promise<void>) | undefined;
  constructor(inner: Store) {
    super(inner);
  }
  override async transact(ops: readonly WriteOp[]): Promise<void> {
    const refund = ops.some((o) => {
      const item = o.kind === 'put' && o.entity === 'seamlessTx' ? (o.item as SeamlessTxRecord) : undefined;
      return item?.op === 'CREDIT' && item.requestHash !== undefined;
    });
    const hook = refund ? this.beforeRefund : undefined;
    if (hook) {
      this.beforeRefund = undefined;
      await hook();
    }
    return this.inner.transact(ops);
  }
}

let f: SeamlessFixture;
let stack: SeamlessFixture['stack'];
let store: HookStore;
let wallet: SeamlessFixture['wallet'];
let core: SeamlessFixture['core'];
let outbox: SeamlessFixture['outbox'];
let op: SeamlessFixture['op'];
let start: string;

beforeAll(async () => {
  f = await seamlessFixture({
    label: 'seamless-withdraw',
    operatorId: OP,
    secret: 'seamless-withdraw-secret-0123456789abcdef',
    players: { prefix: 'wp', funds: FUNDS },
    store: (inner) => {
      store = new HookStore(inner);
      return store;
    },
  });
  ({ stack, wallet, core, outbox, op } = f);
  start = f.at(-1_000);
});

afterAll(() => f?.close());

const player = () => f.player();

/** One table and shoe for the file (each test settles its rounds); the last test replays them all. */
let table: { tableId: string; shoeId: string } | undefined;
const rounds: string[] = [];
async function openRound() {
  if (!table) {
    const { tableId } = await core.createTable(admin(OP), { name: 'Seamless withdraw', variant: 'mini' });
    table = { tableId, shoeId: (await core.openShoe(admin(OP), { tableId })).shoeId };
  }
  const { roundId } = await core.openRound(op, { tableId: table.tableId });
  rounds.push(roundId);
  return roundId;
}

const bet = (roundId: string, playerId: string, bets: [string, number][], key: string) =>
  core.placeBet(op, {
    roundId,
    playerId,
    bets: bets.map(([type, amount]) => ({ type: type as 'BANKER', amount })),
    idempotencyKey: key,
  });
const reduce = (roundId: string, playerId: string, bets: [string, number][], key: string) =>
  core.withdrawBets(op, {
    roundId,
    playerId,
    bets: bets.map(([type, amount]) => ({ type: type as 'BANKER', amount })),
    idempotencyKey: key,
  });
const refundOf = (roundId: string, playerId: string, key: string) =>
  stack.store.get('seamlessTx', { txId: withdrawTxIdOf(OP, roundId, playerId, key) });
const creditsSent = (txId: string) =>
  wallet.received.filter((r) => r.operation === 'credit' && (r.body as { txId?: string }).txId === txId)
    .length;

const bookedOnce = () => expectBookedOnce(wallet);

describe('reducing and withdrawing a seamless bet', () => {
  it('gives the stake back as a REFUND credit, keeps the rules, is idempotent, and a raise after it works', async () => {
    const roundId = await openRound();
    const p = player();
    await bet(
      roundId,
      p,
      [
        ['BANKER', 5_000],
        ['TIE', 1_000],
      ],
      'b1',
    );
    expect(wallet.balanceOf(p)).toBe(94_000);
    const first = await reduce(roundId, p, [['BANKER', 2_000]], 'r1');
    const txId = withdrawTxIdOf(OP, roundId, p, 'r1');
    expect(first).toMatchObject({
      replayed: false,
      balance: 96_000,
      entry: { entryId: txId, seq: 2, kind: 'BET_WITHDRAWAL', amount: 2_000, balanceAfter: 96_000 },
    });
    expect(first.entry.reference).not.toBeNull(); // the wallet's booking id: it acknowledged in the request
    expect(first.position.bets.map((b) => [b.type, b.amount])).toEqual([
      ['BANKER', 3_000],
      ['TIE', 1_000],
    ]);
    expect(wallet.balanceOf(p)).toBe(96_000);
    expect(await refundOf(roundId, p, 'r1')).toMatchObject({
      op: 'CREDIT',
      creditKind: 'REFUND',
      state: 'CREDITED',
      amount: 2_000,
      bets: { BANKER: 2_000 },
    });
    // The same key again: the first answer, no second credit; with another body, or a bet's key: refused.
    const again = await reduce(roundId, p, [['BANKER', 2_000]], 'r1');
    expect([again.replayed, again.entry, again.balance]).toEqual([true, first.entry, 96_000]);
    expect(creditsSent(txId)).toBe(1);
    expect(await codeOf(reduce(roundId, p, [['BANKER', 1_000]], 'r1'))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await codeOf(core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'b1' }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await codeOf(bet(roundId, p, [['BANKER', 2_000]], 'r1'))).toBe('IDEMPOTENCY_KEY_REUSED');
    // The hosted rules and errors: what stays keeps the minimum; more than was bet, or no bet, is refused.
    expect(await codeOf(reduce(roundId, p, [['BANKER', 2_950]], 'x1'))).toBe('BET_BELOW_MIN');
    expect(await codeOf(reduce(roundId, p, [['BANKER', 3_001]], 'x2'))).toBe('BET_REDUCE_TOO_LARGE');
    expect(await codeOf(reduce(roundId, p, [['PLAYER', 100]], 'x3'))).toBe('BET_NOT_PLACED');
    expect(await codeOf(reduce(roundId, player(), [['BANKER', 100]], 'x4'))).toBe('BET_NOT_PLACED');
    // A raise after the reduction is a debit of what it adds.
    const raised = await bet(roundId, p, [['BANKER', 1_000]], 'b2');
    expect([raised.balance, raised.position.stake, raised.entry.seq]).toEqual([95_000, 5_000, 3]);
    // A type withdrawn whole, then everything.
    const noTie = await core.withdrawBets(op, { roundId, playerId: p, types: ['TIE'], idempotencyKey: 'c1' });
    expect([noTie.balance, noTie.position.bets.map((b) => b.type)]).toEqual([96_000, ['BANKER']]);
    const none = await core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'c2' });
    expect([none.balance, none.position.stake, none.entry.amount, none.entry.seq]).toEqual([
      FUNDS,
      0,
      4_000,
      5,
    ]);
    expect(await codeOf(core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'c3' }))).toBe(
      'BET_NOT_PLACED',
    );
    // Betting again after withdrawing everything; the coup settles what stays.
    await bet(roundId, p, [['PLAYER', 700]], 'b3');
    const view = await core.resolveRound(op, { roundId });
    const mine = view.positions.find((x) => x.playerId === p)!;
    expect(mine.stake).toBe(700);
    await outbox.idle();
    expect(wallet.balanceOf(p)).toBe(FUNDS - 700 + (mine.payout ?? 0));
    bookedOnce();
  });

  it('delivers each refund once through wallet faults: 503s, a lost answer, a bad signature, a duplicate', async () => {
    const roundId = await openRound();
    const faults = [
      { kind: 'status', status: 503, apply: false },
      { kind: 'timeout', apply: true },
      { kind: 'status', status: 500, apply: true },
      { kind: 'badSignature' },
      { kind: 'duplicate' },
    ] as const;
    const crowd = faults.map(() => player());
    for (const p of crowd) await bet(roundId, p, [['BANKER', 3_000]], 'b');
    const answers: PlaceBetResult[] = [];
    for (const [i, fault] of faults.entries()) {
      // The first 503 hits the request's attempt and the queue's first delivery too. One at a time:
      // a fault hits whichever credit comes next.
      wallet.inject({ operation: 'credit', fault, times: i === 0 ? 2 : 1 });
      answers.push(await reduce(roundId, crowd[i]!, [['BANKER', 1_000]], 'r'));
      if (i === 0) {
        // A retry while the refund may still be on its way answers the first answer again.
        const retried = await reduce(roundId, crowd[0]!, [['BANKER', 1_000]], 'r');
        expect([retried.replayed, retried.balance, retried.entry.entryId]).toEqual([
          true,
          98_000,
          answers[0]!.entry.entryId,
        ]);
      }
      await outbox.idle();
    }
    // Not acknowledged in the request: the position is reduced all the same, and the balance is the
    // one the wallet last answered plus the refund on its way (no booking id yet).
    for (const [i, a] of answers.entries()) {
      expect([a.position.stake, a.balance, a.entry.amount], faults[i]!.kind).toEqual([2_000, 98_000, 1_000]);
      if (faults[i]!.kind !== 'duplicate') expect(a.entry.reference).toBeNull();
    }
    expect(outbox.deadLetters).toEqual([]);
    for (const [i, p] of crowd.entries()) {
      expect(wallet.balanceOf(p), faults[i]!.kind).toBe(98_000);
      const refund = (await refundOf(roundId, p, 'r'))!;
      expect(refund.state).toBe('CREDITED');
      if (faults[i]!.kind !== 'duplicate') expect(refund.attempts, faults[i]!.kind).toBeGreaterThan(1);
    }
    bookedOnce();
    // Redelivering a delivered refund books nothing.
    const before = wallet.books().length;
    await core.deliverSeamlessTx(withdrawTxIdOf(OP, roundId, crowd[0]!, 'r'));
    expect(wallet.books().length).toBe(before);
    await core.resolveRound(op, { roundId });
    await outbox.idle();
  });

  it('racing "no va más": the position is listed reduced, or the withdraw is refused — never both', async () => {
    const roundId = await openRound();
    // Deterministic: "no va más" lands between the withdraw's reads and its transaction.
    const late = player();
    await bet(roundId, late, [['BANKER', 2_000]], 'b');
    const crowd = Array.from({ length: 6 }, () => player());
    await Promise.all(crowd.map((p) => bet(roundId, p, [['BANKER', 2_000]], 'b')));
    let resolving: Promise<unknown> | undefined;
    store.beforeRefund = async () => {
      resolving = core.resolveRound(op, { roundId });
      await resolving.catch(() => undefined);
    };
    expect(await codeOf(reduce(roundId, late, [['BANKER', 1_000]], 'w'))).toBe('ROUND_NOT_OPEN');
    await resolving;
    expect(await refundOf(roundId, late, 'w')).toBeUndefined();
    // Its retry is refused the same way, and writes nothing.
    expect(await codeOf(reduce(roundId, late, [['BANKER', 1_000]], 'w'))).toBe('ROUND_NOT_OPEN');
    expect(await refundOf(roundId, late, 'w')).toBeUndefined();
    // Concurrent: the withdrawals and the close race on the players' gates.
    const next = { roundId: await openRound() };
    await Promise.all(crowd.map((p) => bet(next.roundId, p, [['BANKER', 2_000]], 'b')));
    const [resolved, ...outcomes] = await Promise.allSettled([
      core.resolveRound(op, { roundId: next.roundId }),
      ...crowd.map((p, i) =>
        i % 2
          ? reduce(next.roundId, p, [['BANKER', 1_000]], 'w')
          : core.withdrawBets(op, { roundId: next.roundId, playerId: p, idempotencyKey: 'w' }),
      ),
    ]);
    expect(resolved.status).toBe('fulfilled');
    await outbox.idle();
    const view = await core.getRound(op, { roundId: next.roundId });
    expect(view.status).toBe('SETTLED');
    const settled = await core.getRound(op, { roundId });
    for (const [i, p] of crowd.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.status === 'rejected') expect(outcome.reason.code).toBe('ROUND_NOT_OPEN');
      const landed = outcome.status === 'fulfilled';
      const position = view.positions.find((x) => x.playerId === p)!;
      expect(position.stake, p).toBe(landed ? (i % 2 ? 1_000 : 0) : 2_000);
      const refund = await refundOf(next.roundId, p, 'w');
      expect(refund?.state, p).toBe(landed ? 'CREDITED' : undefined);
      const first = settled.positions.find((x) => x.playerId === p)!;
      expect(wallet.balanceOf(p), p).toBe(
        FUNDS - first.stake + (first.payout ?? 0) - position.stake + (position.payout ?? 0),
      );
    }
    bookedOnce();
  });
});

describe('the books of this file', () => {
  it("reconcile to the unit with the operator wallet's, the reconciliation's net equals them, and the rounds replay VERIFIED", async () => {
    const end = f.at(1_000);
    // Each of the operator's bookings is a record, to the unit; each moving record is booked; each
    // player's balance is what his records moved; the reconciliation's net equals the books.
    const { records, summary } = await expectBooksReconcile(f, {
      from: start,
      to: end,
      players: { ids: f.players, funds: FUNDS },
    });
    // No debit of this file was given up: every booking stands.
    expect(records.filter((r) => r.op === 'ROLLBACK' || r.rollbackTxId !== undefined)).toEqual([]);
    const refunds = records.filter((r) => r.op === 'CREDIT' && r.requestHash !== undefined);
    expect(refunds.length).toBeGreaterThanOrEqual(8);
    const refunded = summary.totals.find((t) => t.kind === 'REFUND' && t.state === 'CREDITED');
    expect(refunded?.amount).toBe(refunds.reduce((s, r) => s + r.amount, 0));
    // Replay and recall check the refunds as the positions' calls (BET_WITHDRAWAL), like hosted ones.
    await core.closeShoe(admin(OP), { shoeId: table!.shoeId, reason: 'END_OF_SESSION' });
    await expectReplaysVerified(f, rounds);
    await expectRecallVerified(f, refunds[0]!.playerId, 5);
    // The player's history: his win/loss is what his records moved (bets, refunds, payouts).
    const history = await core.playerHistory(op, { playerId: 'wp-1', from: start, to: end, limit: 5 });
    expect(history.totals!.winLoss).toBe(wallet.balanceOf('wp-1')! - FUNDS);
  });
});
