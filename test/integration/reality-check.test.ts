/**
 * Reality checks at the interval the player set (issue #28 item 5; UKGC RTS 13, RD 1613/2011 art.
 * 3.2): with `realityCheckMinutes`, the first bet of a table session after each interval of play
 * answers `realityCheck` (time played, staked, net so far), once per interval; recorded on the
 * wallet's session. On the in-memory Store and DynamoDB Local, time passing with the stack's clock.
 */
import type { Core } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { createTestStack, type TestStack } from '../support/stack';

const MINUTE = 60_000;
let stack: TestStack;
let core: Core;
beforeAll(async () => {
  stack = await createTestStack('reality-check');
  core = stack.core;
});
afterAll(() => stack?.cleanup());

const op = operator();
let keys = 0;

describe('reality checks', () => {
  it('answers the first bet after each interval the player set with the reality check, once per interval', async () => {
    const playerId = await fundedPlayer(core, op, { prefix: 'rc', amount: 1_000_000 });
    const { round } = await tableWithRound(core, op, { name: 'Reality', variant: 'mini' });
    const status = await core.setResponsibleGaming(op, {
      playerId,
      idempotencyKey: `rc-set-${++keys}`,
      realityCheckMinutes: 30,
    });
    expect(status.realityCheckMinutes).toBe(30);
    const bet = () =>
      core.placeBet(op, {
        roundId: round.roundId,
        playerId,
        bets: [{ type: 'PLAYER', amount: 1_000 }],
        idempotencyKey: `rc-bet-${++keys}`,
      });
    const checks: (number | undefined)[] = [];
    // A bet every 15 minutes (inside the session time-out): 0, 15, 30, 45, 60, 75 minutes of play.
    for (let i = 0; i < 6; i++) {
      if (i > 0) await stack.clock.sleep!(15 * MINUTE);
      checks.push((await bet()).realityCheck?.minutesPlayed);
    }
    expect(checks).toEqual([undefined, undefined, 30, undefined, 60, undefined]);
    const first = await bet();
    expect(first.realityCheck).toBeUndefined();
  });

  it('shows none without an interval, and none after the player removes it', async () => {
    const playerId = await fundedPlayer(core, op, { prefix: 'rc', amount: 1_000_000 });
    const { round } = await tableWithRound(core, op, { name: 'Reality 2', variant: 'mini' });
    const bet = () =>
      core.placeBet(op, {
        roundId: round.roundId,
        playerId,
        bets: [{ type: 'PLAYER', amount: 1_000 }],
        idempotencyKey: `rc-bet-${++keys}`,
      });
    await bet();
    await stack.clock.sleep!(15 * MINUTE);
    await core.setResponsibleGaming(op, {
      playerId,
      idempotencyKey: `rc-set-${++keys}`,
      realityCheckMinutes: 10,
    });
    const due = await bet();
    expect(due.realityCheck).toMatchObject({ minutesPlayed: 15, staked: expect.any(Number) });
    const removed = await core.setResponsibleGaming(op, {
      playerId,
      idempotencyKey: `rc-set-${++keys}`,
      realityCheckMinutes: null,
    });
    expect(removed.realityCheckMinutes).toBeUndefined();
    await stack.clock.sleep!(15 * MINUTE);
    expect((await bet()).realityCheck).toBeUndefined();
  });
});
