/**
 * Seed 002's historical 10% commission on winning Banca bets, end to end over HTTP: a table created
 * with `commission.rateBps: 1000`, Banca bets placed and settled through the API, each win paid at
 * 1:1 less 10% (the house keeping any fraction), the ledger adding up, and the rounds replaying VERIFIED
 * once the shoe is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator as operatorOf } from '../support/actors';
import { bancaResult, openRoundDealing } from '../support/dealt';
import { dealingOf } from './support/dealing';
import { type Client, client, type Json } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;
beforeAll(async () => {
  // Shoes dealt to order (test/support/dealt.ts): pyb-shoe/2, allowed on the local key service only.
  stack = await startStack({ env: { SHOE_SCHEME: 'pyb-shoe/2' } });
  api = client(stack.url);
});
afterAll(() => stack?.stop());

const STAKES: Record<string, number> = { ten: 1_000, odd: 1_005, small: 505 };
const FUNDS = 1_000_000;

describe('10% commission (seed 002)', () => {
  it('on a shoe dealt to give two Banca wins, a Punto win and a tie: pays a winning Banca bet 1:1 less 10%, rounded for the house, and it all verifies', async () => {
    const { admin, operator, regulator } = stack.a;
    const table = await api.post('/v1/tables', {
      key: admin,
      body: { name: 'Diez por ciento', variant: 'mini', config: { commission: { rateBps: 1000 } } },
    });
    expect(table.status).toBe(201);
    expect(table.body.config.commission).toEqual({ rateBps: 1000, mode: 'AT_PAYMENT' });
    const tableId: string = table.body.tableId;
    for (const playerId of Object.keys(STAKES)) {
      await api.post(`/v1/wallets/${playerId}/transactions`, {
        key: operator,
        body: { type: 'CREDIT', amount: FUNDS, currency: 'EUR' },
      });
    }
    const shoe = await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
    const shoeId: string = shoe.body.shoeId;
    const rounds: Json[] = [];
    // The first round opens in this process (../support/dealt) with a client seed whose shoe deals
    // Banca, Banca, then Punto and a tie in some order; the rest goes over HTTP.
    const dealt = await openRoundDealing(dealingOf(stack), operatorOf('op-a'), {
      tableId,
      deals: (coups) =>
        coups.length > 4 &&
        coups.slice(0, 2).every((c) => bancaResult(c) === 'WIN') &&
        new Set(coups.slice(2, 4).map(bancaResult)).size === 2 &&
        !coups.slice(2, 4).some((c) => bancaResult(c) === 'WIN'),
    });
    for (let n = 0; n < 4; n++) {
      const round =
        n === 0
          ? { body: dealt.round }
          : await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} });
      for (const [playerId, amount] of Object.entries(STAKES)) {
        const bet = await api.post(`/v1/rounds/${round.body.roundId}/bets`, {
          key: operator,
          body: { playerId, bets: [{ type: 'BANKER', amount }] },
        });
        expect(bet.status).toBe(201);
      }
      const resolved = await api.post(`/v1/rounds/${round.body.roundId}/resolve`, {
        key: operator,
        body: {},
      });
      expect(resolved.body.status).toBe('SETTLED');
      rounds.push(resolved.body);
    }
    expect(rounds.map((r) => r.result.winner).sort()).toEqual(['BANKER', 'BANKER', 'PLAYER', 'TIE']);
    for (const round of rounds) {
      for (const position of round.positions as Json[]) {
        const stake = STAKES[position.playerId]!;
        const winner = round.result.winner;
        // 10% of the win, the fraction to the house: 1,000 → 100; 1,005 → 101 (100.5); 505 → 51 (50.5).
        const commission = Math.ceil(stake / 10);
        const expected =
          winner === 'BANKER'
            ? { payout: 2 * stake - commission, commission }
            : winner === 'TIE'
              ? { payout: stake, commission: 0 }
              : { payout: 0, commission: 0 };
        expect({ payout: position.payout, commission: position.commission }, position.playerId).toEqual(
          expected,
        );
      }
    }
    for (const playerId of Object.keys(STAKES)) {
      const wallet = (await api.get(`/v1/wallets/${playerId}`, { key: operator })).body;
      const ledger = (await api.get(`/v1/wallets/${playerId}/ledger?limit=100`, { key: operator })).body;
      expect(ledger.entries.reduce((s: number, e: Json) => s + e.amount, 0)).toBe(wallet.balance);
      const net = rounds.reduce((s, r) => {
        const p = r.positions.find((x: Json) => x.playerId === playerId);
        return s + p.payout - p.stake;
      }, 0);
      expect(wallet.balance).toBe(FUNDS + net);
    }
    // The replay recomputes every payout from the revealed shoe with the table's 10%.
    expect(
      (await api.post(`/v1/shoes/${shoeId}/close`, { key: admin, body: { reason: 'END_OF_SESSION' } }))
        .status,
    ).toBe(200);
    for (const round of rounds) {
      const replay = await api.get(`/v1/rounds/${round.roundId}/replay`, { key: regulator });
      expect(replay.body.verification.status, round.roundId).toBe('VERIFIED');
    }
  });
});
