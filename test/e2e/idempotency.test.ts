/**
 * Idempotency-Key over HTTP (brief §7): a retry gets the first answer and moves no money again; the
 * same key for another request is a 422; concurrent duplicates produce one bet; keys are per operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, freshKey } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;
let roundId: string;
const PLAYER = 'idem-player';

const balance = async (key: string, player = PLAYER) =>
  (await api.get(`/v1/wallets/${player}`, { key })).body.balance as number;
const ledgerLength = async (key: string) =>
  (await api.get(`/v1/wallets/${PLAYER}/ledger?limit=100`, { key })).body.entries.length as number;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  const { admin, operator } = stack.a;
  const tableId = (await api.post('/v1/tables', { key: admin, body: { name: 'Idem', variant: 'mini' } })).body
    .tableId;
  await api.post(`/v1/wallets/${PLAYER}/transactions`, {
    key: operator,
    body: { type: 'CREDIT', amount: 100_000, currency: 'EUR' },
  });
  await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
  roundId = (await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} })).body.roundId;
});
afterAll(() => stack?.stop());

describe('Idempotency-Key', () => {
  it('replays the first answer to a retry and debits once', async () => {
    const { operator } = stack.a;
    const idem = freshKey('credit');
    const body = { type: 'DEBIT', amount: 1_000, currency: 'EUR', reference: 'cash-out 1' };
    const before = await balance(operator);
    const first = await api.post(`/v1/wallets/${PLAYER}/transactions`, { key: operator, idem, body });
    // The same request written differently (key order, spacing) is the same request.
    const raw = '{ "currency": "EUR", "reference": "cash-out 1", "amount": 1000, "type": "DEBIT" }';
    const retry = await api.post(`/v1/wallets/${PLAYER}/transactions`, { key: operator, idem, raw });
    expect(first.status).toBe(201);
    expect([retry.status, retry.body]).toEqual([201, first.body]);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(await balance(operator)).toBe(before - 1_000);
  });

  it('refuses the same key with another body (422) and moves nothing', async () => {
    const { operator } = stack.a;
    const idem = freshKey('debit');
    const body = { type: 'DEBIT', amount: 500, currency: 'EUR' };
    expect((await api.post(`/v1/wallets/${PLAYER}/transactions`, { key: operator, idem, body })).status).toBe(
      201,
    );
    const before = [await balance(operator), await ledgerLength(operator)];
    const other = await api.post(`/v1/wallets/${PLAYER}/transactions`, {
      key: operator,
      idem,
      body: { ...body, amount: 600 },
    });
    expect([other.status, other.body.code, other.contentType]).toEqual([
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'application/problem+json',
    ]);
    // Nor may the key be carried over to another endpoint.
    const elsewhere = await api.post(`/v1/rounds/${roundId}/bets`, {
      key: operator,
      idem,
      body: { playerId: PLAYER, bets: [{ type: 'TIE', amount: 100 }] },
    });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect([await balance(operator), await ledgerLength(operator)]).toEqual(before);
  });

  it('turns concurrent duplicates of a bet into one bet', async () => {
    const { operator } = stack.a;
    const idem = freshKey('bet');
    const body = { playerId: PLAYER, bets: [{ type: 'PLAYER', amount: 700 }] };
    const before = await balance(operator);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api.post(`/v1/rounds/${roundId}/bets`, { key: operator, idem, body })),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) {
      if (a.status === 201) expect(a.body).toEqual(created[0]!.body);
      else expect([a.status, a.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_FLIGHT']);
    }
    // Once settled, a retry replays; and exactly one stake left the wallet.
    const retry = await api.post(`/v1/rounds/${roundId}/bets`, { key: operator, idem, body });
    expect([retry.status, retry.body]).toEqual([201, created[0]!.body]);
    expect(await balance(operator)).toBe(before - 700);
    const round = (await api.get(`/v1/rounds/${roundId}`, { key: operator })).body;
    expect(round.positions.find((p: { playerId: string }) => p.playerId === PLAYER).stake).toBe(700);
  });

  it('scopes keys per operator: another operator may use the same key for its own request', async () => {
    const idem = freshKey('shared');
    const a = await api.post(`/v1/wallets/${PLAYER}/transactions`, {
      key: stack.a.operator,
      idem,
      body: { type: 'DEBIT', amount: 100, currency: 'EUR' },
    });
    const b = await api.post(`/v1/wallets/${PLAYER}/transactions`, {
      key: stack.b.operator,
      idem,
      body: { type: 'CREDIT', amount: 5_000, currency: 'EUR' },
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get('idempotency-replayed')).toBeNull();
    expect(b.body.wallet).toMatchObject({ operatorId: 'op-b', balance: 5_000 });
  });

  it('requires a key on every POST, and GETs need none', async () => {
    const { operator } = stack.a;
    const missing = await api.post(`/v1/wallets/${PLAYER}/transactions`, {
      key: operator,
      idem: null,
      body: { type: 'DEBIT', amount: 100, currency: 'EUR' },
    });
    expect([missing.status, missing.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    expect((await api.get(`/v1/wallets/${PLAYER}`, { key: operator })).status).toBe(200);
  });

  it('replays refusals a retry cannot change, and does not store input errors', async () => {
    const { operator } = stack.a;
    const idem = freshKey('broke');
    const body = { type: 'DEBIT', amount: 10_000_000, currency: 'EUR' };
    const first = await api.post(`/v1/wallets/${PLAYER}/transactions`, { key: operator, idem, body });
    expect([first.status, first.body.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
    const again = await api.post(`/v1/wallets/${PLAYER}/transactions`, { key: operator, idem, body });
    expect([again.status, again.body, again.headers.get('idempotency-replayed')]).toEqual([
      422,
      first.body,
      'true',
    ]);

    // A request refused by validation never reached the key: the key is still free.
    const fresh = freshKey('typo');
    const invalid = await api.post(`/v1/wallets/${PLAYER}/transactions`, {
      key: operator,
      idem: fresh,
      body: { type: 'DEBIT', amount: -1, currency: 'EUR' },
    });
    expect(invalid.status).toBe(400);
    const fixed = await api.post(`/v1/wallets/${PLAYER}/transactions`, {
      key: operator,
      idem: fresh,
      body: { type: 'DEBIT', amount: 1, currency: 'EUR' },
    });
    expect(fixed.status).toBe(201);
  });
});
