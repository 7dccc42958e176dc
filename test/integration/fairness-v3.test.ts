/**
 * pyb-shoe/3 on the platform (docs/provably-fair.md §15): "no va más" names the beacon round a coup's
 * cards will be drawn from and answers with the signed receipt before that round is out; the deal
 * waits for it; a dealer-error void burns cards drawn from its own named round; the close reveals a
 * seed from which, with the recorded rounds, every coup and burn is drawn again exactly.
 */
import type { Beacon, Core, DomainError, ShoeRecord } from '@pyb/core';
import {
  base64ToBytes,
  beaconRandomness,
  beaconRoundAfter,
  drawCoupV3,
  headStatementBytes,
  hexToBytes,
  replayShoeV3,
  roundTime,
  type ShoeStepV3,
  type SignedHead,
  shoeEntropyV3,
  startShoeV3,
  verifyDerSignature,
  verifyShoe,
} from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { codeOf } from '../support/game';
import { createTestStack, TEST_BEACON, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
const op = operator('op-v3');
const boss = admin('op-v3');
const PLAYERS = ['ada', 'bru'];
const CONFIG = { decks: 1, pairBets: true, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;

beforeAll(async () => {
  stack = await createTestStack('fairness-v3', { shoeScheme: 'pyb-shoe/3' });
  core = stack.core;
  await fundPlayers(core, op, PLAYERS, 1_000_000);
});
afterAll(async () => {
  await stack?.cleanup();
});

const newTable = async (c = core) =>
  (await c.createTable(boss, { name: 'V3', variant: 'custom', config: CONFIG })).tableId;

const storedShoe = async (shoeId: string) => (await stack.store.get('shoe', { shoeId })) as ShoeRecord;
const seedOf = (shoe: ShoeRecord) =>
  stack.keys.unsealSeed(base64ToBytes(shoe.sealedSeed), { shoeId: shoe.shoeId, operatorId: shoe.operatorId });
const eventsOf = async (shoeId: string) =>
  (await stack.store.listAudit(shoeId)).map(
    (r) =>
      JSON.parse(r.event) as { type: string; roundId?: string; at: string; data: Record<string, unknown> },
  );
const randomnessOf = async (round: number) => {
  const answer = await stack.beacon.round(round);
  if (answer.status !== 'PUBLISHED') throw new Error(`round ${round} is not out`);
  return { round, randomness: beaconRandomness(answer.round.signature) };
};

describe('"no va más" names the round, and answers with the receipt before it is out', () => {
  it('the statement names pyb-shoe/3; the close answers with a signed head naming a round not yet published', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    expect(shoe.statement.scheme).toBe('pyb-shoe/3');
    const round = await core.openRound(op, { tableId, clientSeed: 'v3-session' });
    await core.placeBet(op, {
      roundId: round.roundId,
      playerId: 'ada',
      bets: [{ type: 'BANKER', amount: 500 }],
      idempotencyKey: 'v3-bet-1',
    });
    const closed = await core.closeBetting(op, { roundId: round.roundId });
    expect(closed.status).toBe('CLOSED');
    const named = closed.bettingClosed!;
    const events = await eventsOf(shoe.shoeId);
    const bettingClosed = events.find((e) => e.type === 'BETTING_CLOSED' && e.roundId === round.roundId)!;
    const network = await stack.beacon.network();
    expect(bettingClosed.data.beaconRound).toBe(named.beaconRound);
    expect(named.beaconRound).toBe(beaconRoundAfter(network, bettingClosed.at, TEST_BEACON.marginSeconds));
    expect(roundTime(network, named.beaconRound) * 1000).toBeGreaterThanOrEqual(
      Date.parse(bettingClosed.at) + TEST_BEACON.marginSeconds * 1000,
    );
    // The receipt: the head after BETTING_CLOSED, signed by the statement key.
    const head = named.head!;
    expect(head.statement).toMatchObject({
      type: 'BETTING_CLOSED',
      roundId: round.roundId,
      keyId: shoe.keyId,
    });
    const key = await stack.keys.publicKey(shoe.keyId);
    expect(
      await verifyDerSignature(headStatementBytes(head.statement), base64ToBytes(head.signature), key.spki),
    ).toBe(true);
    // Everything the platform holds at this instant — the server seed, every key, the whole store —
    // and the round is not out: the beacon itself has nothing to give.
    expect((await stack.beacon.round(named.beaconRound)).status).toBe('PENDING');
    const stored = await storedShoe(shoe.shoeId);
    expect(stored.draw).toBeUndefined();
    // Called again, it answers the same receipt; a bet now is refused.
    expect((await core.closeBetting(op, { roundId: round.roundId })).bettingClosed).toEqual(named);
    expect(
      await codeOf(
        core.placeBet(op, {
          roundId: round.roundId,
          playerId: 'bru',
          bets: [{ type: 'PLAYER', amount: 500 }],
          idempotencyKey: 'v3-bet-2',
        }),
      ),
    ).toBe('ROUND_NOT_OPEN');
  });

  it('the coup is drawn from the named round: the same state and seed with another round draw other cards', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    const round = await core.openRound(op, { tableId });
    const closed = await core.closeBetting(op, { roundId: round.roundId });
    const resolved = await core.resolveRound(op, { roundId: round.roundId });
    expect(resolved.status).toBe('SETTLED');
    expect(resolved.beacon?.round).toBe(closed.bettingClosed!.beaconRound);
    const stored = await storedShoe(shoe.shoeId);
    const serverSeed = await seedOf(stored);
    const start = startShoeV3({
      serverSeed,
      entropy: stored.entropy!,
      shoeId: shoe.shoeId,
      decks: CONFIG.decks,
      cutCard: CONFIG.cutCard,
      afterCutCard: stored.config.afterCutCard,
    });
    const beacon = await randomnessOf(resolved.beacon!.round);
    const coup = drawCoupV3(serverSeed, start, { beacon });
    expect(resolved.result?.start).toBe(coup.start);
    expect(stored.draw).toEqual(coup.state);
    const dealt = (await eventsOf(shoe.shoeId)).find((e) => e.type === 'COUP_DEALT')!;
    expect(dealt.data).toMatchObject({
      cards: coup.cards,
      beacon: { round: beacon.round, randomness: beacon.randomness },
    });
    // Had "no va más" come a round later or earlier, the cards would not be these.
    const others = await Promise.all([beacon.round - 2, beacon.round - 1].map(randomnessOf));
    const differ = others.filter(
      (b) => drawCoupV3(serverSeed, start, { beacon: b }).cards.join() !== coup.cards.join(),
    );
    expect(differ.length).toBeGreaterThan(0);
  });

  it('the round not out yet: the deal answers a retryable BEACON_PENDING and draws nothing; later it goes on', async () => {
    const pending: Beacon = {
      network: () => stack.beacon.network(),
      round: async () => ({ status: 'PENDING', retryAfterSeconds: 3, reason: 'not published yet' }),
    };
    // The shoe's own round (contributions) recorded first, by a first coup on the real beacon.
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    await core.resolveRound(op, { roundId: (await core.openRound(op, { tableId })).roundId });
    const waiting = stack.coreWith({ beacon: pending, beaconWaitMs: 0 });
    const round = await waiting.openRound(op, { tableId });
    const error = (await waiting
      .resolveRound(op, { roundId: round.roundId })
      .catch((e: unknown) => e)) as DomainError;
    expect([error.code, error.details?.retryAfterSeconds]).toEqual(['BEACON_PENDING', 3]);
    const before = await storedShoe(shoe.shoeId);
    expect(before.draw?.coups).toBe(1);
    expect((await waiting.getRound(op, { roundId: round.roundId })).bettingClosed?.head).not.toBeNull();
    const resolved = await core.resolveRound(op, { roundId: round.roundId });
    expect([resolved.status, (await storedShoe(shoe.shoeId)).draw?.coups]).toEqual(['SETTLED', 2]);
  });
});

