/**
 * Reducing and withdrawing bets before "no va más" (seed 004 forbids it only once the coup starts):
 * the stake back through the ledger, idempotent on the client's key, and exact under concurrency —
 * concurrent raises, reductions and bets on one position, and withdrawals racing "no va más".
 */
import type { Core, PlaceBetResult } from '@pyb/core';
import { verifyShoe } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundedPlayer, tableWithRound } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
beforeAll(async () => {
  stack = await createTestStack('withdraw');
  core = stack.core;
});
afterAll(() => stack?.cleanup());

const op = operator();
const FUNDS = 1_000_000;
const player = (amount = FUNDS) => fundedPlayer(core, op, { prefix: 'wd', amount });

async function round(config: Record<string, unknown> = {}) {
  const { table, shoe, round } = await tableWithRound(core, op, { name: 'W', variant: 'mini', config });
  return { tableId: table.tableId, shoeId: shoe.shoeId, roundId: round.roundId };
}

/** The wallet adds up: its ledger sums to the balance, and what the position holds left it. */
async function reconciles(playerId: string, staked: number) {
  const wallet = await core.getWallet(op, { playerId });
  const ledger = await wholeLedger(core, op, playerId);
  expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
  expect(wallet.balance).toBe(FUNDS - staked);
}

describe('reduce and withdraw before "no va más"', () => {
  it('gives the difference back through the ledger, keeps the rules, and is idempotent', async () => {
    const { roundId } = await round();
    const p = await player();
    await core.placeBet(op, {
      roundId,
      playerId: p,
      bets: [
        { type: 'BANKER', amount: 5_000 },
        { type: 'TIE', amount: 1_000 },
      ],
      idempotencyKey: 'bet',
    });
    const reduce = { roundId, playerId: p, bets: [{ type: 'BANKER' as const, amount: 2_000 }] };
    const first = await core.withdrawBets(op, { ...reduce, idempotencyKey: 'r1' });
    expect(first.position.bets.map((b) => [b.type, b.amount])).toEqual([
      ['BANKER', 3_000],
      ['TIE', 1_000],
    ]);
    expect([first.entry.kind, first.entry.amount, first.position.stake]).toEqual([
      'BET_WITHDRAWAL',
      2_000,
      4_000,
    ]);
    // The same key again: the first answer, nothing moved twice; with another body: refused.
    const again = await core.withdrawBets(op, { ...reduce, idempotencyKey: 'r1' });
    expect([again.replayed, again.entry.seq, again.balance]).toEqual([true, first.entry.seq, first.balance]);
    expect(
      await codeOf(
        core.withdrawBets(op, { ...reduce, bets: [{ type: 'BANKER', amount: 1_000 }], idempotencyKey: 'r1' }),
      ),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await codeOf(core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'bet' }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    // What stays must keep the table's rules; more than was bet, or a bet not placed, is refused.
    const r = (amount: number, type: 'BANKER' | 'TIE' | 'PLAYER' = 'BANKER', key = `x-${amount}-${type}`) =>
      core.withdrawBets(op, { roundId, playerId: p, bets: [{ type, amount }], idempotencyKey: key });
    expect(await codeOf(r(2_950))).toBe('BET_BELOW_MIN');
    expect(await codeOf(r(3_001))).toBe('BET_REDUCE_TOO_LARGE');
    expect(await codeOf(r(100, 'PLAYER'))).toBe('BET_NOT_PLACED');
    // Withdrawing a type whole, then everything.
    const noTie = await core.withdrawBets(op, { roundId, playerId: p, types: ['TIE'], idempotencyKey: 'c1' });
    expect(noTie.position.bets.map((b) => b.type)).toEqual(['BANKER']);
    const none = await core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'c2' });
    expect([none.position.stake, none.position.bets]).toEqual([0, []]);
    expect(await codeOf(core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'c3' }))).toBe(
      'BET_NOT_PLACED',
    );
    await reconciles(p, 0);
    // Betting again after withdrawing everything is a bet like any other.
    await core.placeBet(op, {
      roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 700 }],
      idempotencyKey: 'b2',
    });
    const view = await core.resolveRound(op, { roundId });
    const mine = view.positions.find((x) => x.playerId === p)!;
    expect(mine.stake).toBe(700);
    const kinds = (await wholeLedger(core, op, p)).map((e) => e.kind);
    expect(kinds.slice(0, 6)).toEqual([
      'CREDIT',
      'BET',
      'BET_WITHDRAWAL',
      'BET_WITHDRAWAL',
      'BET_WITHDRAWAL',
      'BET',
    ]);
  });

  it('releases the reserve of a withdrawn Banca bet (deferred commission)', async () => {
    const { roundId } = await round({ commission: { mode: 'DEFERRED' } });
    const p = await player();
    await core.placeBet(op, {
      roundId,
      playerId: p,
      bets: [{ type: 'BANKER', amount: 10_000 }],
      idempotencyKey: 'b',
    });
    expect((await core.getWallet(op, { playerId: p })).reserved).toBe(500);
    await core.withdrawBets(op, {
      roundId,
      playerId: p,
      bets: [{ type: 'BANKER', amount: 6_000 }],
      idempotencyKey: 'r',
    });
    expect((await core.getWallet(op, { playerId: p })).reserved).toBe(200);
    await core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'c' });
    const wallet = await core.getWallet(op, { playerId: p });
    expect([wallet.balance, wallet.reserved, wallet.available]).toEqual([FUNDS, 0, FUNDS]);
  });

  it('is refused once "no va más" was called, moving nothing', async () => {
    const { roundId } = await round();
    const p = await player();
    await core.placeBet(op, {
      roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 1_000 }],
      idempotencyKey: 'b',
    });
    await core.resolveRound(op, { roundId });
    const before = await wholeLedger(core, op, p);
    expect(await codeOf(core.withdrawBets(op, { roundId, playerId: p, idempotencyKey: 'late' }))).toBe(
      'ROUND_NOT_OPEN',
    );
    expect(await wholeLedger(core, op, p)).toEqual(before);
  });
});

