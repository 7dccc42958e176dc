/**
 * Side bets over HTTP (#13), every exchange held to the served OpenAPI document: a table created with
 * a Banca mode, every side bet (default and custom pay tables) and a raised cut card shows them as
 * stored; a bet of a type the table does not offer is 422 BET_SIDE_DISABLED and moves no money; a
 * round's positions and the scoreboard show the side bets settled.
 */
import { type ShoeCoup, SIDE_BET_TYPES } from '@pyb/engine';
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

const LIMIT = { min: 100, max: 10_000 };
const SIDE_BETS = {
  ...Object.fromEntries(SIDE_BET_TYPES.map((t) => [t, { limit: LIMIT }])),
  BIG: { pays: { win: 1, per: 2 }, limit: LIMIT },
};

async function fund(playerId: string, amount = 1_000_000) {
  const credit = await api.post(`/v1/wallets/${playerId}/transactions`, {
    key: stack.a.operator,
    body: { type: 'CREDIT', amount, currency: 'EUR' },
  });
  expect(credit.status).toBe(201);
}

describe('side bets through the API', () => {
  it('creates a table with a Banca mode, side bets and a raised cut card, and shows them', async () => {
    const created = await api.post('/v1/tables', {
      key: stack.a.admin,
      body: {
        name: 'Super 6 e2e',
        variant: 'midi',
        config: {
          bankerMode: 'SUPER_6',
          sideBets: SIDE_BETS,
          cutCard: { minCardsBehind: 78, maxCardsBehind: 90 },
        },
      },
    });
    expect(created.status).toBe(201);
    const config = created.body.config;
    expect(config.bankerMode).toBe('SUPER_6');
    expect(Object.keys(config.sideBets)).toEqual([...SIDE_BET_TYPES]);
    expect(config.sideBets.BIG).toEqual({ pays: { win: 1, per: 2 }, limit: LIMIT });
    expect(config.sideBets.DRAGON_7).toEqual({ pays: { win: 40, per: 1 }, limit: LIMIT });
    expect(config.sideBets.DRAGON_BONUS_BANKER.margin['9']).toEqual({ win: 30, per: 1 });
    expect(config.cutCard).toEqual({ minCardsBehind: 78, maxCardsBehind: 90 });
    const read = await api.get(`/v1/tables/${created.body.tableId}`, { key: stack.a.regulator });
    expect(read.body.config).toEqual(config);
  });

  it('refuses configurations the rules refuse with a problem naming the field', async () => {
    const post = (config: unknown) =>
      api.post('/v1/tables', { key: stack.a.admin, body: { name: 'Bad', variant: 'mini', config } });
    const empty = await post({ sideBets: {} });
    expect([empty.status, empty.body.code]).toEqual([400, 'TABLE_CONFIG_INVALID']);
    expect(empty.body.details.issues).toEqual([
      { path: 'sideBets', message: 'leave sideBets out when none is offered' },
    ]);
    const noLimit = await post({ sideBets: { PANDA_8: { pays: { win: 25, per: 1 } } } });
    expect([noLimit.status, noLimit.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await post({ sideBets: { LUCKY_6: { limit: LIMIT } } });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const tooDeep = await post({ cutCard: { minCardsBehind: 90, maxCardsBehind: 300 } });
    expect([tooDeep.status, tooDeep.body.code]).toEqual([400, 'TABLE_CONFIG_INVALID']);
    expect(tooDeep.body.details.issues[0].path).toBe('cutCard.maxCardsBehind');
  });

  it('refuses a bet of a type the table does not offer (422, nothing written), and settles offered ones on a shoe dealt to give a Dragon 7 and a Panda 8', async () => {
    const { admin, operator, regulator } = stack.a;
    const table = await api.post('/v1/tables', {
      key: admin,
      body: {
        name: 'EZ e2e',
        variant: 'mini',
        config: { bankerMode: 'EZ', sideBets: { DRAGON_7: { limit: LIMIT }, PANDA_8: { limit: LIMIT } } },
      },
    });
    const tableId = table.body.tableId;
    expect((await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).status).toBe(201);
    await fund('sb-ana');
    const before = await api.get('/v1/wallets/sb-ana', { key: operator });

    // Dragon 7 wins 2.25% of coups and Panda 8 3.45%: the shoe deals a Dragon 7, then a Panda 8, then
    // a coup neither wins (../support/dealt), so each branch below runs on every run.
    const dragon7Of = (c: ShoeCoup) =>
      c.result.winner === 'BANKER' && c.result.banker.cards.length === 3 && c.result.banker.total === 7;
    const panda8Of = (c: ShoeCoup) =>
      c.result.winner === 'PLAYER' && c.result.player.cards.length === 3 && c.result.player.total === 8;
    const dealt = await openRoundDealing(dealingOf(stack), operatorOf('op-a'), {
      tableId,
      deals: ([one, two, three]) =>
        !!one && !!two && !!three && dragon7Of(one) && panda8Of(two) && !dragon7Of(three) && !panda8Of(three),
      maxTries: 100_000,
    });
    for (let coup = 1; coup <= 3; coup++) {
      const round =
        coup === 1
          ? { body: dealt.round }
          : await api.post(`/v1/tables/${tableId}/rounds`, { key: operator });
      const roundId = round.body.roundId;
      if (coup === 1) {
        for (const type of ['BIG', 'PLAYER_PAIR']) {
          const refused = await api.post(`/v1/rounds/${roundId}/bets`, {
            key: operator,
            body: {
              playerId: 'sb-ana',
              bets: [
                { type: 'BANKER', amount: 1_000 },
                { type, amount: 100 },
              ],
            },
          });
          expect(refused.status).toBe(422);
          expect(refused.contentType).toContain('application/problem+json');
          expect(refused.body.code).toBe('BET_SIDE_DISABLED');
          expect(refused.body.details).toEqual({ betType: type });
        }
        expect((await api.get('/v1/wallets/sb-ana', { key: operator })).body).toEqual(before.body);
        expect((await api.get(`/v1/wallets/sb-ana/ledger`, { key: operator })).body.entries).toHaveLength(1);
        expect((await api.get(`/v1/rounds/${roundId}`, { key: operator })).body.positions).toEqual([]);
      }
      const placed = await api.post(`/v1/rounds/${roundId}/bets`, {
        key: operator,
        body: {
          playerId: 'sb-ana',
          bets: [
            { type: 'BANKER', amount: 1_000 },
            { type: 'DRAGON_7', amount: 200 },
            { type: 'PANDA_8', amount: 300 },
          ],
        },
      });
      expect(placed.status).toBe(201);
      const resolved = await api.post(`/v1/rounds/${roundId}/resolve`, { key: operator });
      expect(resolved.status).toBe(200);
      const position = resolved.body.positions[0];
      expect(position.bets.map((b: { type: string }) => b.type)).toEqual(['BANKER', 'DRAGON_7', 'PANDA_8']);
      const { result } = resolved.body;
      const banker = result.banker;
      const dragon7 = result.winner === 'BANKER' && banker.cards.length === 3 && banker.total === 7;
      const dragonBet = position.bets.find((b: { type: string }) => b.type === 'DRAGON_7');
      expect(dragonBet.result).toBe(dragon7 ? 'WIN' : 'LOSE');
      expect(dragonBet.payout).toBe(dragon7 ? 200 * 41 : 0);
      const bankerBet = position.bets.find((b: { type: string }) => b.type === 'BANKER');
      // EZ: no commission; a Banca three-card 7 pushes.
      expect(bankerBet.commission).toBe(0);
      expect([dragon7, panda8Of({ result } as ShoeCoup)]).toEqual([coup === 1, coup === 2]);
      if (dragon7) expect(bankerBet.result).toBe('PUSH');

      const board = await api.get(`/v1/tables/${tableId}/scoreboard`, { key: regulator });
      const shown = board.body.coups.at(-1);
      expect(shown.roundId).toBe(roundId);
      expect(shown.cards).toBe(result.cardsUsed);
      expect(shown.sideBets).toEqual([
        { type: 'DRAGON_7', result: dragon7 ? 'WIN' : 'LOSE' },
        {
          type: 'PANDA_8',
          result:
            result.winner === 'PLAYER' && result.player.cards.length === 3 && result.player.total === 8
              ? 'WIN'
              : 'LOSE',
        },
      ]);
    }
  });
});
