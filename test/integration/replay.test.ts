/**
 * Round replay, game recall and the audit export (on the run's store, in memory or on DynamoDB Local),
 * and tamper evidence: stored items edited directly (a card, a payout, a bet, an audit event, the
 * sealed or the revealed seed, a signature) make replay and `baccarat verify` fail, naming what broke.
 * A rotation of the signing key after the shoe does not (key-rotation.test.ts rotates one mid-shoe).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core, PositionRecord, RoundReplay, ShoeView } from '@pyb/core';
import { parseCard, pointValue, tablePreset } from '@pyb/engine';
import {
  base64ToBytes,
  bytesToHex,
  canonicalJson,
  eventHash,
  type ShoeBundle,
  statementBytes,
  verifyShoe,
} from '@pyb/fairness';
import { LocalKeyService } from '@pyb/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { baccaratVerify } from '../support/cli';
import { fundPlayers } from '../support/fixture';
import { codeOf, type PlayedRound, playShoe } from '../support/game';
import { deterministicSeeds } from '../support/keys';
import { stepsInOrder } from '../support/order';
import { createTestStack, type TestStack } from '../support/stack';

// Its tests are one shoe's story: replayed before the close, then after it, then tampered with.
stepsInOrder();

const PLAYERS = ['ana', 'ben', 'carla'];
const START = 1_000_000;
// Two decks and a deep cut card: a short shoe (about a dozen coups) keeps the file quick.
const OVERRIDES = { decks: 2, pairBets: true, cutCard: { minCardsBehind: 40, maxCardsBehind: 50 } };

let stack: TestStack;
let core: Core;
let tmp: string;
let shoe: ShoeView;
let rounds: PlayedRound[];
const op = operator('op-1');

beforeAll(async () => {
  stack = await createTestStack('replay');
  core = stack.coreWith({ keys: deterministicSeeds(stack.keys, 'replay-test') });
  tmp = mkdtempSync(join(tmpdir(), 'pyb-replay-'));
  const table = await core.createTable(admin('op-1'), {
    name: 'Replay',
    variant: 'custom',
    config: OVERRIDES,
  });
  await fundPlayers(core, op, PLAYERS, START);
  shoe = await core.openShoe(admin('op-1'), { tableId: table.tableId });
  rounds = await playShoe({
    core,
    actor: op,
    tableId: table.tableId,
    players: PLAYERS,
    config: tablePreset('custom', { ...OVERRIDES, name: 'Replay' }),
    seed: 'replay',
    clientSeed: 'regulator-test',
    voidRounds: [2],
  });
});
afterAll(async () => {
  await stack?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A settled round with at least two positions, mid-shoe. */
const target = () => rounds.find((r, i) => i >= 3 && !r.voided && r.bets.size >= 2)!;

/** `baccarat verify` of a bundle, trusting the key that signed it and the test beacon. */
const cliVerify = async (bundle: ShoeBundle) =>
  baccaratVerify(bundle, {
    dir: tmp,
    publicKeys: [(await stack.keys.publicKey(bundle.statement.keyId)).pem],
    trustBeacons: [await stack.beacon.network()],
    trustTsas: [stack.timeStamps.pem],
  });

type Logical = 'game' | 'audit' | 'wallets';
// biome-ignore lint/suspicious/noExplicitAny: a raw DynamoDB item, edited field by field as a forger would
type RawItem = Record<string, any>;
/** Edits one stored item in place (as someone with write access to the table would), then puts it back. */
async function tampered<T>(
  table: Logical,
  key: { pk: string; sk: string },
  edit: (item: RawItem) => void,
  body: () => Promise<T>,
): Promise<T> {
  const item = await stack.raw.get(table, key);
  if (!item) throw new Error(`no item ${key.pk} ${key.sk}`);
  const copy = structuredClone(item);
  edit(copy);
  await stack.raw.put(table, copy);
  try {
    return await body();
  } finally {
    await stack.raw.put(table, item);
  }
}

const failedChecks = (replay: RoundReplay) =>
  Object.entries(replay.verification)
    .filter(([, c]) => typeof c === 'object' && c !== null && 'status' in c && c.status === 'FAILED')
    .map(([name]) => name)
    .sort();
