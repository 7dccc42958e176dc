/**
 * What a regulator does, over real HTTP: a shoe is played through the API; each round is replayed
 * (PENDING_REVEAL before the close, VERIFIED after), a player's last rounds are recalled, and the
 * closed shoe is exported and passes `baccarat verify` offline. Another operator's keys get 404s, and
 * nothing answered before the close contains the seed it then reveals.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsInOrder } from '../support/order';
import { type Client, client, type Json } from './support/http';
import { type E2eStack, startStack } from './support/stack';

// The file's tests are the steps of one story, each using what the ones before it made (docs/testing.md, "Order and load").
stepsInOrder();

const run = promisify(execFile);
const PLAYERS = ['ana', 'bruno'] as const;

let stack: E2eStack;
let api: Client;
let tmp: string;
let shoeId = '';
const rounds: string[] = [];
/** Every answer given before the shoe was closed, to search for the seed the close reveals. */
const beforeClose: string[] = [];

/** Both players every coup; bruno sits out every third. Never Punto and Banca together. */
const betsFor = (coup: number, player: number) =>
  player === 0
    ? [
        { type: coup % 2 === 0 ? 'PLAYER' : 'BANKER', amount: 1_000 },
        ...(coup % 3 === 0 ? [{ type: 'TIE', amount: 200 }] : []),
      ]
    : coup % 3 === 2
      ? []
      : [
          { type: 'BANKER', amount: 2_500 },
          { type: 'PLAYER_PAIR', amount: 100 },
        ];

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  tmp = mkdtempSync(join(tmpdir(), 'pyb-e2e-replay-'));
  const { admin, operator } = stack.a;
  const table = await api.post('/v1/tables', {
    key: admin,
    body: {
      name: 'Regulated',
      variant: 'custom',
      // Six decks cut 222-228 from the end (the cards of two decks cut 14-20): a dozen and more coups,
      // enough to recall the last ten.
      config: { decks: 6, pairBets: true, cutCard: { minCardsBehind: 222, maxCardsBehind: 228 } },
    },
  });
  const tableId: string = table.body.tableId;
  for (const player of PLAYERS) {
    await api.post(`/v1/wallets/${player}/transactions`, {
      key: operator,
      body: { type: 'CREDIT', amount: 1_000_000, currency: 'EUR' },
    });
  }
  shoeId = (await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).body.shoeId;
  for (let coup = 0; coup < 40; coup++) {
    const round = await api.post(`/v1/tables/${tableId}/rounds`, {
      key: operator,
      body: coup === 0 ? { clientSeed: 'lab-e2e' } : {},
    });
    const roundId: string = round.body.roundId;
    rounds.push(roundId);
    for (const [i, playerId] of PLAYERS.entries()) {
      const bets = betsFor(coup, i);
      if (bets.length === 0) continue;
      const bet = await api.post(`/v1/rounds/${roundId}/bets`, { key: operator, body: { playerId, bets } });
      expect(bet.status, JSON.stringify(bet.body)).toBe(201);
    }
    // One round voided ("exposed card"): it deals nothing and refunds every stake.
    const end =
      coup === 1
        ? await api.post(`/v1/rounds/${roundId}/void`, { key: operator, body: { reason: 'EXPOSED_CARD' } })
        : await api.post(`/v1/rounds/${roundId}/resolve`, { key: operator });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    if (end.body.lastCoup) break;
  }
});
afterAll(async () => {
  await stack?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const get = async (path: string, key: string) => {
  const answer = await api.get(path, { key });
  if (answer.status === 200) beforeClose.push(JSON.stringify(answer.body));
  return answer;
};

describe('regulator endpoints', () => {
  it('before the close: replay says what waits for the reveal; the export is refused', async () => {
    const { regulator, operator } = stack.a;
    expect(rounds.length).toBeGreaterThanOrEqual(12);
    for (const roundId of rounds) {
      const replay = await get(`/v1/rounds/${roundId}/replay`, regulator);
      expect(replay.status, JSON.stringify(replay.body).slice(0, 300)).toBe(200);
      const v = replay.body.verification;
      expect(v.status, JSON.stringify(v)).toBe('PENDING_REVEAL');
      expect(v.commitment.status).toBe('PENDING_REVEAL');
      expect(v.statementSignature.status).toBe('PASSED');
      expect(v.auditChain.status).toBe('PASSED');
      expect(v.settlement.status).toBe('PASSED');
      expect(replay.body.shoe).toMatchObject({ status: 'OPEN', serverSeed: null, cutIndex: null });
    }
    const voided = (await get(`/v1/rounds/${rounds[1]}/replay`, operator)).body;
    expect(voided).toMatchObject({ status: 'VOIDED', voidReason: 'EXPOSED_CARD', coup: null });
    expect(
      voided.positions.every((p: Json) => p.status === 'REFUNDED' && p.balance.after === p.balance.before),
    ).toBe(true);
    await get('/v1/players/ana/rounds', operator);

    const refused = await api.get(`/v1/shoes/${shoeId}/audit`, { key: regulator });
    expect([refused.status, refused.body.code, refused.contentType]).toEqual([
      409,
      'SHOE_NOT_CLOSED',
      'application/problem+json',
    ]);
  });

  it('after the close: every round verifies, recall pages back, the bundle passes `baccarat verify`', async () => {
    const { admin, regulator, operator } = stack.a;
    const closed = await api.post(`/v1/shoes/${shoeId}/close`, { key: admin });
    expect(closed.status).toBe(200);
    const seed: string = closed.body.serverSeed;
    // Nothing answered before the close held the seed (nor the cut card position it decides).
    for (const text of beforeClose) {
      expect(text).not.toContain(seed);
      expect(text).not.toContain(`"cutIndex":${closed.body.cutIndex}`);
    }

    for (const roundId of rounds) {
      const replay = await api.get(`/v1/rounds/${roundId}/replay`, { key: regulator });
      expect(replay.body.verification.status, JSON.stringify(replay.body.verification)).toBe('VERIFIED');
      expect(replay.body.shoe.serverSeed).toBe(seed);
    }

    // Game recall: the last ten rounds of ana, in play order, then the ones before.
    const recall = await api.get('/v1/players/ana/rounds', { key: operator });
    expect(recall.status).toBe(200);
    expect(recall.body.rounds.map((r: Json) => r.roundId)).toEqual(rounds.slice(-10));
    const first = recall.body.rounds[0];
    expect(first.positions).toHaveLength(1);
    expect(first.positions[0]).toMatchObject({ playerId: 'ana', balance: { currency: 'EUR' } });
    expect(first.coup.steps[0]).toMatchObject({
      action: 'DEAL',
      rule: 'INITIAL',
      position: first.coup.start,
    });
    const older = await api.get(
      `/v1/players/ana/rounds?operatorId=op-a&limit=10&cursor=${encodeURIComponent(recall.body.nextCursor)}`,
      { key: regulator },
    );
    expect(older.body.rounds.map((r: Json) => r.roundId)).toEqual(rounds.slice(0, -10).slice(-10));

    const bundle = await api.get(`/v1/shoes/${shoeId}/audit`, { key: regulator });
    expect(bundle.status).toBe(200);
    expect(bundle.body.rounds).toHaveLength(rounds.length);
    const file = join(tmp, 'bundle.json');
    writeFileSync(file, JSON.stringify(bundle.body));
    // The key, every generation's certificate and the beacon network, as the site publishes them (the
    // stack's beacon is a local one: trusted by all its fields, as a developer would).
    const key = join(tmp, 'signing-key.json');
    writeFileSync(key, JSON.stringify((await api.get('/v1/signing-key')).body));
    // ... and the time-stamp authority's certificate, as obtained from the TSA (the stack's local one).
    const tsa = join(tmp, 'tsa.pem');
    writeFileSync(tsa, stack.tsaPem);
    const trust = ['--public-key', key, '--key-certificates', key, '--trust-beacon', key, '--trust-tsa', tsa];
    const { stdout } = await run('./node_modules/.bin/baccarat', ['verify', file, ...trust]);
    expect(stdout).toMatch(/VERIFIED: all \d+ checks passed/);
    expect(stdout).toContain(`PASS   round.${rounds.length}.cards`);

    // The public proof: no key needed, nothing personal in it, and it verifies the same way.
    const proof = await api.get(`/v1/shoes/${shoeId}/proof`);
    expect([proof.status, proof.body.format]).toEqual([200, 'pyb-shoe-proof/1']);
    expect(JSON.stringify(proof.body)).not.toMatch(/"playerId"|"ana"|"bruno"/);
    const proofFile = join(tmp, 'proof.json');
    writeFileSync(proofFile, JSON.stringify(proof.body));
    const checked = await run('./node_modules/.bin/baccarat', ['verify', proofFile, ...trust]);
    expect(checked.stdout).toMatch(/VERIFIED: all \d+ checks passed/);
  });

  it("keeps another operator's keys out with 404s", async () => {
    const { b, a } = stack;
    const roundId = rounds[3]!;
    for (const key of [b.regulator, b.operator]) {
      expect((await api.get(`/v1/rounds/${roundId}/replay`, { key })).status).toBe(404);
      expect((await api.get(`/v1/shoes/${shoeId}/audit`, { key })).status).toBe(404);
      expect((await api.get('/v1/players/ana/rounds', { key })).status).toBe(404);
    }
    const named = await api.get('/v1/players/ana/rounds?operatorId=op-a', { key: b.regulator });
    expect(named.status).toBe(404);
    // A's own regulator may not name an operator it does not supervise either.
    expect((await api.get('/v1/players/ana/rounds?operatorId=op-b', { key: a.regulator })).status).toBe(404);
    // Admin keys are not regulators: the route refuses the role.
    expect((await api.get(`/v1/rounds/${roundId}/replay`, { key: a.admin })).status).toBe(403);
  });
});