describe('a whole shoe, with a dealer-error burn: every card drawn again from the seed and the rounds', () => {
  it('replays exactly: start, coups, the burn, the end', async () => {
    const tableId = await newTable();
    const shoe = await core.openShoe(boss, { tableId });
    await core.contributeSeed(op, { shoeId: shoe.shoeId, seed: 'ada: 2718' });
    const steps: (ShoeStepV3 & { roundId: string })[] = [];
    const bettingReceipts: SignedHead[] = [];
    const roundReceipts: SignedHead[] = [];
    for (let n = 1; n <= 200; n++) {
      const stored = await storedShoe(shoe.shoeId);
      if (stored.status !== 'OPEN') break;
      const round = await core.openRound(op, { tableId });
      await core.placeBet(op, {
        roundId: round.roundId,
        playerId: 'ada',
        bets: [{ type: 'PLAYER', amount: 500 }],
        idempotencyKey: `v3-shoe-${n}`,
      });
      if (n === 3) {
        // A dealer error on an open round: betting closes first, naming the burn's round.
        const voided = await core.voidRound(op, {
          roundId: round.roundId,
          reason: 'EXPOSED_CARD',
          burnCards: true,
        });
        expect(voided.status).toBe('VOIDED');
        expect(voided.bettingClosed?.beaconRound).toBe(voided.beacon?.round);
        steps.push({
          kind: 'BURN',
          beacon: await randomnessOf(voided.beacon!.round),
          roundId: round.roundId,
        });
        continue;
      }
      const resolved = await core.resolveRound(op, { roundId: round.roundId });
      steps.push({
        kind: 'COUP',
        beacon: await randomnessOf(resolved.beacon!.round),
        roundId: round.roundId,
      });
    }
    const ended = await storedShoe(shoe.shoeId);
    expect(ended.status).toBe('ENDED');
    const closed = await core.closeShoe(boss, { shoeId: shoe.shoeId });
    expect(closed.serverSeed).toBeTruthy();
    const contributionsRound = closed.beacon!;
    const answer = await stack.beacon.round(contributionsRound.round);
    expect(answer.status).toBe('PUBLISHED');
    const inputs = {
      serverSeed: hexToBytes(closed.serverSeed!),
      entropy: shoeEntropyV3({
        shoeId: shoe.shoeId,
        commitment: shoe.commitment,
        contributions: closed.contributions.digest!,
        beacon: {
          chainHash: shoe.statement.beacon.chainHash,
          round: contributionsRound.round,
          signature: contributionsRound.signature,
        },
      }),
      shoeId: shoe.shoeId,
      decks: CONFIG.decks,
      cutCard: CONFIG.cutCard,
      afterCutCard: ended.config.afterCutCard,
    };
    expect(inputs.entropy).toBe(ended.entropy);
    const replay = replayShoeV3(inputs, steps);
    expect(replay.state).toEqual(ended.draw);
    expect(replay.state.finished).toBe(true);
    // The chain's records of every coup and burn are the replay's, card for card, round for round.
    type Drawn = {
      start: number;
      cards: number[];
      cutCardOut: boolean;
      last: boolean;
      beacon: { round: number };
    };
    const recorded = (await eventsOf(shoe.shoeId)).flatMap((e) =>
      e.type === 'COUP_DEALT'
        ? [{ kind: 'COUP', ...(e.data as unknown as Drawn) }]
        : e.type === 'ROUND_VOIDED' && e.data.burned
          ? [{ kind: 'BURN', ...(e.data.burned as Drawn) }]
          : [],
    );
    expect(recorded.map((r) => [r.kind, r.start, r.cards, r.cutCardOut, r.last, r.beacon.round])).toEqual(
      replay.steps.map((r) => [r.kind, r.start, r.cards, r.cutCardOut, r.last, r.beacon.round]),
    );
    expect(closed.cutIndex).toBe(replay.start.cutIndex);
    expect(closed.voids).toMatchObject({ count: 1 });
    // The regulator's bundle and the public proof verify offline, with the receipts handed out at
    // "no va más" (each names its round before it was out) and at the end of each round.
    const trust = {
      trustedBeacons: [await stack.beacon.network()],
      trustedPublicKey: (await stack.keys.publicKey(shoe.keyId)).pem,
      trustedTimeStampAuthorities: [stack.timeStamps.pem],
    };
    const bundle = await core.exportAudit(regulator('op-v3'), { shoeId: shoe.shoeId });
    const checked = await verifyShoe(bundle, trust);
    expect(checked.checks.filter((c) => !c.ok)).toEqual([]);
    expect(checked.verdict).toBe('verified');
    expect(checked.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'round.1.beacon',
        'round.1.beacon-named',
        'round.3.burn.cards',
        'heads.round.1.betting',
      ]),
    );
    // The regulator's round replay draws every coup and the burn again from the seed and their rounds.
    for (const step of steps) {
      const replay = await core.replayRound(regulator('op-v3'), { roundId: step.roundId });
      const failed = Object.entries(replay.verification).filter(
        ([, c]) => typeof c === 'object' && c !== null && 'status' in c && c.status === 'FAILED',
      );
      expect(failed, `round ${step.roundId}`).toEqual([]);
      expect(replay.verification.status).toBe('VERIFIED');
    }
    const burnedReplay = await core.replayRound(regulator('op-v3'), { roundId: steps[2]!.roundId });
    expect(burnedReplay.voided).toMatchObject({
      revealed: true,
      coup: { start: steps[2] && expect.any(Number) },
    });
    const proof = await core.shoeProof({ shoeId: shoe.shoeId });
    const receipts = [...bettingReceipts, ...roundReceipts];
    const public_ = await verifyShoe(proof, { ...trust, receipts });
    expect(public_.checks.filter((c) => !c.ok)).toEqual([]);
    expect(public_.verdict).toBe('verified');
  });
});