const codes = (replay: RoundReplay) =>
  Object.values(replay.verification)
    .flatMap((c) => (typeof c === 'object' && c !== null && 'problems' in c ? c.problems : []))
    .map((p) => p.code);

describe('before the shoe is closed', () => {
  it('replays a round step by step and says which checks wait for the reveal', async () => {
    const played = target();
    const replay = await core.replayRound(regulator('op-1'), { roundId: played.roundId });
    const v = replay.verification;
    expect(v.status).toBe('PENDING_REVEAL');
    expect(v.pendingReveal.sort()).toEqual(['cards', 'chainHead', 'commitment']);
    for (const name of ['statementSignature', 'tableau', 'auditChain', 'bets', 'settlement'] as const) {
      expect(v[name].status, `${name}: ${v[name].detail}`).toBe('PASSED');
    }

    // Every card in dealing order, at consecutive shoe positions, with the rule that called for it.
    const coup = replay.coup!;
    expect(coup.steps.filter((s) => s.card).map((s) => s.position)).toEqual(
      Array.from({ length: coup.cardsUsed }, (_, i) => coup.start + i),
    );
    expect(coup.steps.slice(0, 4).map((s) => [s.to, s.action, s.rule])).toEqual([
      ['PLAYER', 'DEAL', 'INITIAL'],
      ['BANKER', 'DEAL', 'INITIAL'],
      ['PLAYER', 'DEAL', 'INITIAL'],
      ['BANKER', 'DEAL', 'INITIAL'],
    ]);
    const last = coup.steps.at(-1)!;
    expect([last.playerTotal, last.bankerTotal]).toEqual([coup.player.total, coup.banker.total]);
    expect(coup.player.total).toBe(
      coup.steps
        .filter((s) => s.to === 'PLAYER' && s.card)
        .reduce((t, s) => (t + pointValue(parseCard(s.card!))) % 10, 0),
    );
    expect(replay.shoe.burn).toMatchObject({ positions: { from: 0 } });

    // Every bet with its stake and payout; the balance around the round from the wallet's ledger.
    expect(replay.positions.map((p) => p.playerId)).toEqual([...played.bets.keys()].sort());
    for (const p of replay.positions) {
      const bets = played.bets.get(p.playerId)!;
      expect(p.bets.map((b) => [b.type, b.stake]).sort()).toEqual(bets.map((b) => [b.type, b.amount]).sort());
      expect(p.stake).toBe(bets.reduce((s, b) => s + b.amount, 0));
      expect(p.balance.after! - p.balance.before!).toBe(p.payout! - p.stake);
      expect(p.movements[0]!.kind).toBe('BET');
      expect(p.balance.currency).toBe('EUR');
    }
  });

  it('never shows the sealed or the unrevealed seed, nor the cut card', async () => {
    const stored = (await stack.store.get('shoe', { shoeId: shoe.shoeId }))!;
    const seed = await stack.keys.unsealSeed(base64ToBytes(stored.sealedSeed), {
      shoeId: shoe.shoeId,
      operatorId: 'op-1',
    });
    const text = JSON.stringify(await core.replayRound(op, { roundId: target().roundId }));
    const recall = JSON.stringify(await core.recallPlayerRounds(op, { playerId: 'ana' }));
    for (const out of [text, recall]) {
      expect(out).not.toContain(bytesToHex(seed));
      expect(out).not.toContain(stored.sealedSeed);
      expect(out).toContain('"serverSeed":null');
      expect(out).toContain('"cutIndex":null');
    }
  });

  it('refuses the audit export of a shoe not closed yet', async () => {
    expect(await codeOf(core.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId }))).toBe(
      'SHOE_NOT_CLOSED',
    );
  });

  it('a consistent chain rewrite (an event edited, every later hash relinked) fails the signed heads before the close', async () => {
    const played = target();
    const pk = `SHOE#${shoe.shoeId}`;
    const items = (await stack.raw.partition('audit', pk)).filter((i) => String(i.sk).startsWith('E#'));
    const at = items.findIndex((i) => i.type === 'COUP_DEALT' && i.roundId === played.roundId);
    expect(at).toBeGreaterThan(0);
    // The insider's edit: the coup's event rewritten, then each later event relinked so every hash holds.
    const forged = structuredClone(items);
    for (let i = at; i < forged.length; i++) {
      const item = forged[i]!;
      const event = JSON.parse(item.event as string);
      if (i === at) event.data = { ...event.data, forged: true };
      item.prevHash = forged[i - 1]!.hash;
      item.event = canonicalJson(event);
      item.hash = eventHash(item.prevHash as string, event);
    }
    for (const item of forged.slice(at)) await stack.raw.put('audit', item);
    try {
      const replay = await core.replayRound(regulator('op-1'), { roundId: played.roundId });
      // The chain itself checks out (relinked); its signed head does not.
      expect(replay.verification.auditChain.status).toBe('PASSED');
      expect(replay.verification.chainHead.status).toBe('FAILED');
      expect(codes(replay)).toContain('HEAD_MISMATCH');
      expect(replay.verification.status).toBe('FAILED');
      const report = await core.checkShoeChain(regulator('op-1'), { shoeId: shoe.shoeId });
      expect(report.problems.map((x) => x.code)).toContain('HEAD_MISMATCH');
    } finally {
      for (const item of items.slice(at)) await stack.raw.put('audit', item);
    }
    const again = await core.replayRound(regulator('op-1'), { roundId: played.roundId });
    expect([again.verification.status, again.verification.chainHead.status]).toEqual([
      'PENDING_REVEAL',
      'PENDING_REVEAL',
    ]);
  });

  it('will not reveal a sealed seed that was swapped for another', async () => {
    const forged = await stack.keys.sealSeed(new Uint8Array(32).fill(7), {
      shoeId: shoe.shoeId,
      operatorId: 'op-1',
    });
    await tampered(
      'game',
      { pk: `SHOE#${shoe.shoeId}`, sk: 'SHOE' },
      (item) => {
        item.sealedSeed = Buffer.from(forged).toString('base64');
      },
      async () => {
        await expect(core.closeShoe(admin('op-1'), { shoeId: shoe.shoeId })).rejects.toThrow(/commitment/);
      },
    );
  });
});

