/**
 * A self-exclusion or cooling-off cancels the player's open bets (issue #28 item 5; AGCO 2.14): his
 * bets in rounds whose betting has not closed are withdrawn and their stakes given back through the
 * cancel path (a BET_WITHDRAWAL entry in the wallet's conditional transaction, keyed from the
 * exclusion's Idempotency-Key and the round), once even if the exclusion is retried; rounds whose
 * betting closed keep their bets; other players' bets are untouched. On the in-memory Store and
 * DynamoDB Local.
 */
import type { Core } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
beforeAll(async () => {
  stack = await createTestStack('exclusion-cancels');
  core = stack.core;
});
afterAll(() => stack?.cleanup());

const op = operator();
const FUNDS = 100_000;
const player = () => fundedPlayer(core, op, { prefix: 'xc', amount: FUNDS });
let keys = 0;
const bet = (roundId: string, playerId: string, amount: number) =>
  core.placeBet(op, {
    roundId,
    playerId,
    bets: [{ type: 'PLAYER', amount }],
    idempotencyKey: `xb-${++keys}`,
  });
const openRound = async () =>
  (await tableWithRound(core, op, { name: 'Exclusion', variant: 'mini' })).round.roundId;
const balance = async (playerId: string) => (await core.getWallet(op, { playerId })).balance;

describe('an exclusion cancels the open bets', () => {
  it('gives back every stake of the player in rounds open for bets, once, and leaves closed rounds and other players alone', async () => {
    const [ana, ben] = [await player(), await player()];
    const [open1, open2, closed] = [await openRound(), await openRound(), await openRound()];
    await bet(open1, ana, 1_000);
    await bet(open1, ana, 500);
    await bet(open2, ana, 2_000);
    await bet(closed, ana, 3_000);
    await bet(open1, ben, 1_000);
    await core.closeBetting(op, { roundId: closed });
    expect(await balance(ana)).toBe(FUNDS - 6_500);

    const request = {
      playerId: ana,
      idempotencyKey: 'xc-self-1',
      exclusion: { kind: 'SELF_EXCLUSION', until: null },
    } as const;
    const status = await core.setResponsibleGaming(op, request);
    expect(status.exclusion).toMatchObject({ kind: 'SELF_EXCLUSION' });
    expect(await balance(ana)).toBe(FUNDS - 3_000);
    for (const roundId of [open1, open2]) {
      expect(await stack.store.get('position', { roundId, playerId: ana })).toMatchObject({ stake: 0 });
    }
    expect(await stack.store.get('position', { roundId: closed, playerId: ana })).toMatchObject({
      stake: 3_000,
    });
    expect(await stack.store.get('position', { roundId: open1, playerId: ben })).toMatchObject({
      stake: 1_000,
    });
    expect(await balance(ben)).toBe(FUNDS - 1_000);
    const withdrawals = (await wholeLedger(core, op, ana)).filter((e) => e.kind === 'BET_WITHDRAWAL');
    expect(withdrawals.map((e) => [e.roundId, e.amount]).sort()).toEqual([
      [open1, 1_500],
      [open2, 2_000],
    ]);

    // The operator retries the exclusion (same key): nothing is given back twice.
    const again = await core.setResponsibleGaming(op, request);
    expect(again.replayed).toBe(true);
    expect(await balance(ana)).toBe(FUNDS - 3_000);
    expect((await wholeLedger(core, op, ana)).filter((e) => e.kind === 'BET_WITHDRAWAL')).toHaveLength(2);
  });

  it('cancels on a cooling-off too, and not on a change of limits', async () => {
    const [cai, dan] = [await player(), await player()];
    const roundId = await openRound();
    await bet(roundId, cai, 1_000);
    await bet(roundId, dan, 1_000);
    await core.setResponsibleGaming(op, {
      playerId: dan,
      idempotencyKey: 'xc-limit-1',
      limits: { lossDay: 50_000 },
    });
    expect(await balance(dan)).toBe(FUNDS - 1_000);
    const until = new Date(stack.clock.now().getTime() + 3_600_000).toISOString();
    await core.setResponsibleGaming(op, {
      playerId: cai,
      idempotencyKey: 'xc-cool-1',
      exclusion: { kind: 'COOLING_OFF', until },
    });
    expect(await balance(cai)).toBe(FUNDS);
    expect(await stack.store.get('position', { roundId, playerId: cai })).toMatchObject({ stake: 0 });
  });
});
