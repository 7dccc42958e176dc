/**
 * Numbered seats and standing bettors (seeds 000, 003, 004): seats taken first come, every further
 * player bets standing without limit, one place per player per coup, a seat lost by a player who sits
 * out more than three consecutive coups when someone claims it — a coup whose bets he withdrew before
 * "no va más" is one he sat out, hosted and seamless — a seat freed when its holder leaves.
 */
import type { Actor, Core, PlaceBetInput, SeatRecord, Store } from '@pyb/core';
import { getSeats } from '@pyb/core/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { DelegatingStore } from '../support/faulty-store';
import { fundedPlayer, tableWithShoe } from '../support/fixture';
import { codeOf } from '../support/game';
import { type SeamlessFixture, seamlessFixture } from '../support/seamless';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('seats');
});
afterAll(() => stack?.cleanup());

const op = operator();
const players = (n: number) =>
  Promise.all(
    Array.from({ length: n }, () => fundedPlayer(stack.core, op, { prefix: 'st', amount: 1_000_000 })),
  );

const table = async () => (await tableWithShoe(stack.core, { name: 'Mini', variant: 'mini' })).table.tableId;

let keys = 0;
const bet = (roundId: string, playerId: string, extra: Partial<PlaceBetInput> = {}) =>
  stack.core.placeBet(op, {
    roundId,
    playerId,
    bets: [{ type: 'PLAYER', amount: 500 }],
    idempotencyKey: `b-${++keys}`,
    ...extra,
  });

/** Opens the table's next round, runs `bets` in it, resolves it. */
async function coup(tableId: string, bets: (roundId: string) => Promise<unknown>) {
  const round = await stack.core.openRound(op, { tableId });
  await bets(round.roundId);
  return stack.core.resolveRound(op, { roundId: round.roundId });
}