describe('once the shoe is closed', () => {
  let bundle: ShoeBundle;
  beforeAll(async () => {
    // The refused close above left the shoe CLOSING; closing is resumable.
    shoe = await core.closeShoe(admin('op-1'), { shoeId: shoe.shoeId });
    bundle = await core.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId });
  });

  it('verifies every round: seed revealed, shoe re-dealt, cards, chain, payouts', async () => {
    expect(shoe.status).toBe('CLOSED');
    for (const played of rounds) {
      const replay = await core.replayRound(regulator('op-1'), { roundId: played.roundId });
      expect(replay.verification.status, JSON.stringify(failedChecks(replay))).toBe('VERIFIED');
      expect(replay.verification.pendingReveal).toEqual([]);
      if (played.voided) {
        expect(replay.verification.cards.status).toBe('NOT_APPLICABLE');
        expect(replay.positions.every((p) => p.status === 'REFUNDED')).toBe(true);
      } else {
        expect(replay.verification.cards.status).toBe('PASSED');
      }
    }
    const replay = await core.replayRound(op, { roundId: target().roundId });
    expect(replay.shoe.serverSeed).toBe(shoe.serverSeed);
    expect(replay.shoe.cutIndex).toBe(shoe.cutIndex);
  });

  it('exports a bundle that `baccarat verify` passes offline', async () => {
    expect(bundle.rounds.map((r) => r.roundId)).toEqual(rounds.map((r) => r.roundId));
    expect(bundle.rounds[1]).toMatchObject({ status: 'VOIDED', coup: null });
    expect((await verifyShoe(bundle)).checks.filter((c) => !c.ok)).toEqual([]);
    const cli = await cliVerify(bundle);
    expect([cli.code, cli.failed]).toEqual([0, []]);
  });

  it('recalls a player’s last rounds in play order, paged back with a cursor', async () => {
    const mine = rounds.filter((r) => r.bets.has('ana')).map((r) => r.roundId);
    expect(mine.length).toBeGreaterThanOrEqual(6);
    const first = await core.recallPlayerRounds(regulator('op-1'), {
      playerId: 'ana',
      operatorId: 'op-1',
      limit: 4,
    });
    expect(first.rounds.map((r) => r.roundId)).toEqual(mine.slice(-4));
    expect(first.rounds.every((r) => r.positions.length === 1 && r.positions[0]!.playerId === 'ana')).toBe(
      true,
    );
    expect(first.rounds.every((r) => r.verification.status === 'VERIFIED')).toBe(true);
    const older = await core.recallPlayerRounds(op, { playerId: 'ana', limit: 4, cursor: first.nextCursor! });
    expect(older.rounds.map((r) => r.roundId)).toEqual(mine.slice(-8, -4));
    // The balance carries over from one recalled round to the next (nothing else moved ana's money).
    const all = [...older.rounds, ...first.rounds].map((r) => r.positions[0]!.balance);
    for (let i = 1; i < all.length; i++) expect(all[i]!.before).toBe(all[i - 1]!.after);
    expect(await codeOf(core.recallPlayerRounds(op, { playerId: 'ana', limit: 51 }))).toBe('INVALID_INPUT');
  });

  it('keeps other operators out: NOT_FOUND, and no rounds', async () => {
    const roundId = target().roundId;
    expect(await codeOf(core.replayRound(regulator('op-2'), { roundId }))).toBe('ROUND_NOT_FOUND');
    expect(await codeOf(core.replayRound(operator('op-2'), { roundId }))).toBe('ROUND_NOT_FOUND');
    expect(await codeOf(core.exportAudit(operator('op-2'), { shoeId: shoe.shoeId }))).toBe('SHOE_NOT_FOUND');
    expect(
      await codeOf(core.recallPlayerRounds(regulator('op-2'), { playerId: 'ana', operatorId: 'op-1' })),
    ).toBe('PLAYER_NOT_FOUND'); // as docs/api.md says: a player the key may not see is not found
    expect(await codeOf(core.recallPlayerRounds(operator('op-2'), { playerId: 'ana' }))).toBe(
      'PLAYER_NOT_FOUND',
    );
  });

  it('after a signing-key rotation, checks each signature with the key it names: the shoe still verifies', async () => {
    // A rotation in the same key folder: the service now signs with a new key, the old one is kept.
    const rotatedKeys = new LocalKeyService({ dir: stack.keysDir, env: {} });
    const newer = rotatedKeys.rotateSigningKey();
    expect(newer.keyId).not.toBe(shoe.statement.keyId);
    const rotated = stack.coreWith({ keys: rotatedKeys });
    const replay = await rotated.replayRound(op, { roundId: target().roundId });
    expect(replay.verification.status, JSON.stringify(failedChecks(replay))).toBe('VERIFIED');
    expect(replay.shoe.publicKey?.keyId).toBe(shoe.statement.keyId);
    expect(replay.shoe.closePublicKey).toBeNull(); // opened and closed under the same key
    const exported = await rotated.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId });
    // Nothing was signed since the rotation: the new key has no certificate yet.
    expect(exported.keys.map((k) => k.certificate.keyId)).toEqual([shoe.statement.keyId]);
    expect((await verifyShoe(exported)).checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('a key service that never had the key says so (SIGNING_KEY_UNKNOWN), it does not pass', async () => {
    const stranger = stack.coreWith({
      keys: new LocalKeyService({ dir: join(tmp, 'other-keys'), env: {} }),
    });
    const replay = await stranger.replayRound(op, { roundId: target().roundId });
    expect(replay.verification.statementSignature.problems.map((p) => p.code)).toEqual([
      'SIGNING_KEY_UNKNOWN',
    ]);
    expect(replay.verification.chainHead.problems.map((p) => p.code)).toEqual(['SIGNING_KEY_UNKNOWN']);
    expect(failedChecks(replay)).toEqual(['chainHead', 'statementSignature']);
  });

  describe('tamper evidence', () => {
    const roundKey = () => ({ pk: `ROUND#${target().roundId}`, sk: 'ROUND' });
    const positionKey = (playerId: string) => ({ pk: `ROUND#${target().roundId}`, sk: `P#${playerId}` });
    const number = () => rounds.indexOf(target()) + 1;
    const replayTarget = () => core.replayRound(regulator('op-1'), { roundId: target().roundId });
    const exported = () => core.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId });

    it('a card: another card in the stored coup', async () => {
      await tampered(
        'game',
        roundKey(),
        (item) => {
          const result = item.coup.result;
          const step = result.steps[0]; // Punto's first card
          const swapped = (step.card + 1) % 52;
          result.player.cards[0] = swapped;
          step.card = swapped;
        },
        async () => {
          const replay = await replayTarget();
          expect(replay.verification.status).toBe('FAILED');
          expect(replay.verification.cards.problems[0]).toMatchObject({ code: 'CARDS_MISMATCH' });
          expect(replay.verification.cards.detail).toContain(`shoe position ${replay.coup!.start}:`);
          expect(codes(replay)).toContain('COUP_MISMATCH'); // and COUP_DEALT recorded the real one
          const cli = await cliVerify(await exported());
          expect(cli.code).toBe(1);
          expect(cli.failed).toContain(`round.${number()}.cards`);
          expect(cli.failed).toContain(`audit.round.${number()}.dealt`);
        },
      );
    });

    it('a payout: more paid than the rules give', async () => {
      const playerId = [...target().bets.keys()][0]!;
      await tampered(
        'game',
        positionKey(playerId),
        (item) => {
          item.settlement.payout += 5_000;
          item.settlement.bets[0].payout += 5_000;
        },
        async () => {
          const replay = await replayTarget();
          const problems = replay.verification.settlement.problems;
          expect(problems.map((p) => p.code).sort()).toEqual([
            'LEDGER_MISMATCH', // the ledger credited what the rules gave
            'SETTLEMENTS_DIGEST', // ROUND_SETTLED committed the real payouts
            'SETTLEMENT_MISMATCH', // the engine gives another payout
            'TOTALS_MISMATCH', // the round's totals are no longer its positions' sum
          ]);
          expect(problems.find((p) => p.code === 'SETTLEMENT_MISMATCH')).toMatchObject({ playerId });
          expect(failedChecks(replay)).toEqual(['settlement']);
          const cli = await cliVerify(await exported());
          expect(cli.failed.sort()).toEqual([
            `audit.round.${number()}.settlement`,
            `round.${number()}.player.${playerId}.ledger`, // the ledger credited what the rules gave
            `round.${number()}.player.${playerId}.payout`,
          ]);
          expect(
            cli.checks.find((c) => c.id === `round.${number()}.player.${playerId}.payout`)!.detail,
          ).toMatch(/payout: expected \d+, recorded \d+/);
        },
      );
    });

    it('a ledger entry: the PAYOUT raised by 5,000 in the wallet ledger — replay and `baccarat verify` on the export', async () => {
      // A position that was paid (its PAYOUT entry exists), in the first settled round that has one.
      let found: { k: number; position: PositionRecord } | undefined;
      for (const [k, r] of rounds.entries()) {
        if (r.voided || found) continue;
        const paid = (await stack.store.listPositions(r.roundId)).find((p) => p.settleSeq !== undefined);
        if (paid) found = { k, position: paid };
      }
      const { k, position } = found!;
      const { playerId, roundId } = position;
      const n = k + 1;
      const seq = position.settleSeq!;
      await tampered(
        'wallets',
        { pk: `W#op-1#${playerId}`, sk: `L#${String(seq).padStart(12, '0')}` },
        (item) => {
          expect(item.kind).toBe('PAYOUT');
          item.amount += 5_000;
        },
        async () => {
          const replay = await core.replayRound(regulator('op-1'), { roundId });
          expect(replay.verification.settlement.problems.map((p) => p.code)).toEqual(['LEDGER_MISMATCH']);
          const bundle = await exported();
          const carried = bundle.rounds[n - 1]!.positions.find((p) => p.playerId === playerId)!;
          expect(carried.ledger!.at(-1)).toMatchObject({ seq, kind: 'PAYOUT' });
          const cli = await cliVerify(bundle);
          expect(cli.code).toBe(1);
          expect(cli.failed).toEqual([`round.${n}.player.${playerId}.ledger`]);
          expect(cli.checks.find((c) => c.id === `round.${n}.player.${playerId}.ledger`)!.detail).toContain(
            'credited',
          );
        },
      );
      // Untouched, every position's entries check out offline.
      const clean = await cliVerify(await exported());
      expect(clean.code).toBe(0);
      expect(clean.checks.filter((c) => c.id.endsWith('.ledger')).length).toBeGreaterThan(0);
    });

    it('a bet: a stake raised after "no va más"', async () => {
      const playerId = [...target().bets.keys()][0]!;
      await tampered(
        'game',
        positionKey(playerId),
        (item) => {
          const type = Object.keys(item.bets)[0]!;
          item.bets[type] += 1_000;
          item.stake += 1_000;
        },
        async () => {
          const replay = await replayTarget();
          expect(replay.verification.bets.problems.map((p) => p.code).sort()).toEqual([
            'BETS_DIGEST', // not the bets committed at "no va más"
            'BETS_MISMATCH', // names the player: his bet debits say otherwise
            'LEDGER_MISMATCH', // the ledger debited less than the position's stake
          ]);
          expect(replay.verification.bets.problems.find((p) => p.code === 'BETS_MISMATCH')).toMatchObject({
            playerId,
          });
          const cli = await cliVerify(await exported());
          expect(cli.failed).toContain(`audit.round.${number()}.bets`);
        },
      );
    });

    it('an audit event: the bets digest rewritten in BETTING_CLOSED', async () => {
      const stored = (await stack.store.get('round', { roundId: target().roundId }))!;
      const seq = stored.audit.bettingClosed!;
      await tampered(
        'audit',
        { pk: `SHOE#${shoe.shoeId}`, sk: `E#${String(seq).padStart(6, '0')}` },
        (item) => {
          const event = JSON.parse(item.event);
          event.data.betsDigest = '0'.repeat(64);
          item.event = JSON.stringify(event);
        },
        async () => {
          const replay = await replayTarget();
          expect(replay.verification.auditChain.problems[0]).toMatchObject({ code: 'CHAIN_HASH', seq });
          expect(replay.verification.auditChain.detail).toContain(
            `event ${seq} (BETTING_CLOSED of round ${target().roundId}) was altered`,
          );
          // A round before it is intact up to itself, but the signed head no longer covers the chain.
          const earlier = await core.replayRound(op, { roundId: rounds[0]!.roundId });
          expect(earlier.verification.auditChain.status).toBe('PASSED');
          expect(earlier.verification.chainHead.problems[0]).toMatchObject({ code: 'CHAIN_HASH', seq });
          const cli = await cliVerify(await exported());
          expect(cli.failed).toContain('audit.chain');
          expect(cli.checks.find((c) => c.id === 'audit.chain')!.detail).toContain(`event ${seq}:`);
        },
      );
    });

    it('the statement signature: one that no key of the operator made', async () => {
      const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
      const forged = sign('sha256', statementBytes(shoe.statement), { key: foreign, dsaEncoding: 'der' });
      await tampered(
        'game',
        { pk: `SHOE#${shoe.shoeId}`, sk: 'SHOE' },
        (item) => {
          item.signature = forged.toString('base64');
        },
        async () => {
          const replay = await replayTarget();
          expect(replay.verification.statementSignature.problems.map((p) => p.code)).toEqual([
            'STATEMENT_SIGNATURE', // the key the statement names did not make it
            'STATEMENT_MISMATCH', // SHOE_OPENED published the real one
          ]);
          expect(failedChecks(replay)).toEqual(['statementSignature']);
          const cli = await cliVerify(await exported());
          expect(cli.failed).toEqual(['statement.signature', 'audit.statement']);
        },
      );
    });

    it('the revealed seed: another seed stored with the shoe', async () => {
      await tampered(
        'game',
        { pk: `SHOE#${shoe.shoeId}`, sk: 'SHOE' },
        (item) => {
          item.serverSeed = 'ab'.repeat(32);
        },
        async () => {
          const replay = await replayTarget();
          expect(replay.verification.commitment.problems.map((p) => p.code).sort()).toEqual([
            'SEED_COMMITMENT',
            'SEED_MISMATCH',
          ]);
          expect(replay.verification.cards.status).toBe('FAILED');
          const cli = await cliVerify(await exported());
          expect(cli.failed).toContain('seed.commitment');
          expect(cli.failed).toContain('audit.seed-revealed');
        },
      );
    });

    it('after every edit was put back, everything verifies again', async () => {
      expect((await replayTarget()).verification.status).toBe('VERIFIED');
      expect((await verifyShoe(await exported())).checks.every((c) => c.ok)).toBe(true);
    });
  });
});
