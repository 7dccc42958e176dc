/**
 * A whole shoe over real HTTP, as an operator integrates: table, wallets, shoe (commitment signed and
 * published), rounds with bets of every type from three players, resolve, scoreboard, ledgers, then
 * close and reveal — and the reveal checks out against the commitment and the signature.
 */
import { createHash, createVerify } from 'node:crypto';
import { canonicalJson } from '@pyb/fairness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator as operatorOf } from '../support/actors';
import { openRoundDealing } from '../support/dealt';
import { dealingOf } from './support/dealing';
import { type Client, client } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;

beforeAll(async () => {
  // Shoes dealt to order (test/support/dealt.ts): pyb-shoe/2, allowed on the local key service only.
  stack = await startStack({ env: { SHOE_SCHEME: 'pyb-shoe/2' } });
  api = client(stack.url);
});
afterAll(() => stack?.stop());

const PLAYERS = ['ana', 'bruno', 'carla'] as const;
const START = 1_000_000;

/** Bets per player per coup: every type, never Punto and Banca together. */
const betsFor = (coup: number, player: number) =>
  [
    [
      { type: 'PLAYER', amount: 1_000 },
      { type: 'PLAYER_PAIR', amount: 200 },
    ],
    [
      { type: 'BANKER', amount: 2_000 },
      { type: 'BANKER_PAIR', amount: 100 },
    ],
    [
      { type: 'TIE', amount: 500 },
      { type: 'PLAYER', amount: 700 },
    ],
  ][(coup + player) % 3]!;

