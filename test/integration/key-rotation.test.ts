/**
 * A signing-key rotation while a shoe is open (on the run's store): the shoe's statement is signed by
 * the first key, its chain head (at close) by the second. Replay checks each signature with the key
 * it names, the audit export carries both keys, and `baccarat verify` passes it offline. A signature
 * that the named key did not make still fails, even when another key of the operator's made it.
 */
import { createPrivateKey, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Core, type PublicKey, publicCertificate, type RoundReplay, type ShoeView } from '@pyb/core';
import { tablePreset } from '@pyb/engine';
import { bytesToBase64, closeStatementBytes, type ShoeBundle, verifyShoe } from '@pyb/fairness';
import { LocalKeyService } from '@pyb/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator, regulator } from '../support/actors';
import { baccaratVerify } from '../support/cli';
import { fundPlayers } from '../support/fixture';
import { codeOf, type PlayedRound, playShoe } from '../support/game';
import { deterministicSeeds } from '../support/keys';
import { createTestStack, type TestStack } from '../support/stack';

const PLAYERS = ['ana', 'ben'];
// A short shoe (about a dozen coups): two decks and a deep cut card.
const OVERRIDES = { decks: 2, pairBets: true, cutCard: { minCardsBehind: 40, maxCardsBehind: 50 } };
/** The key is rotated after this round, while the shoe is open. */
const ROTATE_AFTER = 4;

let stack: TestStack;
let core: Core;
let tmp: string;
let shoe: ShoeView;
let rounds: PlayedRound[];
let first: PublicKey;
let second: PublicKey;
let bundle: ShoeBundle;
const op = operator('op-1');

