/**
 * Irregularities of seed 004 (2.7) with a digital meaning: a dealer error that exposed the next coup's
 * cards (its first card face up, 004:67; extra cards at the end of a coup, 004:68) voids that coup and
 * burns the cards it would have used. Through the use cases, on the in-memory Store and DynamoDB Local:
 * every stake refunded, the cards claimed from the shoe (the next coup starts after them, a burn can
 * end the shoe), the burn audited with its reason — and the revealed seed deals exactly that.
 */
import type { RoundReplay } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { noteDigest, shoeProof, verifyShoe } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { PINNED_V2 } from '../support/dealt';
import { fundedPlayer, tableWithShoe } from '../support/fixture';
import { codeOf, runnerOfClosedShoe, wholeLedger } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack('dealer-error', PINNED_V2);
});
afterAll(() => stack?.cleanup());

const op = operator('op-1');
const ONE_DECK = { decks: 1, cutCard: { minCardsBehind: 14, maxCardsBehind: 20 } };

const player = (amount?: number) => fundedPlayer(stack.core, op, { prefix: 'de', amount });
async function table(name: string) {
  const { table, shoe } = await tableWithShoe(stack.core, { name, variant: 'custom', config: ONE_DECK });
  return { tableId: table.tableId, shoeId: shoe.shoeId };
}

/** The shoe as its revealed seeds deal it (independent of anything the rounds recorded). */
async function revealed(shoeId: string) {
  const shoe = await stack.core.closeShoe(admin(), { shoeId, reason: 'END_OF_SESSION' });
  return runnerOfClosedShoe(shoe, tablePreset('custom', { ...ONE_DECK, name: 'x' }));
}

const failed = (replay: RoundReplay) =>
  Object.entries(replay.verification)
    .filter(([, c]) => typeof c === 'object' && c !== null && 'status' in c && c.status === 'FAILED')
    .map(([name]) => name);

/**
 * Every round of the closed shoe replays as VERIFIED, the chain checks out with every coup recomputed,
 * and the audit bundle and the public proof verify offline; a burned card edited in the bundle fails.
 */
async function expectVerified(shoeId: string, roundIds: readonly string[]) {
  const inspector = regulator('op-1');
  for (const roundId of roundIds) {
    const replay = await stack.core.replayRound(inspector, { roundId });
    expect(failed(replay), roundId).toEqual([]);
    expect(replay.verification.status, roundId).toBe('VERIFIED');
  }
  const report = await stack.core.checkShoeChain(inspector, { shoeId });
  expect([report.ok, report.coupsVerified, report.problems]).toEqual([true, true, []]);
  const bundle = await stack.core.exportAudit(inspector, { shoeId });
  const trust = {
    trustedPublicKey: [(await stack.keys.publicKey()).pem],
    trustedBeacons: [bundle.statement.beacon],
    trustedTimeStampAuthorities: [stack.timeStamps.pem],
  };
  // Salted digests (F5): the bundle carries the salt the statement committed to, the proof never.
  expect(bundle.digestSalt).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(shoeProof(bundle))).not.toContain(bundle.digestSalt);
  for (const evidence of [bundle, shoeProof(bundle)]) {
    const verified = await verifyShoe(evidence, trust);
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.verdict).toBe('verified');
  }
  const burnedRound = bundle.rounds.find((r) => r.burned)!;
  const forged = structuredClone(bundle);
  const round = forged.rounds.find((r) => r.roundId === burnedRound.roundId)!;
  round.burned!.cards[0] = round.burned!.cards[0] === 'AS' ? 'AH' : 'AS';
  const refused = await verifyShoe(forged, trust);
  expect(refused.verdict).toBe('failed');
  expect(refused.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(
    expect.arrayContaining([`round.${round.number}.burn`, `audit.round.${round.number}.burned`]),
  );
}