describe('a shoe played through the API', () => {
  it('plays from the first coup to the cut card of a shoe dealt with a tie and both pairs, pays by the rules, and reveals a seed that checks out', async () => {
    const { admin, operator, regulator } = stack.a;

    const table = await api.post('/v1/tables', {
      key: admin,
      body: {
        name: 'Mini e2e',
        variant: 'custom',
        // Six decks (the API takes 6 or 8) and a deep cut card: a short shoe (a handful of coups, the
        // cards of a one-deck shoe cut 14-20 from its end) keeps the test quick.
        config: { decks: 6, pairBets: true, cutCard: { minCardsBehind: 274, maxCardsBehind: 280 } },
      },
    });
    expect(table.status).toBe(201);
    const tableId: string = table.body.tableId;
    expect(table.body.config).toMatchObject({
      variant: 'custom',
      name: 'Mini e2e',
      decks: 6,
      pairBets: true,
      seats: 7,
    });

    for (const player of PLAYERS) {
      const credit = await api.post(`/v1/wallets/${player}/transactions`, {
        key: operator,
        body: { type: 'CREDIT', amount: START, currency: 'EUR', reference: 'cash-in' },
      });
      expect(credit.status).toBe(201);
      expect(credit.body.wallet.balance).toBe(START);
    }

    const shoe = await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
    expect(shoe.status).toBe(201);
    const shoeId: string = shoe.body.shoeId;
    expect(shoe.body).toMatchObject({
      status: 'OPEN',
      serverSeed: null,
      decks: 6,
      commitment: expect.any(String),
    });

    const expected: Record<string, number> = Object.fromEntries(PLAYERS.map((p) => [p, START]));

    // An irregularity before the deal: the round is voided and every stake comes back.
    // It opens in this process (../support/dealt) with a client seed whose shoe deals a tie, a Punto
    // pair and a Banca pair (every coup holds every bet type), so each payout rule below is checked.
    const { round: spoiledRound } = await openRoundDealing(dealingOf(stack), operatorOf('op-a'), {
      tableId,
      deals: (coups) =>
        coups.some((c) => c.result.winner === 'TIE') &&
        coups.some((c) => c.result.playerPair) &&
        coups.some((c) => c.result.bankerPair),
    });
    const spoiled = { body: spoiledRound };
    for (const [i, player] of PLAYERS.entries()) {
      const bet = await api.post(`/v1/rounds/${spoiled.body.roundId}/bets`, {
        key: operator,
        body: { playerId: player, bets: betsFor(0, i) },
      });
      expect(bet.status).toBe(201);
    }
    const voided = await api.post(`/v1/rounds/${spoiled.body.roundId}/void`, {
      key: operator,
      body: { reason: 'EXPOSED_CARD', note: 'card shown while dealing' },
    });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body).toMatchObject({ status: 'VOIDED', voidReason: 'EXPOSED_CARD', result: null });
    expect(voided.body.positions.map((p: { status: string }) => p.status)).toEqual(
      PLAYERS.map(() => 'REFUNDED'),
    );
    for (const player of PLAYERS) {
      expect((await api.get(`/v1/wallets/${player}`, { key: operator })).body.balance).toBe(START);
    }

    const rounds: string[] = [];
    /** The bet types that won, and PUSH: each rule below ran at least once. */
    const came = new Set<string>();
    for (let coup = 0; coup < 30; coup++) {
      const round = await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} });
      expect(round.status).toBe(201);
      const roundId: string = round.body.roundId;
      rounds.push(roundId);
      expect(round.body).toMatchObject({ status: 'OPEN', coup: coup + 2, shoeId });

      for (const [i, player] of PLAYERS.entries()) {
        const bets = betsFor(coup, i);
        const bet = await api.post(`/v1/rounds/${roundId}/bets`, {
          key: operator,
          body: { playerId: player, bets },
        });
        expect(bet.status, JSON.stringify(bet.body)).toBe(201);
        const stake = bets.reduce((sum, b) => sum + b.amount, 0);
        expected[player]! -= stake;
        expect(bet.body.balance).toBe(expected[player]);
        expect(bet.body.position.stake).toBe(stake);
      }

      const resolved = await api.post(`/v1/rounds/${roundId}/resolve`, { key: operator });
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
      const r = resolved.body;
      expect(r.status).toBe('SETTLED');
      expect(r.result.player.cards.length + r.result.banker.cards.length).toBe(r.result.cardsUsed);
      expect(r.positions).toHaveLength(PLAYERS.length);
      for (const position of r.positions) {
        expect(position.status).toBe('SETTLED');
        // A position pays what its bets pay, to the unit.
        expect(position.payout).toBe(
          position.bets.reduce((s: number, b: { payout: number }) => s + b.payout, 0),
        );
        for (const b of position.bets) {
          if (b.result === 'LOSE') expect(b.payout).toBe(0);
          came.add(b.result === 'WIN' ? b.type : b.result);
          if (b.type === 'TIE' && b.result === 'WIN') expect(b.payout).toBe(b.amount * 9);
          if (b.type === 'PLAYER' && b.result === 'WIN') expect(b.payout).toBe(b.amount * 2);
          if (b.type.endsWith('_PAIR') && b.result === 'WIN') expect(b.payout).toBe(b.amount * 12);
          if (b.type === 'BANKER' && b.result === 'WIN') {
            expect(b.payout).toBe(b.amount * 2 - Math.ceil((b.amount * 500) / 10_000));
          }
          if (r.result.winner === 'TIE' && (b.type === 'PLAYER' || b.type === 'BANKER')) {
            expect([b.result, b.payout]).toEqual(['PUSH', b.amount]);
          }
        }
        expected[position.playerId]! += position.payout;
      }
      if (r.lastCoup) break;
    }
    expect(rounds.length).toBeGreaterThan(1);
    expect([...came]).toEqual(expect.arrayContaining(['TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'PUSH']));
    expect(rounds.length).toBeLessThan(30);

    // The cut card came out: no more rounds on this shoe.
    const late = await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} });
    expect([late.status, late.body.code]).toEqual([409, 'SHOE_ENDED']);

    for (const player of PLAYERS) {
      const wallet = await api.get(`/v1/wallets/${player}`, { key: operator });
      expect(wallet.body.balance).toBe(expected[player]);
      const ledger = await api.get(`/v1/wallets/${player}/ledger?limit=100`, { key: operator });
      expect(ledger.status).toBe(200);
      const entries: { amount: number }[] = ledger.body.entries;
      expect(entries.reduce((s, e) => s + e.amount, 0)).toBe(expected[player]);
    }

    const board = await api.get(`/v1/tables/${tableId}/scoreboard`, { key: regulator });
    expect(board.status).toBe(200);
    expect(board.body.shoeId).toBe(shoeId);
    expect(board.body.coups.map((c: { roundId: string }) => c.roundId)).toEqual(rounds);
    expect(board.body.panel.coups).toBe(rounds.length);
    const { player, banker, tie } = board.body.panel.counts;
    expect(player + banker + tie).toBe(rounds.length);

    const left = await api.post(`/v1/tables/${tableId}/players/${PLAYERS[0]}/leave`, { key: operator });
    expect([left.status, left.body.commissionCollected, left.body.balance]).toEqual([
      200,
      0,
      expected[PLAYERS[0]],
    ]);

    const closed = await api.post(`/v1/shoes/${shoeId}/close`, { key: admin });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.status).toBe('CLOSED');
    const seed: string = closed.body.serverSeed;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex')).toBe(closed.body.commitment);

    const key = await api.get('/v1/signing-key');
    const verifier = createVerify('sha256');
    verifier.update(canonicalJson(closed.body.statement));
    expect(verifier.verify(key.body.pem, Buffer.from(closed.body.signature, 'base64'))).toBe(true);

    // The reveal is also what a later GET shows, to any reader of the tenant.
    const read = await api.get(`/v1/shoes/${shoeId}`, { key: regulator });
    expect(read.body.serverSeed).toBe(seed);
  });
});
