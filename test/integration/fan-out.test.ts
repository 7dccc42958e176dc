/**
 * Settlement fanned out on the settlement queue (the in-process adapter, running the same batch
 * handler as the SQS-triggered Lambda): resolve answers SETTLING, the batches settle every position,
 * the last one finishes the round. Crashes mid-batch, lost and dead-lettered batches, duplicate and
 * concurrent deliveries, resolve called again: every position is paid exactly once, the ledgers add up.
 */
import {
  type Core,
  type CoreDeps,
  InProcessSettlementQueue,
  type KeyService,
  type RoundView,
  type SettlementBatch,
} from '@pyb/core';
import { base64ToBytes, headStatementBytes, parsePublicKey, verifyDerSignature } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { bancaWinsFirst, type Dealing, openRoundDealing, PINNED_V2 } from '../support/dealt';
import { CrashingStore } from '../support/faulty-store';
import { fundedPlayer } from '../support/fixture';
import { codeOf, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('fanout', PINNED_V2);
});
afterAll(() => stack?.cleanup());

const op = operator();
const FUNDS = 1_000_000;
const SIZES = { inlineSettleMax: 5, settleBatchSize: 7, batchResendMs: 0 } satisfies Partial<CoreDeps>;

/** A core wired to an in-process queue whose consumer is `worker` (by default the same core). */
function withQueue(worker?: (batch: SettlementBatch, receive: number) => Promise<void>) {
  const queue = new InProcessSettlementQueue({ retryDelayMs: 5 });
  const core = stack.coreWith({ ...SIZES, settlementQueue: queue });
  queue.attach(worker ?? ((b) => core.runSettlementBatch(b)));
  return { core, queue };
}

const crowd = (core: Core, n: number): Promise<string[]> =>
  Promise.all(Array.from({ length: n }, () => fundedPlayer(core, op, { prefix: 'fo', amount: FUNDS })));

/** A table with one round holding `n` positions, half on Punto, half on Banca, some with a Tie. */
async function bigRound(
  core: Core,
  n: number,
  config: Record<string, unknown> = {},
  deals?: Dealing['deals'],
) {
  const table = await core.createTable(admin(), { name: 'Big', variant: 'mini', config });
  const shoe = await core.openShoe(admin(), { tableId: table.tableId });
  const round = deals
    ? (await openRoundDealing(stack, op, { tableId: table.tableId, deals })).round
    : await core.openRound(op, { tableId: table.tableId });
  const players = await crowd(core, n);
  await Promise.all(
    players.map((playerId, i) =>
      core.placeBet(op, {
        roundId: round.roundId,
        playerId,
        bets: [
          { type: i % 2 ? 'BANKER' : 'PLAYER', amount: 1_000 + i },
          ...(i % 5 ? [] : [{ type: 'TIE' as const, amount: 100 }]),
        ],
        idempotencyKey: 'b',
      }),
    ),
  );
  return { tableId: table.tableId, shoeId: shoe.shoeId, roundId: round.roundId, players };
}

/** Each position paid exactly once (one PAYOUT at most, its amount the payout), wallets = their ledgers = stake/payout. */
async function paidOnce(core: Core, view: RoundView) {
  expect(view.status).toBe('SETTLED');
  for (const position of view.positions) {
    const ledger = await wholeLedger(core, op, position.playerId);
    // At most one settlement entry (DEFERRED: one of 0 releases a lost Banca bet's reserve), paying it all.
    const payouts = ledger.filter((e) => e.kind === 'PAYOUT' && e.roundId === view.roundId);
    expect(payouts.length, position.playerId).toBeLessThanOrEqual(1);
    expect(
      payouts.reduce((s, e) => s + e.amount, 0),
      position.playerId,
    ).toBe(position.payout ?? 0);
    const wallet = await core.getWallet(op, { playerId: position.playerId });
    // DEFERRED: what a player leaving paid of his commission left the wallet too.
    const commission = ledger.filter((e) => e.kind === 'COMMISSION').reduce((s, e) => s + e.amount, 0);
    expect(wallet.balance, position.playerId).toBe(
      FUNDS - position.stake + (position.payout ?? 0) + commission,
    );
    expect(ledger.reduce((s, e) => s + e.amount, 0)).toBe(wallet.balance);
  }
  const paid = view.positions.reduce((s, p) => s + (p.payout ?? 0), 0);
  const stored = (await stack.store.get('round', { roundId: view.roundId }))!;
  expect(stored.totals).toMatchObject({ positions: view.positions.length, payout: paid });
  const audit = await stack.store.listAudit(view.shoeId);
  expect(audit.filter((e) => e.type === 'ROUND_SETTLED' && e.roundId === view.roundId)).toHaveLength(1);
}

/**
 * The round's receipt (docs/provably-fair.md §11.3): one head, signed by the statement key over the
 * round's ROUND_SETTLED (ROUND_VOIDED) event — made by whoever finished the round.
 */