describe('under concurrency', () => {
  it('concurrent raises, reductions and bets on one position: each applied once, exactly, in some order', async () => {
    const { roundId, shoeId } = await round();
    const p = await player();
    await core.placeBet(op, {
      roundId,
      playerId: p,
      bets: [{ type: 'PLAYER', amount: 50_000 }],
      idempotencyKey: 'base',
    });
    // 30 calls at once on one position: raises of 1,000, reductions of 500, and Tie bets of 100.
    const calls: Promise<PlaceBetResult>[] = [];
    for (let i = 0; i < 10; i++) {
      calls.push(
        core.placeBet(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'PLAYER', amount: 1_000 }],
          idempotencyKey: `up-${i}`,
        }),
        core.withdrawBets(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: `down-${i}`,
        }),
        core.placeBet(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'TIE', amount: 100 }],
          idempotencyKey: `tie-${i}`,
        }),
      );
    }
    const results = await Promise.all(calls);
    expect(results.every((r) => !r.replayed)).toBe(true);
    const position = (await stack.store.get('position', { roundId, playerId: p }))!;
    expect(position.bets).toEqual({ PLAYER: 55_000, TIE: 1_000 });
    expect([position.stake, position.calls]).toEqual([56_000, 31]);
    // Each call is one ledger entry, their sequence numbers the position's [firstSeq, lastSeq].
    const ledger = await wholeLedger(core, op, p);
    const mine = ledger.filter((e) => e.roundId === roundId);
    expect(mine).toHaveLength(31);
    expect([mine[0]!.seq, mine.at(-1)!.seq]).toEqual([position.firstSeq, position.lastSeq]);
    await reconciles(p, 56_000);
    // Retrying all of them changes nothing.
    const retried = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        core.withdrawBets(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: `down-${i}`,
        }),
      ),
    );
    expect(retried.every((r) => r.replayed)).toBe(true);
    expect((await stack.store.get('position', { roundId, playerId: p }))!.calls).toBe(31);
    await core.resolveRound(op, { roundId });
    await core.closeShoe(admin(), { shoeId, reason: 'END_OF_SESSION' });
    const replay = await core.replayRound(op, { roundId });
    expect(replay.verification.status).toBe('VERIFIED');
  });

  it('withdrawals racing "no va más": each lands before it (listed, money back) or after (refused), never half', async () => {
    const { roundId, shoeId } = await round();
    const crowd = await Promise.all(Array.from({ length: 24 }, () => player()));
    await Promise.all(
      crowd.map((p) =>
        core.placeBet(op, {
          roundId,
          playerId: p,
          bets: [{ type: 'BANKER', amount: 2_000 }],
          idempotencyKey: 'b',
        }),
      ),
    );
    const withdrawals = crowd.map((p, i) =>
      core.withdrawBets(op, {
        roundId,
        playerId: p,
        ...(i % 2 ? { bets: [{ type: 'BANKER' as const, amount: 1_000 }] } : {}),
        idempotencyKey: 'w',
      }),
    );
    const [resolved, ...outcomes] = await Promise.allSettled([
      core.resolveRound(op, { roundId }),
      ...withdrawals,
    ]);
    expect(resolved.status).toBe('fulfilled');
    const view = await core.getRound(op, { roundId });
    expect(view.status).toBe('SETTLED');
    const landed = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(
      outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code),
    ).toEqual(Array(outcomes.length - landed).fill('ROUND_NOT_OPEN'));
    for (const [i, p] of crowd.entries()) {
      const position = view.positions.find((x) => x.playerId === p)!;
      const expected = outcomes[i]!.status === 'fulfilled' ? (i % 2 ? 1_000 : 0) : 2_000;
      expect(position.stake, p).toBe(expected);
      const wallet = await core.getWallet(op, { playerId: p });
      expect(wallet.balance, p).toBe(FUNDS - expected + (position.payout ?? 0));
      const ledger = await wholeLedger(core, op, p);
      expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
    }
    // The bets committed at "no va más" are the bets settled: the replay recomputes the digest.
    await core.closeShoe(admin(), { shoeId, reason: 'END_OF_SESSION' });
    const replay = await core.replayRound(op, { roundId });
    expect(replay.verification.status).toBe('VERIFIED');
  });
});

