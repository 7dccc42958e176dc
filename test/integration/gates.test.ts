/**
 * "No va más" on sharded betting gates: bets never write a shared item, yet none lands after the
 * close. The worst interleaving is forced: a bet (or a withdrawal) that read the round while it was
 * open commits only after "no va más" — its gate refuses it, and nothing of it is written.
 */
import type { Entities, Entity, EntityKeys, ReadOptions, Store, WriteOp } from '@pyb/core';
import { gateOf } from '@pyb/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../support/actors';
import { DelegatingStore } from '../support/faulty-store';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('gates');
});
afterAll(() => stack?.cleanup());

const op = operator();
const player = () => fundedPlayer(stack.core, op, { prefix: 'gt' });

async function round(betGates?: number) {
  const input = { name: 'G', variant: 'mini', ...(betGates !== undefined && { betGates }) } as const;
  return (await tableWithRound(stack.core, op, input)).round;
}

/**
 * A store that shows the round as it was when the call began (an eventually consistent read that
 * lags), and runs `meanwhile` — "no va más" — just before the call's transaction.
 */
class LateStore extends DelegatingStore {
  private snapshot: Entities['round'] | undefined;
  private fired = false;
  constructor(
    inner: Store,
    private readonly meanwhile: () => Promise<unknown>,
  ) {
    super(inner);
  }

  override async get<E extends Entity>(entity: E, key: EntityKeys[E], options?: ReadOptions) {
    if (entity === 'round') {
      this.snapshot ??= (await this.inner.get('round', key as EntityKeys['round']))!;
      return this.snapshot as Entities[E];
    }
    return this.inner.get(entity, key, options);
  }

  override async transact(ops: readonly WriteOp[]) {
    if (!this.fired && ops.some((o) => o.entity === 'gate' && o.kind === 'check')) {
      this.fired = true;
      await this.meanwhile();
    }
    return this.inner.transact(ops);
  }
}

describe('betting gates', () => {
  it('are created with the round (one item per gate), and all closed by "no va más"', async () => {
    const r = await round(5);
    const gates = async () =>
      Promise.all(
        Array.from({ length: 5 }, (_, gate) => stack.store.get('gate', { roundId: r.roundId, gate })),
      );
    expect((await gates()).map((g) => g?.status)).toEqual(Array(5).fill('OPEN'));
    expect(await stack.store.get('gate', { roundId: r.roundId, gate: 5 })).toBeUndefined();
    await stack.core.resolveRound(op, { roundId: r.roundId });
    expect((await gates()).map((g) => g?.status)).toEqual(Array(5).fill('CLOSED'));
  });

  it('a bet that read the round open but commits after "no va más" is refused by its gate; nothing written', async () => {
    const r = await round();
    const [early, late] = [await player(), await player()];
    await stack.core.placeBet(op, {
      roundId: r.roundId,
      playerId: early,
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: 'b',
    });
    const lateCore = stack.coreWith({
      store: new LateStore(stack.store, () => stack.core.resolveRound(op, { roundId: r.roundId })),
    });
    const bet = lateCore.placeBet(op, {
      roundId: r.roundId,
      playerId: late,
      bets: [{ type: 'BANKER', amount: 1_000 }],
      idempotencyKey: 'b',
    });
    expect(await codeOf(bet)).toBe('ROUND_NOT_OPEN');
    expect(await stack.store.get('position', { roundId: r.roundId, playerId: late })).toBeUndefined();
    expect((await wholeLedger(stack.core, op, late)).map((e) => e.kind)).toEqual(['CREDIT']);
    const view = await stack.core.getRound(op, { roundId: r.roundId });
    expect([view.status, view.positions.map((p) => p.playerId)]).toEqual(['SETTLED', [early]]);
  });

  it('the same for a withdrawal: after "no va más" the bet stays and is settled', async () => {
    const r = await round();
    const p = await player();
    await stack.core.placeBet(op, {
      roundId: r.roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: 'b',
    });
    const lateCore = stack.coreWith({
      store: new LateStore(stack.store, () => stack.core.resolveRound(op, { roundId: r.roundId })),
    });
    expect(
      await codeOf(lateCore.withdrawBets(op, { roundId: r.roundId, playerId: p, idempotencyKey: 'w' })),
    ).toBe('ROUND_NOT_OPEN');
    const view = await stack.core.getRound(op, { roundId: r.roundId });
    expect(view.positions[0]).toMatchObject({ playerId: p, stake: 1_000, status: 'SETTLED' });
  });

  it('a retry of a bet that went through before "no va más" is still answered with the bet', async () => {
    const r = await round();
    const p = await player();
    const input = {
      roundId: r.roundId,
      playerId: p,
      bets: [{ type: 'TIE' as const, amount: 500 }],
      idempotencyKey: 'k',
    };
    const first = await stack.core.placeBet(op, input);
    await stack.core.resolveRound(op, { roundId: r.roundId });
    const retry = await stack.core.placeBet(op, input);
    expect([retry.replayed, retry.entry]).toEqual([true, first.entry]);
  });

  it('bets racing "no va más": every accepted bet is in the committed bets and settled, every refused one moved nothing', async () => {
    const r = await round(4);
    const crowd = await Promise.all(Array.from({ length: 40 }, () => player()));
    // Players spread over the 4 gates (the hash of their id), all betting while resolve closes.
    expect(new Set(crowd.map((p) => gateOf(p, 4))).size).toBe(4);
    const results = await Promise.allSettled([
      stack.core.resolveRound(op, { roundId: r.roundId }),
      ...crowd.map((p) =>
        stack.core.placeBet(op, {
          roundId: r.roundId,
          playerId: p,
          bets: [{ type: 'PLAYER', amount: 1_000 }],
          idempotencyKey: 'b',
        }),
      ),
    ]);
    expect(results[0]!.status).toBe('fulfilled');
    const view = await stack.core.getRound(op, { roundId: r.roundId });
    const listed = new Set(view.positions.map((p) => p.playerId));
    for (const [i, p] of crowd.entries()) {
      const outcome = results[i + 1]!;
      const kinds = (await wholeLedger(stack.core, op, p)).map((e) => e.kind);
      if (outcome.status === 'fulfilled') {
        expect(listed.has(p), p).toBe(true);
        expect(kinds.slice(0, 2)).toEqual(['CREDIT', 'BET']);
      } else {
        expect(outcome.reason.code).toBe('ROUND_NOT_OPEN');
        expect(listed.has(p), p).toBe(false);
        expect(kinds).toEqual(['CREDIT']);
      }
    }
    expect(view.positions.every((p) => p.status === 'SETTLED')).toBe(true);
    const report = await stack.core.checkShoeChain(op, { shoeId: view.shoeId });
    expect(report.problems).toEqual([]);
  });

  it('voiding an open round closes its gates with it: a late bet is refused', async () => {
    const r = await round(3);
    const p = await player();
    const lateCore = stack.coreWith({
      store: new LateStore(stack.store, () =>
        stack.core.voidRound(op, { roundId: r.roundId, reason: 'OPERATOR_ERROR' }),
      ),
    });
    const bet = lateCore.placeBet(op, {
      roundId: r.roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: 'b',
    });
    expect(await codeOf(bet)).toBe('ROUND_NOT_OPEN');
    expect((await stack.core.getRound(op, { roundId: r.roundId })).status).toBe('VOIDED');
    expect((await stack.core.getWallet(op, { playerId: p })).balance).toBe(100_000);
  });
});