async function signedOnce(view: RoundView, type: 'ROUND_SETTLED' | 'ROUND_VOIDED') {
  expect(view.head, 'the round head').not.toBeNull();
  const head = view.head!;
  const stored = (await stack.store.get('round', { roundId: view.roundId }))!;
  const seq = type === 'ROUND_SETTLED' ? stored.audit.settled : stored.audit.voided;
  const events = (await stack.store.listAudit(view.shoeId)).filter(
    (e) => e.type === type && e.roundId === view.roundId,
  );
  expect(events.map((e) => e.seq)).toEqual([seq]);
  expect(head.statement).toMatchObject({ type, roundId: view.roundId, seq, head: events[0]!.hash });
  expect(stored.head).toEqual(head);
  const key = parsePublicKey((await stack.keys.publicKey(head.statement.keyId)).pem);
  expect(
    await verifyDerSignature(headStatementBytes(head.statement), base64ToBytes(head.signature), key),
  ).toBe(true);
}

describe('settlement fan-out', () => {
  it('resolve answers SETTLING; the batches settle all 40 positions; the last one finishes the round', async () => {
    const { core, queue } = withQueue();
    queue.pause();
    const { roundId, players } = await bigRound(core, 40);
    const answer = await core.resolveRound(op, { roundId });
    expect([answer.status, answer.result?.winner]).toEqual(['SETTLING', expect.any(String)]);
    expect(answer.positions.every((p) => p.status === 'OPEN')).toBe(true);
    // No receipt yet: the round is not finished.
    expect(answer.head).toBeNull();
    // 40 positions by player id, in batches of 7: 6 batches, each a plan anyone can re-derive.
    expect(queue.sent).toHaveLength(6);
    expect(queue.sent.flatMap((b) => b.playerIds).sort()).toEqual([...players].sort());
    // Readers handle SETTLING: the round, its replay, a shoe close waits for it.
    expect((await core.getRound(op, { roundId })).status).toBe('SETTLING');
    expect((await core.replayRound(op, { roundId })).status).toBe('SETTLING');
    const shoeId = answer.shoeId;
    expect(await codeOf(core.closeShoe(admin(), { shoeId, reason: 'END_OF_SESSION' }))).toBe('ROUND_IN_PLAY');
    queue.resume();
    await queue.idle();
    const view = await core.getRound(op, { roundId });
    await paidOnce(core, view);
    expect(queue.deadLetters).toEqual([]);
    expect((await stack.store.listBatches(roundId)).map((b) => b.batch).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // The last batch signed the round's head where it finished it.
    await signedOnce(view, 'ROUND_SETTLED');
    // Resolving again answers the settled round and the same head; the table is free for the next one.
    const again = await core.resolveRound(op, { roundId });
    expect([again.status, again.head]).toEqual(['SETTLED', view.head]);
    await core.closeShoe(admin(), { shoeId, reason: 'END_OF_SESSION' });
    expect((await core.replayRound(op, { roundId })).verification.status).toBe('VERIFIED');
  });

  it('a small round settles in the request: SETTLED at once, no batch sent', async () => {
    const { core, queue } = withQueue();
    const { roundId } = await bigRound(core, SIZES.inlineSettleMax);
    const view = await core.resolveRound(op, { roundId });
    expect(queue.sent).toEqual([]);
    await paidOnce(core, view);
  });

  it.each(['before-write', 'after-write'] as const)(
    'a worker that crashes mid-batch (%s): the redelivery finishes it, nobody paid twice',
    async (when) => {
      const box: { core?: Core } = {};
      const { core, queue } = withQueue(async (batch, receive) => {
        // First delivery of batch 2 runs on a process that dies after 3 settlements.
        const crashing = batch.kind === 'settle' && batch.batch === 2 && receive === 1;
        const worker = crashing
          ? stack.coreWith({ ...SIZES, settleConcurrency: 2, store: new CrashingStore(stack.store, 3, when) })
          : box.core!;
        await worker.runSettlementBatch(batch);
      });
      box.core = core;
      const { roundId } = await bigRound(core, 30);
      expect((await core.resolveRound(op, { roundId })).status).toBe('SETTLING');
      await queue.idle();
      expect(queue.deadLetters).toEqual([]);
      await paidOnce(core, await core.getRound(op, { roundId }));
    },
  );

  it('batches lost (never delivered): resolve again re-sends the missing ones and the round settles', async () => {
    const { core, queue } = withQueue();
    queue.pause();
    const { roundId } = await bigRound(core, 24);
    expect((await core.resolveRound(op, { roundId })).status).toBe('SETTLING');
    // Run two batches, lose the rest.
    const lost = queue.drop();
    expect(lost).toHaveLength(4);
    await core.runSettlementBatch(lost[0]!);
    await core.runSettlementBatch(lost[1]!);
    // Half settled, half not: the replay of a SETTLING round finds nothing wrong in that.
    const half = await core.replayRound(op, { roundId });
    expect(half.status).toBe('SETTLING');
    expect(half.verification.status).not.toBe('FAILED');
    queue.resume();
    const again = await core.resolveRound(op, { roundId });
    expect(again.status).toBe('SETTLING');
    expect(
      queue.sent
        .slice(4)
        .map((b) => (b.kind === 'collect' ? -1 : b.batch))
        .sort(),
    ).toEqual([2, 3]);
    await queue.idle();
    await paidOnce(core, await core.getRound(op, { roundId }));
  });

  it('a batch that keeps failing is dead-lettered; once the cause is gone, resolve again finishes the round', async () => {
    let broken = true;
    const box: { core?: Core } = {};
    const { core, queue } = withQueue(async (batch) => {
      if (broken && batch.kind === 'settle' && batch.batch === 1) throw new Error('DynamoDB is unreachable');
      await box.core!.runSettlementBatch(batch);
    });
    box.core = core;
    const { roundId } = await bigRound(core, 20);
    await core.resolveRound(op, { roundId });
    await queue.idle();
    expect(queue.deadLetters.map((d) => (d.batch.kind === 'collect' ? -1 : d.batch.batch))).toEqual([1]);
    expect((await core.getRound(op, { roundId })).status).toBe('SETTLING');
    broken = false;
    await core.resolveRound(op, { roundId });
    await queue.idle();
    await paidOnce(core, await core.getRound(op, { roundId }));
  });

  it('every batch delivered twice, concurrently, while resolve is called again and again: paid once', async () => {
    const { core, queue } = withQueue();
    queue.pause();
    const { roundId } = await bigRound(core, 35);
    await core.resolveRound(op, { roundId });
    await queue.send([...queue.sent]); // a duplicate of every message
    queue.resume();
    await Promise.all([queue.idle(), ...Array.from({ length: 4 }, () => core.resolveRound(op, { roundId }))]);
    await queue.idle();
    await paidOnce(core, await core.getRound(op, { roundId }));
  });

  it('a player leaving while his round is SETTLING, on a shoe dealt to open on a Banca win: his position settled first, his commission collected', async () => {
    const { core, queue } = withQueue();
    queue.pause();
    const { tableId, roundId, players } = await bigRound(
      core,
      20,
      { commission: { mode: 'DEFERRED' } },
      bancaWinsFirst,
    );
    const answer = await core.resolveRound(op, { roundId });
    expect([answer.status, answer.result!.winner]).toEqual(['SETTLING', 'BANKER']);
    const leaver = players.filter((_, i) => i % 2 === 1)[0]!; // a Banca bettor
    const left = await core.leaveTable(op, { tableId, playerId: leaver });
    const mine = (await core.getRound(op, { roundId })).positions.find((p) => p.playerId === leaver)!;
    expect(mine.status).toBe('SETTLED');
    expect(mine.commissionOwed).toBeGreaterThan(0);
    expect(left.commissionCollected).toBe(mine.commissionOwed);
    expect((await core.getWallet(op, { playerId: leaver })).commissionOwed).toBe(0);
    queue.resume();
    await queue.idle();
    await paidOnce(core, await core.getRound(op, { roundId }));
  });

  it('void fans out too: VOIDING, refunds in batches, VOIDED by the last one, each stake back once', async () => {
    const { core, queue } = withQueue();
    const { roundId, players } = await bigRound(core, 30);
    const answer = await core.voidRound(op, { roundId, reason: 'TECHNICAL_FAULT' });
    expect(answer.status).toBe('VOIDING');
    await queue.idle();
    await core.voidRound(op, { roundId, reason: 'TECHNICAL_FAULT' });
    const voided = await core.getRound(op, { roundId });
    expect(voided.status).toBe('VOIDED');
    await signedOnce(voided, 'ROUND_VOIDED');
    for (const playerId of players) {
      const ledger = await wholeLedger(core, op, playerId);
      expect(ledger.filter((e) => e.kind === 'REFUND')).toHaveLength(1);
      expect((await core.getWallet(op, { playerId })).balance).toBe(FUNDS);
    }
  });

  it('the batch that finishes a round fails to sign its head: the round is SETTLED, the redelivery signs it, once', async () => {
    let refused = 0;
    const signing = (message: Uint8Array) =>
      new TextDecoder().decode(message).includes('"type":"ROUND_SETTLED"');
    // The key service refuses the first round-head signature (KMS throttled, say).
    const keys: KeyService = Object.assign(Object.create(stack.keys), {
      sign: async (message: Uint8Array, keyId?: string) => {
        if (signing(message) && refused++ === 0) throw new Error('KMS: ThrottlingException');
        return stack.keys.sign(message, keyId);
      },
    });
    const queue = new InProcessSettlementQueue({ retryDelayMs: 5 });
    const core = stack.coreWith({ ...SIZES, settlementQueue: queue, keys });
    queue.attach((b) => core.runSettlementBatch(b));
    const { roundId } = await bigRound(core, 20);
    expect((await core.resolveRound(op, { roundId })).status).toBe('SETTLING');
    await queue.idle();
    expect(refused).toBeGreaterThan(1);
    expect(queue.deadLetters).toEqual([]);
    const view = await core.getRound(op, { roundId });
    await paidOnce(core, view);
    await signedOnce(view, 'ROUND_SETTLED');
  });
});