describe('a shoe with a position whose every bet was withdrawn', () => {
  it('exports a bundle that verifies (nothing placed, nothing paid), and fails if it says otherwise', async () => {
    const [a, b] = [await player(), await player()];
    const config = { decks: 1, cutCard: { minCardsBehind: 14, maxCardsBehind: 20 } };
    const t = await core.createTable(admin(), { name: 'Withdrawn', variant: 'custom', config });
    const shoe = await core.openShoe(admin(), { tableId: t.tableId });
    const { roundId } = await core.openRound(op, { tableId: t.tableId });
    const bets = [{ type: 'PLAYER' as const, amount: 500 }];
    await core.placeBet(op, { roundId, playerId: a, bets, idempotencyKey: 'e-a' });
    await core.placeBet(op, { roundId, playerId: b, bets, idempotencyKey: 'e-b' });
    await core.withdrawBets(op, { roundId, playerId: b, idempotencyKey: 'e-b-all' });
    await core.resolveRound(op, { roundId });
    await core.closeShoe(admin(), { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
    const bundle = await core.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId });
    const trust = {
      trustedPublicKey: [(await stack.keys.publicKey()).pem],
      trustedBeacons: [bundle.statement.beacon],
      trustedTimeStampAuthorities: [stack.timeStamps.pem],
    };
    const empty = bundle.rounds[0]!.positions.find((p) => p.playerId === b)!;
    expect([empty.stake, empty.settlement?.bets]).toEqual([0, []]);
    const verified = await verifyShoe(bundle, trust);
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.verdict).toBe('verified');
    const forged = structuredClone(bundle);
    forged.rounds[0]!.positions.find((p) => p.playerId === b)!.settlement!.payout = 500;
    expect((await verifyShoe(forged, trust)).checks.filter((c) => !c.ok).map((c) => c.id)).toContain(
      `round.1.player.${b}.payout`,
    );
  });
});
