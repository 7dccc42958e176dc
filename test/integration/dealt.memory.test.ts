/**
 * test/support/dealt: the shoe a test asks for is the shoe the product deals — every coup resolved
 * is the one the helper promised, and the shoe replays VERIFIED. If the dealing scheme changes
 * (issue 24: per-coup draws), this fails here first, not as a test elsewhere quietly getting
 * another shoe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { openRoundDealing, PINNED_V2 } from '../support/dealt';
import { tableWithShoe } from '../support/fixture';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('dealt', PINNED_V2);
});
afterAll(() => stack?.cleanup());

const op = operator();

describe('a shoe dealt to order', () => {
  it('deals what was asked (a tie with a pair first, then a natural), coup by coup, and verifies', async () => {
    const { core } = stack;
    const { table, shoe } = await tableWithShoe(core, {
      name: 'Dealt',
      variant: 'custom',
      config: { decks: 1 },
    });
    const dealt = await openRoundDealing(stack, op, {
      tableId: table.tableId,
      deals: (coups) =>
        coups.length > 3 &&
        coups[0]!.result.winner === 'TIE' &&
        (coups[0]!.result.playerPair || coups[0]!.result.bankerPair) &&
        coups[1]!.result.natural,
    });
    let roundId = dealt.round.roundId;
    for (let i = 0; i < 3; i++) {
      if (i > 0) roundId = (await core.openRound(op, { tableId: table.tableId })).roundId;
      const resolved = await core.resolveRound(op, { roundId });
      const promised = dealt.coups[i]!;
      expect(resolved.result, `coup ${i + 1}`).toMatchObject({
        start: promised.start,
        winner: promised.result.winner,
        cardsUsed: promised.result.cardsUsed,
        playerPair: promised.result.playerPair,
        bankerPair: promised.result.bankerPair,
        natural: promised.result.natural,
      });
    }
    const closed = await core.closeShoe(admin(), { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
    expect(closed.clientSeed).toBe(dealt.clientSeed);
    expect(closed.beacon?.round).toBe(dealt.beaconRound);
    expect((await core.replayRound(op, { roundId })).verification.status).toBe('VERIFIED');
  });
});