describe('seats', () => {
  it('a seat goes to the first to claim it, even under concurrency; the others are told, and may stand', async () => {
    const tableId = await table();
    const round = await stack.core.openRound(op, { tableId });
    const crowd = await players(6);
    const claims = await Promise.allSettled(crowd.map((p) => bet(round.roundId, p, { seat: 3 })));
    const won = claims.filter((c) => c.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(claims.flatMap((c) => (c.status === 'rejected' ? [c.reason.code] : []))).toEqual(
      Array(5).fill('SEAT_TAKEN'),
    );
    const holder = crowd[claims.findIndex((c) => c.status === 'fulfilled')]!;
    // The refused ones moved no money; they bet standing instead.
    for (const p of crowd.filter((x) => x !== holder)) {
      expect((await stack.core.getWallet(op, { playerId: p })).balance).toBe(1_000_000);
      expect((await bet(round.roundId, p)).position.seat).toBeNull();
    }
    const view = await stack.core.getRound(op, { roundId: round.roundId });
    expect(view.positions.map((p) => p.seat).sort()).toEqual([3, null, null, null, null, null]);
  });

  it('standing bettors are unlimited: 40 players at a 7-seat table, the 7 seats taken first come', async () => {
    const tableId = await table();
    const round = await stack.core.openRound(op, { tableId });
    const crowd = await players(40);
    await Promise.all(crowd.map((p, i) => bet(round.roundId, p, i < 7 ? { seat: i + 1 } : {})));
    const view = await stack.core.getRound(op, { roundId: round.roundId });
    expect(view.positions).toHaveLength(40);
    const seats = view.positions.map((p) => p.seat).filter((s) => s !== null);
    expect(seats.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Every seat is taken: a claim is refused, standing still works.
    const [late] = await players(1);
    expect(await codeOf(bet(round.roundId, late!, { seat: 5 }))).toBe('SEAT_TAKEN');
    expect((await bet(round.roundId, late!)).position.seat).toBeNull();
    expect(await codeOf(bet(round.roundId, late!, { seat: 8 }))).toBe('SEAT_MISMATCH');
    const [other] = await players(1);
    expect(await codeOf(bet(round.roundId, other!, { seat: 8 }))).toBe('SEAT_INVALID');
  });

  it('the holder bets from his seat without naming it; one place per player per coup', async () => {
    const tableId = await table();
    const [ana, ben] = await players(2);
    const r1 = await stack.core.openRound(op, { tableId });
    await bet(r1.roundId, ana!, { seat: 2 });
    // Raising keeps the place; another seat in the same coup, or another seat at all, is refused.
    expect((await bet(r1.roundId, ana!)).position.seat).toBe(2);
    expect(await codeOf(bet(r1.roundId, ana!, { seat: 4 }))).toBe('SEAT_MISMATCH');
    await bet(r1.roundId, ben!);
    expect(await codeOf(bet(r1.roundId, ben!, { seat: 4 }))).toBe('SEAT_MISMATCH');
    await stack.core.resolveRound(op, { roundId: r1.roundId });

    const r2 = await stack.core.openRound(op, { tableId });
    expect((await bet(r2.roundId, ana!)).position.seat).toBe(2);
    expect(await codeOf(bet(r2.roundId, ben!, { seat: 2 }))).toBe('SEAT_TAKEN');
    expect((await bet(r2.roundId, ben!, { seat: 4 })).position.seat).toBe(4);
    const [carl] = await players(1);
    expect(await codeOf(bet(r2.roundId, carl!, { seat: 4 }))).toBe('SEAT_TAKEN');
    await stack.core.resolveRound(op, { roundId: r2.roundId });

    // Holding seat 2, Ana cannot take another seat of the table.
    const r3 = await stack.core.openRound(op, { tableId });
    expect(await codeOf(bet(r3.roundId, ana!, { seat: 6 }))).toBe('ALREADY_SEATED');
    await stack.core.resolveRound(op, { roundId: r3.roundId });
  });

  it('seed 004: a seat is lost after more than three coups without a bet, and only when claimed', async () => {
    const tableId = await table();
    const [ana, ben] = await players(2);
    // The seat map (GET /v1/tables/{id}/seats) says what a claim would find, with the bet path's rule.
    const seat1 = async () => (await getSeats(stack, op, { tableId })).seats[0]!;
    expect(await seat1()).toEqual({
      seat: 1,
      playerId: null,
      lastRound: null,
      coupsWithoutBet: null,
      idle: false,
    });
    await coup(tableId, (r) => bet(r, ana!, { seat: 1 }));
    expect(await seat1()).toMatchObject({ playerId: ana, lastRound: 1, coupsWithoutBet: 0, idle: false });
    // Three coups without Ana: her seat is still hers.
    for (let i = 0; i < 3; i++) await coup(tableId, (r) => bet(r, ben!));
    expect(await seat1()).toMatchObject({ playerId: ana, coupsWithoutBet: 3, idle: false });
    await coup(tableId, async (r) => {
      // Read while this round is open: it counts from this round, as a claim in it does.
      expect(await seat1()).toMatchObject({ playerId: ana, coupsWithoutBet: 3, idle: false });
      expect(await codeOf(bet(r, ben!, { seat: 1 }))).toBe('SEAT_TAKEN');
      await bet(r, ben!);
    });
    expect(await seat1()).toMatchObject({ playerId: ana, coupsWithoutBet: 4, idle: true });
    // That was her fourth coup out: now a claim takes the seat.
    await coup(tableId, async (r) => {
      expect((await bet(r, ben!, { seat: 1 })).position.seat).toBe(1);
    });
    expect(await seat1()).toMatchObject({ playerId: ben, lastRound: 6, coupsWithoutBet: 0, idle: false });
    // Ana comes back: she bets standing (her seat went to Ben).
    await coup(tableId, async (r) => {
      expect((await bet(r, ana!)).position.seat).toBeNull();
      expect((await bet(r, ben!)).position.seat).toBe(1);
    });
  });

  it('an idle holder betting again and a claimer racing for his seat: one of them has it, never both', async () => {
    const tableId = await table();
    const [ana, ben, filler] = await players(3);
    await coup(tableId, (r) => bet(r, ana!, { seat: 5 }));
    for (let i = 0; i < 4; i++) await coup(tableId, (r) => bet(r, filler!));
    const round = await stack.core.openRound(op, { tableId });
    const [back, claim] = await Promise.allSettled([
      bet(round.roundId, ana!),
      bet(round.roundId, ben!, { seat: 5 }),
    ]);
    expect(back.status).toBe('fulfilled');
    const anaSeat = back.status === 'fulfilled' ? back.value.position.seat : undefined;
    if (claim.status === 'fulfilled') {
      expect([anaSeat, claim.value.position.seat]).toEqual([null, 5]);
    } else {
      expect([anaSeat, claim.reason.code]).toEqual([5, 'SEAT_TAKEN']);
    }
    const seat5 = (await stack.store.listSeats(tableId)).find((s) => s.seat === 5)!;
    expect(seat5.playerId).toBe(claim.status === 'fulfilled' ? ben : ana);
  });

  it('leaving the table frees the seat', async () => {
    const tableId = await table();
    const [ana, ben] = await players(2);
    await coup(tableId, (r) => bet(r, ana!, { seat: 7 }));
    const left = await stack.core.leaveTable(op, { tableId, playerId: ana! });
    expect(left.seatReleased).toBe(7);
    await coup(tableId, async (r) => {
      expect((await bet(r, ben!, { seat: 7 })).position.seat).toBe(7);
    });
    expect((await stack.core.leaveTable(op, { tableId, playerId: ana! })).seatReleased).toBeNull();
  });

  it('seed 004: a coup whose bets the holder withdrew before "no va más" is a coup he sat out', async () => {
    const tableId = await table();
    const [ana, ben] = await players(2);
    await withdrawnCoups({
      core: stack.core,
      store: stack.store,
      op,
      tableId,
      ana: ana!,
      ben: ben!,
      key: () => `w-${++keys}`,
    });
  });
  it('a stale read of the seats is retried strongly: never recorded as the mark, never SEAT_TAKEN', async () => {
    const tableId = await table();
    const [ana] = await players(1);
    // The bet path's eventually consistent reads of the seats answer `stale` once it is set.
    let stale: SeatRecord[] | undefined;
    class LaggingSeats extends DelegatingStore {
      override listSeats: Store['listSeats'] = (t, options) =>
        options?.consistent === false && stale ? Promise.resolve(stale) : this.inner.listSeats(t, options);
    }
    const core = stack.coreWith({ store: new LaggingSeats(stack.store) });
    const call = { playerId: ana!, bets: [{ type: 'PLAYER' as const, amount: 500 }] };
    const seat1 = async () => (await stack.store.listSeats(tableId)).find((s) => s.seat === 1)!;
    await coup(tableId, (r) => bet(r, ana!, { seat: 1 }));
    const { roundId } = await core.openRound(op, { tableId });
    await core.placeBet(op, { roundId, ...call, idempotencyKey: `b-${++keys}` });
    stale = await stack.store.listSeats(tableId);
    expect(stale.find((s) => s.seat === 1)?.lastRound).toBe(2);
    await core.withdrawBets(op, { roundId, playerId: ana!, idempotencyKey: `w-${++keys}` });
    expect((await seat1()).lastRound).toBe(1);
    // Her bet again, naming her seat, reads it marked 2 (stale): the mark fails on the seat as it is
    // (1), the retry reads strongly and marks it, keeping 1 as what was there before.
    const again = await core.placeBet(op, { roundId, ...call, seat: 1, idempotencyKey: `b-${++keys}` });
    expect(again.position.seat).toBe(1);
    expect((await seat1()).lastRound).toBe(2);
    expect((await stack.store.get('position', { roundId, playerId: ana! }))?.seatBefore).toBe(1);
    await core.withdrawBets(op, { roundId, playerId: ana!, idempotencyKey: `w-${++keys}` });
    expect((await seat1()).lastRound).toBe(1);
    await stack.core.resolveRound(op, { roundId });
  });
});

describe('seats of a seamless operator', () => {
  let f: SeamlessFixture;
  beforeAll(async () => {
    f = await seamlessFixture({
      label: 'seats-seamless',
      operatorId: 'op-seats-seamless',
      secret: 'seats-seamless-secret-0123456789abcdef',
      players: { prefix: 'ss', funds: 1_000_000 },
    });
  });
  afterAll(() => f?.close());

  it('seed 004: a coup whose bets the holder withdrew before "no va más" is a coup he sat out', async () => {
    const { tableId } = await f.core.createTable(admin(f.operatorId), { name: 'Mini', variant: 'mini' });
    await f.core.openShoe(admin(f.operatorId), { tableId });
    let n = 0;
    await withdrawnCoups({
      core: f.core,
      store: f.stack.store,
      op: f.op,
      tableId,
      ana: f.player(),
      ben: f.player(),
      key: () => `k-${++n}`,
    });
  });
});

/**
 * Ana holds seat 1 and, coup after coup, bets and withdraws everything before "no va más": she has
 * not played those coups (004:63 "el jugador que no participa"), so after four of them Ben's claim
 * takes the seat. A coup where she bets again after withdrawing, or keeps part of her stake, is played.
 */
async function withdrawnCoups(o: {
  core: Core;
  store: Store;
  op: Actor;
  tableId: string;
  ana: string;
  ben: string;
  key: () => string;
}) {
  const { core, op: actor, tableId, ana, ben } = o;
  const place = (roundId: string, playerId: string, extra: Partial<PlaceBetInput> = {}) =>
    core.placeBet(actor, {
      roundId,
      playerId,
      bets: [{ type: 'PLAYER', amount: 500 }],
      idempotencyKey: o.key(),
      ...extra,
    });
  const withdrawAll = (roundId: string, playerId: string) =>
    core.withdrawBets(actor, { roundId, playerId, idempotencyKey: o.key() });
  const seat1 = async () => (await getSeats(o, actor, { tableId })).seats[0]!;
  const play = async (bets: (roundId: string) => Promise<unknown>) => {
    const round = await core.openRound(actor, { tableId });
    await bets(round.roundId);
    await core.resolveRound(actor, { roundId: round.roundId });
  };
  await play((r) => place(r, ana, { seat: 1 }));
  // Withdrawn, then bet again: played. Reduced, not withdrawn: played.
  await play(async (r) => {
    await place(r, ana);
    await withdrawAll(r, ana);
    expect((await place(r, ana)).position.seat).toBe(1);
  });
  await play(async (r) => {
    await place(r, ana, { bets: [{ type: 'PLAYER', amount: 1_000 }] });
    await core.withdrawBets(actor, {
      roundId: r,
      playerId: ana,
      bets: [{ type: 'PLAYER', amount: 500 }],
      idempotencyKey: o.key(),
    });
  });
  expect(await seat1()).toMatchObject({ playerId: ana, lastRound: 3, coupsWithoutBet: 0 });
  // Four coups bet and withdrawn: not played. After three the seat is still hers.
  for (let i = 0; i < 4; i++) {
    if (i === 3) expect(await seat1()).toMatchObject({ playerId: ana, coupsWithoutBet: 3, idle: false });
    await play(async (r) => {
      await place(r, ana);
      const withdrawn = await withdrawAll(r, ana);
      expect(withdrawn.position).toMatchObject({ stake: 0, seat: 1 });
    });
  }
  expect(await seat1()).toMatchObject({ playerId: ana, lastRound: 3, coupsWithoutBet: 4, idle: true });
  await play(async (r) => {
    // Her bet marks the coup played, her withdrawal unmarks it: Ben's claim finds the seat idle, and
    // her bet after it is made standing (the seat is his now).
    await place(r, ana);
    expect(await codeOf(place(r, ben, { seat: 1 }))).toBe('SEAT_TAKEN');
    await withdrawAll(r, ana);
    expect((await place(r, ben, { seat: 1 })).position.seat).toBe(1);
    expect((await place(r, ana)).position.seat).toBeNull();
    expect(await codeOf(place(r, ana, { seat: 1 }))).toBe('SEAT_MISMATCH');
  });
  expect(await seat1()).toMatchObject({ playerId: ben, lastRound: 8, coupsWithoutBet: 0 });
  // Ben withdraws in his next coup: seated since coup 8, he has not played coup 9.
  await play(async (r) => {
    await place(r, ben);
    await withdrawAll(r, ben);
  });
  expect(await seat1()).toMatchObject({ playerId: ben, lastRound: 8, coupsWithoutBet: 1 });
}
