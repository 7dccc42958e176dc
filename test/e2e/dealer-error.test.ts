/**
 * The dealer-error void over HTTP (seed 004:67-68), held to the served OpenAPI document: `burnCards`
 * with a dealer error burns the coup's cards (shown on the round, the next coup starts after them);
 * with another reason it is 400 VOID_REASON_INVALID and the round stays open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
});
afterAll(() => stack?.stop());

describe('POST /v1/rounds/{roundId}/void with burnCards', () => {
  it('burns the cards of a coup a dealer error exposed, and only for a dealer error', async () => {
    const { admin, operator } = stack.a;
    const table = await api.post('/v1/tables', { key: admin, body: { name: 'Burn e2e', variant: 'mini' } });
    const tableId = table.body.tableId;
    expect((await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).status).toBe(201);
    const credit = await api.post('/v1/wallets/burn-ana/transactions', {
      key: operator,
      body: { type: 'CREDIT', amount: 100_000, currency: 'EUR' },
    });
    expect(credit.status).toBe(201);

    const round = await api.post(`/v1/tables/${tableId}/rounds`, { key: operator });
    const roundId = round.body.roundId;
    await api.post(`/v1/rounds/${roundId}/bets`, {
      key: operator,
      body: { playerId: 'burn-ana', bets: [{ type: 'TIE', amount: 1_000 }] },
    });
    const refused = await api.post(`/v1/rounds/${roundId}/void`, {
      key: operator,
      body: { reason: 'OPERATOR_ERROR', burnCards: true },
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'VOID_REASON_INVALID']);
    expect((await api.get(`/v1/rounds/${roundId}`, { key: operator })).body.status).toBe('OPEN');

    const voided = await api.post(`/v1/rounds/${roundId}/void`, {
      key: operator,
      body: { reason: 'EXPOSED_CARD', note: 'first card of the coup face up', burnCards: true },
    });
    expect(voided.status).toBe(200);
    expect(voided.body.status).toBe('VOIDED');
    expect(voided.body.positions[0]).toMatchObject({ status: 'REFUNDED', payout: 1_000 });
    const burned = voided.body.burned;
    expect(burned.cards.length).toBeGreaterThanOrEqual(4);
    expect((await api.get('/v1/wallets/burn-ana', { key: operator })).body.balance).toBe(100_000);

    const next = await api.post(`/v1/tables/${tableId}/rounds`, { key: operator });
    const dealt = await api.post(`/v1/rounds/${next.body.roundId}/resolve`, { key: operator });
    expect(dealt.body.result.start).toBe(burned.start + burned.cards.length);
    expect(dealt.body.burned).toBeNull();
  });
});
