/**
 * The end of a shoe: "última mano" announced before the bets of the last coup where the rules make it
 * knowable (seed 004), and deferred commission kept per seat and collected when the shoe ends, without
 * waiting for an admin to close it (seed 000).
 */
import type { Core, RoundView } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { type Dealing, openRoundDealing, PINNED_V2 } from '../support/dealt';
import { fundedPlayer, tableWithShoe } from '../support/fixture';
import { wholeLedger } from '../support/game';
import { deterministicSeeds } from '../support/keys';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
beforeAll(async () => {
  stack = await createTestStack('shoe-end', PINNED_V2);
  core = stack.coreWith({ keys: deterministicSeeds(stack.keys, 'shoe-end') });
});
afterAll(() => stack?.cleanup());

const op = operator();
const player = () => fundedPlayer(core, op, { prefix: 'se', amount: 5_000_000 });

interface Played {
  opened: RoundView;
  resolved: RoundView;
}

/** Plays the shoe of a fresh table to its end: each round, `bet` for it, then resolve. */
async function playToEnd(
  config: Record<string, unknown>,
  bet: (roundId: string, n: number) => Promise<void>,
  deals?: Dealing['deals'],
) {
  // Two decks (a short shoe): a custom table (the presets keep their decks).
  const { table, shoe } = await tableWithShoe(core, { name: 'End', variant: 'custom', config });
  const rounds: Played[] = [];
  for (let n = 1; ; n++) {
    expect(n).toBeLessThan(60);
    const opened =
      n === 1 && deals
        ? (await openRoundDealing(stack, op, { tableId: table.tableId, deals })).round
        : await core.openRound(op, { tableId: table.tableId });
    await bet(opened.roundId, n);
    const resolved = await core.resolveRound(op, { roundId: opened.roundId });
    rounds.push({ opened, resolved });
    if (resolved.lastCoup) return { tableId: table.tableId, shoeId: shoe.shoeId, rounds };
  }
}

describe('"última mano" (seed 004)', () => {
  it('ONE_MORE_COUP: the round after the cut card came out opens announced as the last, before its bets', async () => {
    const p = await player();
    const { shoeId, rounds } = await playToEnd({ decks: 2, afterCutCard: 'ONE_MORE_COUP' }, (roundId, n) =>
      core
        .placeBet(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: `b${n}`,
        })
        .then(() => undefined),
    );
    const last = rounds.at(-1)!;
    const before = rounds.at(-2)!;
    expect(before.resolved.result!.cutCardOut).toBe(true);
    expect([before.opened.lastCoup, before.resolved.lastCoup]).toEqual([false, false]);
    // Announced when it opened, while it took bets; and dealt as the last.
    expect([last.opened.status, last.opened.lastCoup]).toEqual(['OPEN', true]);
    expect(last.resolved.lastCoup).toBe(true);
    expect(rounds.slice(0, -1).every((r) => !r.opened.lastCoup)).toBe(true);
    const audit = await stack.store.listAudit(shoeId);
    const opened = audit.filter((e) => e.type === 'ROUND_OPENED').map((e) => JSON.parse(e.event).data);
    expect(opened.map((d) => d.lastCoup === true)).toEqual(rounds.map((_, i) => i === rounds.length - 1));
    expect((await core.getShoe(op, { shoeId })).phase).toBe('ENDED');
    expect((await core.checkShoeChain(op, { shoeId })).problems).toEqual([]);
  });

  it('FINISH_COUP: the cut card comes out during the last coup, so nothing is announced before its bets', async () => {
    const p = await player();
    const { rounds } = await playToEnd({ decks: 2 }, (roundId, n) =>
      core
        .placeBet(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: `f${n}`,
        })
        .then(() => undefined),
    );
    expect(rounds.every((r) => !r.opened.lastCoup)).toBe(true);
    const last = rounds.at(-1)!.resolved;
    expect([last.lastCoup, last.result!.cutCardOut]).toEqual([true, true]);
  });
});

describe('deferred commission per seat (seed 000)', () => {
  it('on a shoe dealt with a Banca win: is kept at each seat and collected when the shoe ends, before any admin closes it', async () => {
    const seated = [await player(), await player(), await player()];
    const standing = await player();
    const { shoeId } = await playToEnd(
      { decks: 2, commission: { mode: 'DEFERRED' }, afterCutCard: 'ONE_MORE_COUP' },
      async (roundId, n) => {
        await Promise.all([
          ...seated.map((p, i) =>
            core.placeBet(op, {
              roundId,
              playerId: p,
              bets: [{ type: 'BANKER', amount: 2_000 }],
              ...(n === 1 && { seat: i + 2 }),
              idempotencyKey: `s${n}`,
            }),
          ),
          core.placeBet(op, {
            roundId,
            playerId: standing,
            bets: [{ type: 'BANKER', amount: 1_000 }],
            idempotencyKey: `s${n}`,
          }),
        ]);
      },
      // Everyone bets Banca on every coup: one Banca win is a debt at every seat and for the standing player.
      (coups) => coups.some((c) => c.result.winner === 'BANKER'),
    );
    // The shoe ended (cut card), nobody closed it: what each player owed is already collected.
    expect((await core.getShoe(op, { shoeId })).phase).toBe('ENDED');
    const debts = await stack.store.listDebts(shoeId);
    expect(debts.map((d) => [d.playerId, d.seat ?? null]).sort()).toEqual(
      [...seated.map((p, i) => [p, i + 2]), [standing, null]].sort(),
    );
    for (const debt of debts) {
      expect(debt.collected, debt.playerId).toBeGreaterThan(0);
      expect(debt.owed).toBe(0);
      const wallet = await core.getWallet(op, { playerId: debt.playerId });
      expect(wallet.commissionOwed).toBe(0);
      const ledger = await wholeLedger(core, op, debt.playerId);
      expect(ledger.filter((e) => e.kind === 'COMMISSION').reduce((s, e) => s - e.amount, 0)).toBe(
        debt.collected,
      );
      expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
    }
    // The close finds nothing left to collect, and reports what was.
    const closed = await core.closeShoe(admin(), { shoeId });
    expect(closed.phase).toBe('CLOSED');
    const after = await stack.store.listDebts(shoeId);
    expect(after).toEqual(debts);
    expect((await core.checkShoeChain(op, { shoeId })).problems).toEqual([]);
  });
});
