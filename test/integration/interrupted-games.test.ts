/**
 * Interrupted games (docs/rules.md, "Interrupted games"; issue #28 item 4): every round is watched
 * from when it opens; a round that stays in a state past that state's deadline is acted on as the
 * published policy says — betting never closed or a coup never dealt: voided, every stake refunded;
 * dealt but not settled: its settlement finished. Before its deadline the check only reschedules.
 * The clock is the test's (its waits take no real time): the deadlines are reached, not waited for.
 */
import type { RoundView } from '@pyb/core';
import { context, enforceRoundDeadline } from '@pyb/core/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { fundPlayers, tableWithShoe } from '../support/fixture';
import { createTestStack, TEST_BEACON, type TestStack } from '../support/stack';

const OP = 'op-interrupted';
const op = operator(OP);
const FUNDS = 100_000;
const CONFIG = { decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;
const MINUTE = 60_000;

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('interrupted');
  await fundPlayers(stack.core, op, ['lia', 'bo'], FUNDS);
});
afterAll(async () => {
  await stack?.cleanup();
});

/** The check as its function runs it: the stack's store, keys and clock; no settlement queue. */
const check = (roundId: string) =>
  enforceRoundDeadline(
    context({
      store: stack.store,
      keys: stack.keys,
      beacon: stack.beacon,
      beaconMarginSeconds: TEST_BEACON.marginSeconds,
      timeStamper: stack.timeStamps.timeStamper,
      clock: stack.clock,
      closeDeadlines: stack.closeDeadlines,
      roundDeadlines: stack.roundDeadlines,
      testShoes: true,
    }),
    { roundId },
  );

const stored = async (roundId: string) => (await stack.store.get('round', { roundId }))!;
const wait = (ms: number) => stack.clock.sleep!(ms);
const balance = async (playerId: string) => (await stack.core.getWallet(op, { playerId })).balance;

async function roundWithBets(name: string): Promise<RoundView> {
  const { table } = await tableWithShoe(stack.core, { name, variant: 'custom', config: CONFIG }, OP);
  const round = await stack.core.openRound(op, { tableId: table.tableId });
  for (const [playerId, type] of [
    ['lia', 'BANKER'],
    ['bo', 'PLAYER'],
  ] as const)
    await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId,
      bets: [{ type, amount: 1_000 }],
      idempotencyKey: `${round.roundId}-${playerId}`,
    });
  return round;
}