beforeAll(async () => {
  stack = await createTestStack('rotation');
  core = stack.coreWith({ keys: deterministicSeeds(stack.keys, 'rotation-test') });
  tmp = mkdtempSync(join(tmpdir(), 'pyb-rotation-'));
  const table = await core.createTable(admin('op-1'), {
    name: 'Rotation',
    variant: 'custom',
    config: OVERRIDES,
  });
  await fundPlayers(core, op, PLAYERS, 1_000_000);
  first = await stack.keys.publicKey();
  shoe = await core.openShoe(admin('op-1'), { tableId: table.tableId });
  rounds = await playShoe({
    core,
    actor: op,
    tableId: table.tableId,
    players: PLAYERS,
    config: tablePreset('custom', { ...OVERRIDES, name: 'Rotation' }),
    seed: 'rotation',
    voidRounds: [2],
    afterRound: async (_round, n) => {
      if (n === ROTATE_AFTER) second = stack.keys.rotateSigningKey();
    },
  });
  shoe = await core.closeShoe(admin('op-1'), { shoeId: shoe.shoeId });
  bundle = await core.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId });
});
afterAll(async () => {
  await stack?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** `baccarat verify` of a bundle, trusting these keys and the test beacon: its exit code and failed checks. */
async function cliVerify(b: ShoeBundle, keys: PublicKey[]): Promise<{ code: number; failed: string[] }> {
  const trustBeacons = [await stack.beacon.network()];
  // Every generation's certificate as GET /v1/signing-key lists them (the user saved that answer).
  const certificates = (await core.signingKey({})).certificates.map(publicCertificate);
  const { code, failed } = await baccaratVerify(b, {
    dir: tmp,
    publicKeys: keys.map((k) => k.pem),
    trustBeacons,
    trustTsas: [stack.timeStamps.pem],
    keyCertificates: certificates,
  });
  return { code, failed };
}

const failedChecks = (replay: RoundReplay) =>
  Object.entries(replay.verification)
    .filter(([, c]) => typeof c === 'object' && c !== null && 'status' in c && c.status === 'FAILED')
    .map(([name]) => name)
    .sort();
const codes = (replay: RoundReplay, check: 'statementSignature' | 'chainHead') =>
  replay.verification[check].problems.map((p) => p.code);

describe('a shoe opened under one signing key and closed under the next', () => {
  it('names the first key in its statement and the second in its close', () => {
    expect(rounds.length).toBeGreaterThan(ROTATE_AFTER);
    expect(second.keyId).not.toBe(first.keyId);
    expect([shoe.statement.keyId, shoe.keyId]).toEqual([first.keyId, first.keyId]);
    expect(shoe.close!.statement.keyId).toBe(second.keyId);
  });

  it('replay verifies every round, each signature with the key it names', async () => {
    for (const played of rounds) {
      const replay = await core.replayRound(regulator('op-1'), { roundId: played.roundId });
      expect(replay.verification.status, JSON.stringify(failedChecks(replay))).toBe('VERIFIED');
      expect(replay.shoe.publicKey).toEqual({ keyId: first.keyId, pem: first.pem });
      expect(replay.shoe.closePublicKey).toEqual({ keyId: second.keyId, pem: second.pem });
    }
    const replay = await core.replayRound(op, { roundId: rounds[0]!.roundId });
    expect(replay.verification.statementSignature.detail).toContain(`signature by ${first.keyId}`);
    expect(replay.verification.chainHead.detail).toContain(`by ${second.keyId}`);
  });

  it('still verifies after a restart, when the key service signs with the second key', async () => {
    const restarted = new LocalKeyService({ dir: stack.keysDir, env: {} });
    expect((await restarted.publicKey()).keyId).toBe(second.keyId);
    const fresh = stack.coreWith({ keys: restarted });
    const replay = await fresh.replayRound(op, { roundId: rounds.at(-1)!.roundId });
    expect(replay.verification.status).toBe('VERIFIED');
    expect((await fresh.checkShoeChain(op, { shoeId: shoe.shoeId })).problems).toEqual([]);
    // A new shoe is signed by the key that signs now.
    const table = await fresh.getTable(admin('op-1'), { tableId: shoe.tableId });
    expect(table.currentShoeId).toBeNull();
    const next = await fresh.openShoe(admin('op-1'), { tableId: shoe.tableId });
    expect(next.statement.keyId).toBe(second.keyId);
  });

  it('exports both key certificates, the second signed by the first at the handover; verifyShoe and `baccarat verify` pass it', async () => {
    expect(
      bundle.keys.map((k) => [k.certificate.keyId, k.certificate.generation, k.certificate.previousKeyId]),
    ).toEqual([
      [first.keyId, 1, null],
      [second.keyId, 2, first.keyId],
    ]);
    // The rotation was witnessed from outside before generation 2 signed: its certificate carries a token.
    expect(bundle.keys[0]!.anchor).toBeUndefined();
    expect(bundle.keys[1]!.anchor?.tokens.length).toBe(1);
    const trustBeacon = {
      trustedBeacons: [await stack.beacon.network()],
      trustedTimeStampAuthorities: [stack.timeStamps.pem],
    };
    const { certificates } = await core.signingKey({});
    const verified = await verifyShoe(bundle, {
      ...trustBeacon,
      trustedPublicKey: first.pem,
      keyCertificates: certificates,
    });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.verdict).toBe('verified');
    // Without the service's certificates, generation 2 is trusted through nothing but the bundle: refused.
    const bundleOnly = await verifyShoe(bundle, { ...trustBeacon, trustedPublicKey: first.pem });
    expect(bundleOnly.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['keys.trusted']);
    expect(await cliVerify(bundle, [first])).toEqual({ code: 0, failed: [] });
    expect(await cliVerify(bundle, [first, second])).toEqual({ code: 0, failed: [] });
    // Pinning only today's key is not enough: the statement was signed by the retired one.
    expect(await cliVerify(bundle, [second])).toEqual({ code: 1, failed: ['keys.trusted'] });
  });

  it('serves each key by the id a statement names, with the interval it was valid in', async () => {
    const now = await core.signingKey({});
    expect([now.key.keyId, now.certificate?.generation, now.validUntil]).toEqual([second.keyId, 2, null]);
    // Every generation's certificate, oldest first: the chain a verifier pins.
    expect(now.certificates.map((c) => [c.generation, c.certificate.keyId])).toEqual([
      [1, first.keyId],
      [2, second.keyId],
    ]);
    const old = await core.signingKey({ keyId: first.keyId });
    expect([old.key.pem, old.certificate?.generation, old.validUntil]).toEqual([
      first.pem,
      1,
      now.certificate!.certificate.validFrom,
    ]);
    expect(await codeOf(core.signingKey({ keyId: 'local:0123456789abcdef0123456789abcdef' }))).toBe(
      'SIGNING_KEY_NOT_FOUND',
    );
  });
});

describe('what still fails', () => {
  it('a key service that knows neither key: SIGNING_KEY_UNKNOWN in replay, not verified', async () => {
    const stranger = stack.coreWith({
      keys: new LocalKeyService({ dir: join(tmp, 'other-keys'), env: {} }),
    });
    const replay = await stranger.replayRound(op, { roundId: rounds[0]!.roundId });
    expect(codes(replay, 'statementSignature')).toEqual(['SIGNING_KEY_UNKNOWN']);
    expect(codes(replay, 'chainHead')).toEqual(['SIGNING_KEY_UNKNOWN']);
    expect(failedChecks(replay)).toEqual(['chainHead', 'statementSignature']);
    expect(replay.shoe.publicKey).toBeNull();
  });

  it('a key the key service can read but the stored key chain never certified: SIGNING_KEY_UNKNOWN, the chain named', async () => {
    // As an insider would: the second generation's certificate deleted (the key service still has the key).
    const Key = { pk: 'SIGNING-KEYS', sk: 'G#000002' };
    const Item = (await stack.raw.get('audit', Key))!;
    expect(Item).toBeDefined();
    await stack.raw.delete('audit', Key);
    try {
      // A fresh core: its certificate cache is empty, as in a new container.
      const replay = await stack.coreWith({}).replayRound(op, { roundId: rounds[0]!.roundId });
      expect(codes(replay, 'statementSignature')).toEqual([]);
      expect(codes(replay, 'chainHead')).toEqual(['SIGNING_KEY_UNKNOWN']);
      expect(replay.verification.chainHead.problems[0]!.detail).toContain(
        `no certificate of the platform's key chain names key ${second.keyId}`,
      );
    } finally {
      await stack.raw.put('audit', Item);
    }
  });

  it('a chain head signed by another key than the one it names (the retired key): HEAD_SIGNATURE', async () => {
    // The first key is still on disk: sign the close statement with it, keep the name of the second.
    const retired = createPrivateKey(readFileSync(join(stack.keysDir, 'sign.pem')));
    const forged = sign('sha256', closeStatementBytes(shoe.close!.statement), {
      key: retired,
      dsaEncoding: 'der',
    });
    expect(verify('sha256', closeStatementBytes(shoe.close!.statement), first.pem, forged)).toBe(true);
    const Key = { pk: `SHOE#${shoe.shoeId}`, sk: 'SHOE' };
    const Item = (await stack.raw.get('game', Key))!;
    const copy = structuredClone(Item) as { close: { signature: string } };
    copy.close.signature = bytesToBase64(new Uint8Array(forged));
    await stack.raw.put('game', copy);
    try {
      const replay = await core.replayRound(op, { roundId: rounds[0]!.roundId });
      expect(codes(replay, 'chainHead')).toEqual(['HEAD_SIGNATURE']);
      expect(replay.verification.chainHead.detail).toContain(second.keyId);
      expect(failedChecks(replay)).toEqual(['chainHead']);
      const exported = await core.exportAudit(regulator('op-1'), { shoeId: shoe.shoeId });
      expect((await verifyShoe(exported)).checks.filter((c) => !c.ok).map((c) => c.id)).toEqual([
        'audit.close.signature',
      ]);
    } finally {
      await stack.raw.put('game', Item);
    }
    expect((await core.replayRound(op, { roundId: rounds[0]!.roundId })).verification.status).toBe(
      'VERIFIED',
    );
  });
});