const voidedEvent = async (shoeId: string, roundId: string) => {
  const audit = await stack.store.listAudit(shoeId);
  const record = audit.find((a) => a.type === 'ROUND_VOIDED' && a.roundId === roundId)!;
  return JSON.parse(record.event).data;
};

describe('a dealer-error void that burns the coup (seed 004:67-68)', () => {
  it('refunds every stake, burns the cards the coup would have used, and the next coup starts after them', async () => {
    const { tableId, shoeId } = await table('Burn mid-shoe');
    const [p, q] = [await player(), await player()];
    const bet = (roundId: string, playerId: string, type: 'PLAYER' | 'BANKER', amount: number) =>
      stack.core.placeBet(op, {
        roundId,
        playerId,
        bets: [{ type, amount }],
        idempotencyKey: `${roundId}-${playerId}`,
      });

    const first = await stack.core.openRound(op, { tableId });
    await bet(first.roundId, p, 'PLAYER', 1_000);
    const dealt = await stack.core.resolveRound(op, { roundId: first.roundId });

    const second = await stack.core.openRound(op, { tableId });
    await bet(second.roundId, p, 'BANKER', 2_000);
    await bet(second.roundId, q, 'PLAYER', 3_000);
    const voided = await stack.core.voidRound(op, {
      roundId: second.roundId,
      reason: 'EXTRA_CARDS',
      note: 'two extra cards drawn after coup 1',
      burnCards: true,
    });
    expect(voided.status).toBe('VOIDED');
    expect(voided.voidReason).toBe('EXTRA_CARDS');
    expect(voided.result).toBeNull();
    expect(voided.positions.map((x) => [x.status, x.payout])).toEqual([
      ['REFUNDED', 2_000],
      ['REFUNDED', 3_000],
    ]);
    const burned = voided.burned!;
    expect(burned.start).toBe(dealt.result!.start + dealt.result!.cardsUsed);
    expect(burned.cards.length).toBeGreaterThanOrEqual(4);
    expect(burned.cards.length).toBeLessThanOrEqual(6);
    expect(await stack.core.getRound(op, { roundId: second.roundId })).toEqual(voided);

    // Audited with its reason: ROUND_VOIDED carries the burned cards.
    const event = await voidedEvent(shoeId, second.roundId);
    expect(event.reason).toBe('EXTRA_CARDS');
    // The note is the operator's free text: in the public chain only as its salted digest (F5).
    expect(event.note).toBeUndefined();
    const salt = (await stack.store.get('shoe', { shoeId }))!.digestSalt!;
    expect(event.noteDigest).toBe(noteDigest(salt, 'two extra cards drawn after coup 1'));
    expect(event.burned.start).toBe(burned.start);
    expect(event.burned.cards).toHaveLength(burned.cards.length);
    expect(event.positions).toBe(2);

    const third = await stack.core.openRound(op, { tableId });
    await bet(third.roundId, q, 'BANKER', 1_000);
    const after = await stack.core.resolveRound(op, { roundId: third.roundId });
    expect(after.result!.start).toBe(burned.start + burned.cards.length);

    // Money: the voided round moved nothing but its refunds.
    for (const playerId of [p, q]) {
      const ledger = await wholeLedger(stack.core, op, playerId);
      const ofRound = ledger.filter((e) => e.roundId === second.roundId);
      expect(ofRound.map((e) => e.kind)).toEqual(['BET', 'REFUND']);
      expect(ofRound.reduce((s, e) => s + e.amount, 0)).toBe(0);
    }

    // The revealed seed deals exactly that: a coup, a burn of the next coup's cards, a coup.
    const runner = await revealed(shoeId);
    const one = runner.next()!;
    expect([one.start, one.result.winner]).toEqual([dealt.result!.start, dealt.result!.winner]);
    const burn = runner.burnNext()!;
    expect(burn.start).toBe(burned.start);
    expect(burn.cards.length).toBe(burned.cards.length);
    const stored = (await stack.store.get('round', { roundId: second.roundId }))!.burned!;
    expect(stored.cards).toEqual(burn.cards);
    const two = runner.next()!;
    expect([two.index, two.start, two.result.winner]).toEqual([1, after.result!.start, after.result!.winner]);

    // Replayed and verified from the revealed seeds: the burn and the rounds around it.
    await expectVerified(shoeId, [first.roundId, second.roundId, third.roundId]);
    const replay = await stack.core.replayRound(regulator('op-1'), { roundId: second.roundId });
    expect(replay.verification.cards.detail).toContain('burned unplayed');
    // What the voided round would have dealt is what it burned.
    expect(replay.voided?.coup?.start).toBe(burned.start);

    // A burned card edited in the stored round: replay fails, naming the cards.
    const key = { pk: `ROUND#${second.roundId}`, sk: 'ROUND' };
    const item = (await stack.raw.get('game', key))!;
    const forged = structuredClone(item) as typeof item & { burned: { cards: number[] } };
    forged.burned.cards[0] = (forged.burned.cards[0]! + 1) % 52;
    await stack.raw.put('game', forged);
    try {
      const tampered = await stack.core.replayRound(regulator('op-1'), { roundId: second.roundId });
      expect(tampered.verification.status).toBe('FAILED');
      expect(failed(tampered)).toEqual(expect.arrayContaining(['auditChain', 'cards']));
    } finally {
      await stack.raw.put('game', item);
    }
  });

  it('a void just before a dealer-error burn would have dealt the burned cards: replay, export, close and verify agree', async () => {
    const { tableId, shoeId } = await table('Void then burn');
    const p = await player();
    const bet = (roundId: string, type: 'PLAYER' | 'BANKER', amount: number) =>
      stack.core.placeBet(op, {
        roundId,
        playerId: p,
        bets: [{ type, amount }],
        idempotencyKey: `${roundId}-b`,
      });

    // A void that leaves the cards in the shoe, at once followed by a dealer-error void that burns them.
    const plain = await stack.core.openRound(op, { tableId });
    await bet(plain.roundId, 'PLAYER', 1_000);
    await stack.core.voidRound(op, { roundId: plain.roundId, reason: 'TECHNICAL_FAULT' });
    const burnt = await stack.core.openRound(op, { tableId });
    await bet(burnt.roundId, 'BANKER', 2_000);
    const { burned } = await stack.core.voidRound(op, {
      roundId: burnt.roundId,
      reason: 'EXPOSED_CARD',
      burnCards: true,
    });
    const dealtRound = await stack.core.openRound(op, { tableId });
    await bet(dealtRound.roundId, 'PLAYER', 500);
    const dealt = await stack.core.resolveRound(op, { roundId: dealtRound.roundId });
    await revealed(shoeId);

    const inspector = regulator('op-1');
    const replayed = await stack.core.replayRound(inspector, { roundId: plain.roundId });
    // Its would-be coup is the shoe's next coup at the void: the cards burned next, not the coup dealt after.
    expect(replayed.voided!.coup!.start).toBe(burned!.start);
    expect(replayed.voided!.coup!.start).not.toBe(dealt.result!.start);
    expect(replayed.voided!.coup!.cardsUsed).toBe(burned!.cards.length);

    const bundle = await stack.core.exportAudit(inspector, { shoeId });
    const exported = bundle.voids.rounds.find((r) => r.roundId === plain.roundId)!;
    expect(exported.coup!.start).toBe(replayed.voided!.coup!.start);
    expect(exported.coup!.winner).toBe(replayed.voided!.coup!.winner);
    expect(exported.houseNet).toBe(replayed.voided!.houseNet);
    const replayedBurn = await stack.core.replayRound(inspector, { roundId: burnt.roundId });
    expect(bundle.voids.rounds.find((r) => r.roundId === burnt.roundId)!.houseNet).toBe(
      replayedBurn.voided!.houseNet,
    );
    // The close totals are the same sums.
    const closed = await stack.core.getShoe(op, { shoeId });
    expect(closed.voids).toEqual({
      count: 2,
      houseNet: replayed.voided!.houseNet! + replayedBurn.voided!.houseNet!,
    });
    expect(bundle.voids.houseNet).toBe(closed.voids!.houseNet);
    // And `baccarat verify`'s void check recomputes the same (inside expectVerified).
    await expectVerified(shoeId, [plain.roundId, burnt.roundId, dealtRound.roundId]);
  });

  it("records the shoe's own burn when the first coup of a shoe is burned", async () => {
    const { tableId, shoeId } = await table('Burn first');
    const round = await stack.core.openRound(op, { tableId });
    const voided = await stack.core.voidRound(op, {
      roundId: round.roundId,
      reason: 'EXPOSED_CARD',
      burnCards: true,
    });
    const shoe = await stack.core.getShoe(op, { shoeId });
    expect(shoe.burn).not.toBeNull();
    expect(voided.burned!.start).toBe(1 + shoe.burn!.burned);
    expect((await voidedEvent(shoeId, round.roundId)).burn).toEqual(
      (await stack.store.get('shoe', { shoeId }))!.burn,
    );
    const next = await stack.core.openRound(op, { tableId });
    const dealt = await stack.core.resolveRound(op, { roundId: next.roundId });
    expect(dealt.result!.start).toBe(voided.burned!.start + voided.burned!.cards.length);
    expect(
      await stack.store.listAudit(shoeId).then((a) => a.filter((e) => e.type === 'COUP_DEALT')),
    ).toHaveLength(1);
  });

  it('ends the shoe when the burned cards bring out the cut card', async () => {
    const { tableId, shoeId } = await table('Burn to the cut card');
    const burns = [];
    for (;;) {
      const round = await stack.core.openRound(op, { tableId });
      const voided = await stack.core.voidRound(op, {
        roundId: round.roundId,
        reason: 'EXPOSED_CARD',
        burnCards: true,
      });
      burns.push(voided.burned!);
      if (voided.lastCoup) break;
      expect(burns.length).toBeLessThan(12);
    }
    expect(burns.at(-1)!.cutCardOut).toBe(true);
    expect((await stack.core.getShoe(op, { shoeId })).phase).toBe('ENDED');
    expect(await codeOf(stack.core.openRound(op, { tableId }))).toBe('SHOE_ENDED');

    const runner = await revealed(shoeId);
    await expectVerified(
      shoeId,
      (await stack.store.listRounds(shoeId)).map((r) => r.roundId),
    );
    const replayed = [];
    for (let b = runner.burnNext(); b; b = runner.burnNext()) replayed.push(b);
    expect(replayed.map((b) => [b.start, b.cards.length, b.cutCardOut])).toEqual(
      burns.map((b) => [b.start, b.cards.length, b.cutCardOut]),
    );
  });

  it('burns only for a dealer error, and refuses before writing anything', async () => {
    const { tableId } = await table('Burn refused');
    const round = await stack.core.openRound(op, { tableId });
    for (const reason of ['MISDEAL', 'OPERATOR_ERROR', 'TECHNICAL_FAULT'] as const) {
      expect(
        await codeOf(stack.core.voidRound(op, { roundId: round.roundId, reason, burnCards: true })),
      ).toBe('VOID_REASON_INVALID');
    }
    expect((await stack.core.getRound(op, { roundId: round.roundId })).status).toBe('OPEN');
    // Without burnCards a void leaves the cards in the shoe (as before).
    const voided = await stack.core.voidRound(op, { roundId: round.roundId, reason: 'EXPOSED_CARD' });
    expect(voided.burned).toBeNull();
    const next = await stack.core.openRound(op, { tableId });
    const dealt = await stack.core.resolveRound(op, { roundId: next.roundId });
    const shoe = await stack.core.getShoe(op, { shoeId: dealt.shoeId });
    expect(dealt.result!.start).toBe(1 + shoe.burn!.burned);
  });
});