describe('a round left in play', () => {
  it('is watched from its opening; betting never closed is voided at its deadline and every stake refunded', async () => {
    const before = { lia: await balance('lia'), bo: await balance('bo') };
    const round = await roundWithBets('Interrupted 1');
    // Scheduled with the round: its betting deadline, ten minutes after it opened.
    const dueAt = new Date(Date.parse(round.openedAt) + 10 * MINUTE).toISOString();
    expect(stack.roundDeadlines.of(round.roundId)).toEqual([
      {
        round: { roundId: round.roundId, tableId: round.tableId, operatorId: OP },
        state: 'OPEN',
        dueAt,
      },
    ]);

    // Early (a schedule that fired ahead, a retried one): nothing done, the same deadline kept.
    await wait(9 * MINUTE);
    expect(await check(round.roundId)).toMatchObject({
      action: 'WAITING',
      status: 'OPEN',
      state: 'OPEN',
      dueAt,
    });
    expect((await stack.core.getRound(op, round)).status).toBe('OPEN');
    expect(stack.roundDeadlines.of(round.roundId)).toHaveLength(1);

    await wait(2 * MINUTE);
    const acted = await check(round.roundId);
    expect(acted).toMatchObject({ action: 'VOIDED', status: 'OPEN', state: 'OPEN' });
    const voided = await stack.core.getRound(op, round);
    expect(voided.status).toBe('VOIDED');
    expect(voided.voidReason).toBe('TECHNICAL_FAULT');
    expect((await stored(round.roundId)).voidNote).toMatch(
      /^interrupted game: betting opened at .* was not closed within 600 s/,
    );
    expect(voided.positions.map((p) => [p.playerId, p.status])).toEqual([
      ['bo', 'REFUNDED'],
      ['lia', 'REFUNDED'],
    ]);
    expect({ lia: await balance('lia'), bo: await balance('bo') }).toEqual(before);

    // Again (a redelivered schedule): nothing more, no refund twice; the table plays on.
    expect(await check(round.roundId)).toMatchObject({ action: 'NONE', status: 'VOIDED' });
    expect({ lia: await balance('lia'), bo: await balance('bo') }).toEqual(before);
    const next = await stack.core.openRound(op, { tableId: round.tableId });
    expect(next.status).toBe('OPEN');
  });

  it('"no va más" called but no coup dealt: watched from the close, voided five minutes after it', async () => {
    const before = await balance('lia');
    const round = await roundWithBets('Interrupted 2');
    await wait(9 * MINUTE);
    await stack.core.closeBetting(op, { roundId: round.roundId });
    // The betting deadline has passed, the deal's has not: the check moves to the close's deadline.
    await wait(2 * MINUTE);
    const closed = await stored(round.roundId);
    const dealDue = new Date(Date.parse(closed.closedAt!) + 5 * MINUTE).toISOString();
    expect(await check(round.roundId)).toMatchObject({
      action: 'WAITING',
      status: 'CLOSED',
      state: 'CLOSED',
      dueAt: dealDue,
    });
    expect(stack.roundDeadlines.of(round.roundId).map((s) => [s.state, s.dueAt])).toEqual([
      ['OPEN', new Date(Date.parse(round.openedAt) + 10 * MINUTE).toISOString()],
      ['CLOSED', dealDue],
    ]);
    await wait(4 * MINUTE);
    expect(await check(round.roundId)).toMatchObject({ action: 'VOIDED', status: 'CLOSED' });
    const voided = await stack.core.getRound(op, round);
    expect(voided.status).toBe('VOIDED');
    expect((await stored(round.roundId)).voidNote).toMatch(
      /^interrupted game: no coup dealt within 300 s of "no va más"/,
    );
    expect(await balance('lia')).toBe(before);
  });

  it('dealt but its settlement lost (batches never delivered): finished at the deadline, each player paid once', async () => {
    // A core whose queue accepts the batches and loses them (a crash between hand-over and delivery).
    const lossy = stack.coreWith({ settlementQueue: { send: async () => undefined }, inlineSettleMax: 0 });
    const round = await roundWithBets('Interrupted 3');
    const dealt = await lossy.resolveRound(op, { roundId: round.roundId });
    expect(dealt.status).toBe('SETTLING');
    const dealtAt = (await stored(round.roundId)).dealtAt!;
    await wait(10 * MINUTE);
    expect(await check(round.roundId)).toMatchObject({ action: 'WAITING', state: 'SETTLING' });
    await wait(6 * MINUTE);
    const acted = await check(round.roundId);
    expect(acted).toMatchObject({ action: 'FINISHED', status: 'SETTLING', state: 'SETTLING' });
    expect(acted.round?.status).toBe('SETTLED');
    expect(stack.roundDeadlines.of(round.roundId).map((s) => s.state)).toEqual(['OPEN', 'SETTLING']);
    expect(stack.roundDeadlines.of(round.roundId)[1]!.dueAt).toBe(
      new Date(Date.parse(dealtAt) + 15 * MINUTE).toISOString(),
    );
    const settled = await stack.core.getRound(op, round);
    expect(settled.positions.every((p) => p.status === 'SETTLED')).toBe(true);
    const paid = await balance('lia');
    expect(await check(round.roundId)).toMatchObject({ action: 'NONE', status: 'SETTLED' });
    expect(await balance('lia')).toBe(paid);
  });

  it('a round the operator finishes in time is left alone', async () => {
    const round = await roundWithBets('Interrupted 4');
    await stack.core.resolveRound(op, { roundId: round.roundId });
    await wait(30 * MINUTE);
    expect(await check(round.roundId)).toMatchObject({ action: 'NONE', status: 'SETTLED' });
    expect(await check('rnd_never_committed')).toEqual({
      roundId: 'rnd_never_committed',
      action: 'NONE',
      status: 'MISSING',
    });
  });
});
