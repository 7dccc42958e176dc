/**
 * Every endpoint refuses bad input with a 4xx application/problem+json carrying a stable code — and
 * changes nothing: the wallet, its ledger, the round and the shoe read the same afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsInOrder } from '../support/order';
import { type Answer, type Call, type Client, client, type Json } from './support/http';
import { routeOf } from './support/routes';
import { type E2eStack, startStack } from './support/stack';

// The file's tests are the steps of one story, each using what the ones before it made (docs/testing.md, "Order and load").
stepsInOrder();

let stack: E2eStack;
let api: Client;
let admin: string;
let operator: string;
let tableId: string;
let shoeId: string;
let roundId: string;
const PLAYER = 'rich';
const POOR = 'poor';

/** What must not change, read through the API. */
async function snapshot(): Promise<Json> {
  const [wallet, ledger, round, shoe, table, poor] = await Promise.all([
    api.get(`/v1/wallets/${PLAYER}`, { key: operator }),
    api.get(`/v1/wallets/${PLAYER}/ledger?limit=100`, { key: operator }),
    api.get(`/v1/rounds/${roundId}`, { key: operator }),
    api.get(`/v1/shoes/${shoeId}`, { key: operator }),
    api.get(`/v1/tables/${tableId}`, { key: operator }),
    api.get(`/v1/wallets/${POOR}`, { key: operator }),
  ]);
  return {
    wallet: wallet.body,
    ledger: ledger.body,
    round: round.body,
    shoe: shoe.body,
    table: table.body,
    poor: poor.body,
  };
}

let before: Json;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  ({ admin, operator } = stack.a);
  // Mini table, pair bets off (so side bets are refused), limits PLAYER/BANKER 500..500000.
  tableId = (await api.post('/v1/tables', { key: admin, body: { name: 'Strict', variant: 'mini' } })).body
    .tableId;
  for (const [playerId, amount] of [
    [PLAYER, 1_000_000],
    [POOR, 600],
  ] as const) {
    await api.post(`/v1/wallets/${playerId}/transactions`, {
      key: operator,
      body: { type: 'CREDIT', amount, currency: 'EUR' },
    });
  }
  shoeId = (await api.post(`/v1/tables/${tableId}/shoes`, { key: admin })).body.shoeId;
  roundId = (await api.post(`/v1/tables/${tableId}/rounds`, { key: operator, body: {} })).body.roundId;
  before = await snapshot();
});
afterAll(() => stack?.stop());

function expectProblem(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.code }, JSON.stringify(answer.body)).toEqual({
    status,
    code,
  });
  expect(answer.contentType).toBe('application/problem+json');
  expect(answer.body).toMatchObject({ type: `urn:pyb:problem:${code}`, status, title: expect.any(String) });
  expect(answer.body.detail).toEqual(expect.any(String));
  expect(answer.body.requestId).toBe(answer.headers.get('x-request-id'));
}

type Case = [
  label: string,
  method: 'GET' | 'POST',
  path: () => string,
  call: Call,
  status: number,
  code: string,
];

const bet = (bets: unknown, playerId: string = PLAYER): Call => ({ body: { playerId, bets } });
const credit = (over: Record<string, unknown>): Call => ({
  body: { type: 'CREDIT', amount: 100, currency: 'EUR', ...over },
});
const bets = () => `/v1/rounds/${roundId}/bets`;
const tx = () => `/v1/wallets/${PLAYER}/transactions`;

const CASES: Case[] = [
  // Framing: JSON, content type, size, idempotency key.
  ['malformed JSON', 'POST', bets, { raw: '{"playerId": "rich", "bets": [' }, 400, 'MALFORMED_JSON'],
  ['a JSON string body', 'POST', bets, { raw: '"hello"' }, 400, 'VALIDATION_FAILED'],
  ['a JSON array body', 'POST', bets, { raw: '[]' }, 400, 'VALIDATION_FAILED'],
  ['no body where one is required', 'POST', bets, {}, 400, 'VALIDATION_FAILED'],
  ['a JSON null body', 'POST', bets, { raw: 'null' }, 400, 'VALIDATION_FAILED'],
  // A route that takes no body must not read a JSON null as "no body" (the fuzzer once resolved a round so).
  [
    'a JSON null body to resolve',
    'POST',
    () => `/v1/rounds/${roundId}/resolve`,
    { raw: 'null' },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'not JSON',
    'POST',
    bets,
    { raw: 'playerId=rich', headers: { 'content-type': 'text/plain' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
  ],
  [
    'an oversized body',
    'POST',
    bets,
    { raw: JSON.stringify({ playerId: PLAYER, bets: [], pad: 'x'.repeat(20_000) }) },
    413,
    'PAYLOAD_TOO_LARGE',
  ],
  [
    'no Idempotency-Key',
    'POST',
    bets,
    { ...bet([{ type: 'PLAYER', amount: 500 }]), idem: null },
    400,
    'IDEMPOTENCY_KEY_REQUIRED',
  ],
  [
    'a malformed Idempotency-Key',
    'POST',
    bets,
    { ...bet([{ type: 'PLAYER', amount: 500 }]), idem: 'x'.repeat(300) },
    400,
    'IDEMPOTENCY_KEY_INVALID',
  ],
  // Bets: shapes.
  [
    'an unknown field',
    'POST',
    bets,
    { body: { playerId: PLAYER, bets: [{ type: 'PLAYER', amount: 500 }], box: 3 } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'an unknown field in a bet',
    'POST',
    bets,
    bet([{ type: 'PLAYER', amount: 500, odds: 2 }]),
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a missing playerId',
    'POST',
    bets,
    { body: { bets: [{ type: 'PLAYER', amount: 500 }] } },
    400,
    'VALIDATION_FAILED',
  ],
  ['a missing amount', 'POST', bets, bet([{ type: 'PLAYER' }]), 400, 'VALIDATION_FAILED'],
  ['an amount as a string', 'POST', bets, bet([{ type: 'PLAYER', amount: '500' }]), 400, 'VALIDATION_FAILED'],
  ['a zero amount', 'POST', bets, bet([{ type: 'PLAYER', amount: 0 }]), 400, 'VALIDATION_FAILED'],
  ['a negative amount', 'POST', bets, bet([{ type: 'PLAYER', amount: -500 }]), 400, 'VALIDATION_FAILED'],
  ['a fractional amount', 'POST', bets, bet([{ type: 'PLAYER', amount: 500.5 }]), 400, 'VALIDATION_FAILED'],
  [
    'an amount beyond safe integers',
    'POST',
    bets,
    { raw: `{"playerId":"rich","bets":[{"type":"PLAYER","amount":9007199254740993}]}` },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a huge amount (1e300)',
    'POST',
    bets,
    { raw: '{"playerId":"rich","bets":[{"type":"PLAYER","amount":1e300}]}' },
    400,
    'VALIDATION_FAILED',
  ],
  ['an unknown bet type', 'POST', bets, bet([{ type: 'DRAGON', amount: 500 }]), 400, 'VALIDATION_FAILED'],
  ['no bets', 'POST', bets, bet([]), 400, 'VALIDATION_FAILED'],
  [
    'a bad player id',
    'POST',
    bets,
    bet([{ type: 'PLAYER', amount: 500 }], 'bad id!'),
    400,
    'VALIDATION_FAILED',
  ],
  // Bets: the table's rules (422) and the money (422).
  [
    'Punto and Banca together',
    'POST',
    bets,
    bet([
      { type: 'PLAYER', amount: 500 },
      { type: 'BANKER', amount: 500 },
    ]),
    422,
    'BET_PLAYER_AND_BANKER',
  ],
  [
    'the same type twice',
    'POST',
    bets,
    bet([
      { type: 'TIE', amount: 100 },
      { type: 'TIE', amount: 100 },
    ]),
    422,
    'BET_DUPLICATE_TYPE',
  ],
  ['over the table maximum', 'POST', bets, bet([{ type: 'BANKER', amount: 500_001 }]), 422, 'BET_ABOVE_MAX'],
  ['under the table minimum', 'POST', bets, bet([{ type: 'PLAYER', amount: 499 }]), 422, 'BET_BELOW_MIN'],
  [
    'a side bet the table does not offer',
    'POST',
    bets,
    bet([{ type: 'PLAYER_PAIR', amount: 100 }]),
    422,
    'BET_SIDE_DISABLED',
  ],
  [
    'more than the wallet holds',
    'POST',
    bets,
    bet([{ type: 'PLAYER', amount: 1_000 }], POOR),
    422,
    'INSUFFICIENT_FUNDS',
  ],
  [
    'a player without a wallet',
    'POST',
    bets,
    bet([{ type: 'PLAYER', amount: 500 }], 'nobody'),
    404,
    'WALLET_NOT_FOUND',
  ],
  [
    'an unknown round',
    'POST',
    () => '/v1/rounds/rnd_unknown/bets',
    bet([{ type: 'PLAYER', amount: 500 }]),
    404,
    'ROUND_NOT_FOUND',
  ],
  [
    'a round id with bad characters',
    'POST',
    () => '/v1/rounds/rnd%20x/bets',
    bet([{ type: 'PLAYER', amount: 500 }]),
    400,
    'VALIDATION_FAILED',
  ],
  // Wallet transactions.
  ['a zero credit', 'POST', tx, credit({ amount: 0 }), 400, 'VALIDATION_FAILED'],
  ['a negative credit', 'POST', tx, credit({ amount: -1 }), 400, 'VALIDATION_FAILED'],
  ['a fractional credit', 'POST', tx, credit({ amount: 0.01 }), 400, 'VALIDATION_FAILED'],
  ['a credit beyond safe integers', 'POST', tx, credit({ amount: 2 ** 53 }), 400, 'VALIDATION_FAILED'],
  ['an unknown transaction type', 'POST', tx, credit({ type: 'REFUND' }), 400, 'VALIDATION_FAILED'],
  ['a lowercase currency', 'POST', tx, credit({ currency: 'eur' }), 400, 'VALIDATION_FAILED'],
  ['a missing currency', 'POST', tx, { body: { type: 'CREDIT', amount: 100 } }, 400, 'VALIDATION_FAILED'],
  ['an unknown transaction field', 'POST', tx, credit({ note: 'hi' }), 400, 'VALIDATION_FAILED'],
  ['another currency', 'POST', tx, credit({ currency: 'USD' }), 422, 'CURRENCY_MISMATCH'],
  [
    'a debit over the balance',
    'POST',
    tx,
    credit({ type: 'DEBIT', amount: 2_000_000 }),
    422,
    'INSUFFICIENT_FUNDS',
  ],
  [
    'a debit of an unknown wallet',
    'POST',
    () => '/v1/wallets/nobody/transactions',
    credit({ type: 'DEBIT' }),
    404,
    'WALLET_NOT_FOUND',
  ],
  // Tables.
  [
    'a table with a wrong type',
    'POST',
    () => '/v1/tables',
    { body: { name: 5, variant: 'mini' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table without a variant',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table of an unknown variant',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'huge' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table with 9 decks',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'mini', config: { decks: 9 } } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a custom table with 1 deck (the rulebooks: 6 or 8)',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'custom', config: { decks: 1 } } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table with a zero limit',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'mini', config: { limits: { TIE: { min: 0 } } } } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table with an unknown setting',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'mini', config: { houseEdge: 1 } } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a cut card with fewer than 7 cards behind',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'mini', config: { cutCard: { minCardsBehind: 6 } } } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table whose limits cross',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'mini', config: { limits: { PLAYER: { min: 9000, max: 1000 } } } } },
    400,
    'TABLE_CONFIG_INVALID',
  ],
  // Shoes, rounds.
  ['a shoe for an unknown table', 'POST', () => '/v1/tables/tbl_unknown/shoes', {}, 404, 'TABLE_NOT_FOUND'],
  ['a second shoe on a table', 'POST', () => `/v1/tables/${tableId}/shoes`, {}, 409, 'SHOE_ALREADY_OPEN'],
  [
    'a shoe with a body field',
    'POST',
    () => `/v1/tables/${tableId}/shoes`,
    { body: { decks: 8 } },
    400,
    'VALIDATION_FAILED',
  ],
  ['closing an unknown shoe', 'POST', () => '/v1/shoes/shoe_unknown/close', {}, 404, 'SHOE_NOT_FOUND'],
  [
    'closing a shoe with a round in play',
    'POST',
    () => `/v1/shoes/${shoeId}/close`,
    {},
    409,
    'ROUND_IN_PLAY',
  ],
  [
    'a second round in play',
    'POST',
    () => `/v1/tables/${tableId}/rounds`,
    { body: {} },
    409,
    'ROUND_IN_PLAY',
  ],
  [
    'a client seed of the wrong type',
    'POST',
    () => `/v1/tables/${tableId}/rounds`,
    { body: { clientSeed: 42 } },
    400,
    'VALIDATION_FAILED',
  ],
  ['resolving an unknown round', 'POST', () => '/v1/rounds/rnd_unknown/resolve', {}, 404, 'ROUND_NOT_FOUND'],
  [
    'resolving with a body field',
    'POST',
    () => `/v1/rounds/${roundId}/resolve`,
    { body: { winner: 'PLAYER' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'voiding without a reason',
    'POST',
    () => `/v1/rounds/${roundId}/void`,
    { body: {} },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'voiding for an unknown reason',
    'POST',
    () => `/v1/rounds/${roundId}/void`,
    { body: { reason: 'BORED' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'leaving an unknown table',
    'POST',
    () => `/v1/tables/tbl_unknown/players/${PLAYER}/leave`,
    {},
    404,
    'TABLE_NOT_FOUND',
  ],
  // Reads.
  ['an unknown table', 'GET', () => '/v1/tables/tbl_unknown', {}, 404, 'TABLE_NOT_FOUND'],
  ['an unknown shoe', 'GET', () => '/v1/shoes/shoe_unknown', {}, 404, 'SHOE_NOT_FOUND'],
  ['an unknown round', 'GET', () => '/v1/rounds/rnd_unknown', {}, 404, 'ROUND_NOT_FOUND'],
  ['an unknown wallet', 'GET', () => '/v1/wallets/nobody', {}, 404, 'WALLET_NOT_FOUND'],
  [
    'the scoreboard of an unknown shoe',
    'GET',
    () => `/v1/tables/${tableId}/scoreboard?shoeId=shoe_unknown`,
    {},
    404,
    'SHOE_NOT_FOUND',
  ],
  [
    'an unknown scoreboard parameter',
    'GET',
    () => `/v1/tables/${tableId}/scoreboard?page=2`,
    {},
    400,
    'VALIDATION_FAILED',
  ],
  ['a ledger limit of 0', 'GET', () => `/v1/wallets/${PLAYER}/ledger?limit=0`, {}, 400, 'VALIDATION_FAILED'],
  [
    'a ledger limit of 1000',
    'GET',
    () => `/v1/wallets/${PLAYER}/ledger?limit=1000`,
    {},
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a ledger limit that is not a number',
    'GET',
    () => `/v1/wallets/${PLAYER}/ledger?limit=ten`,
    {},
    400,
    'VALIDATION_FAILED',
  ],
  // Input hygiene: strict integers, real currencies, clean free text, UTF-8 JSON only.
  ...['1e2', '0x10', '%205', '5.0', '-1', '%2B5', '5%20'].map(
    (limit): Case => [
      `a ledger limit of "${decodeURIComponent(limit)}"`,
      'GET',
      () => `/v1/wallets/${PLAYER}/ledger?limit=${limit}`,
      {},
      400,
      'VALIDATION_FAILED',
    ],
  ),
  [
    'a recall limit of 1e1',
    'GET',
    () => `/v1/players/${PLAYER}/rounds?limit=1e1`,
    {},
    400,
    'VALIDATION_FAILED',
  ],
  ['a currency that is no ISO 4217 code', 'POST', tx, credit({ currency: 'ZZZ' }), 400, 'VALIDATION_FAILED'],
  ...(
    [
      ['a NUL', 'ref\u0000x'],
      ['a newline', 'line\nbreak'],
      ['an ESC', '\u001b[31mred'],
      ['a right-to-left override', 'abc\u202Edef'],
      ['a lone surrogate', 'half \ud83c'],
    ] as const
  ).map(
    ([what, reference]): Case => [
      `a reference with ${what}`,
      'POST',
      tx,
      // JSON.stringify escapes each of them (a lone surrogate as \\udXXX): the server reads them back.
      credit({ reference }),
      400,
      'VALIDATION_FAILED',
    ],
  ),
  [
    'a void note with a lone surrogate',
    'POST',
    () => `/v1/rounds/${roundId}/void`,
    { raw: '{"reason":"MISDEAL","note":"oops \\udc00"}' },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a client seed with a control character',
    'POST',
    () => `/v1/tables/${tableId}/rounds`,
    { body: { clientSeed: 'tab\there' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a client seed over 256 UTF-8 bytes',
    'POST',
    () => `/v1/tables/${tableId}/rounds`,
    { body: { clientSeed: 'ñ'.repeat(129) } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table name with a bidi override',
    'POST',
    () => '/v1/tables',
    { body: { name: 'Mini \u202E1', variant: 'mini' } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a table in no ISO 4217 currency',
    'POST',
    () => '/v1/tables',
    { body: { name: 'x', variant: 'mini', config: { currency: 'ZZZ' } } },
    400,
    'VALIDATION_FAILED',
  ],
  [
    'a body announced in UTF-16',
    'POST',
    tx,
    { ...credit({}), headers: { 'content-type': 'application/json; charset=utf-16' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
  ],
  [
    'a body announced in Latin-1',
    'POST',
    tx,
    { ...credit({}), headers: { 'content-type': 'application/json;charset=ISO-8859-1' } },
    415,
    'UNSUPPORTED_MEDIA_TYPE',
  ],
  ['a path that is no endpoint', 'GET', () => '/v1/nothing', {}, 404, 'ROUTE_NOT_FOUND'],
  ['a method the endpoint does not take', 'GET', () => bets(), {}, 405, 'METHOD_NOT_ALLOWED'],
];

describe('bad input', () => {
  it.each(CASES)('%s', async (_label, method, path, call, status, code) => {
    // The key of a role the route admits, so that what is refused is the input, not the caller.
    const key = routeOf(method, path())?.roles.includes('operator') === false ? admin : operator;
    const answer =
      method === 'GET' ? await api.get(path(), { key, ...call }) : await api.post(path(), { key, ...call });
    expectProblem(answer, status, code);
  });

  it('changed nothing', async () => {
    expect(await snapshot()).toEqual(before);
    expect(before.round.positions).toEqual([]);
    expect(before.ledger.entries).toHaveLength(1);
  });

  it('reads media types case-insensitively, and UTF-8 however it is spelled', async () => {
    for (const contentType of [
      'APPLICATION/JSON',
      'Application/Json; Charset=UTF-8',
      'application/json;charset="utf-8"',
    ]) {
      const answer = await api.post(`/v1/wallets/media-${contentType.length}/transactions`, {
        key: operator,
        ...credit({ amount: 1 }),
        headers: { 'content-type': contentType },
      });
      expect(answer.status, contentType).toBe(201);
    }
  });

  it('refuses bets after "no va más" and leaves the settled round as it was', async () => {
    const ok = await api.post(bets(), { key: operator, ...bet([{ type: 'PLAYER', amount: 500 }]) });
    expect(ok.status).toBe(201);
    const resolved = await api.post(`/v1/rounds/${roundId}/resolve`, { key: operator });
    expect(resolved.status).toBe(200);
    const wallet = (await api.get(`/v1/wallets/${PLAYER}`, { key: operator })).body;
    const late = await api.post(bets(), { key: operator, ...bet([{ type: 'TIE', amount: 100 }]) });
    expectProblem(late, 409, 'ROUND_NOT_OPEN');
    const voided = await api.post(`/v1/rounds/${roundId}/void`, {
      key: operator,
      body: { reason: 'MISDEAL' },
    });
    expectProblem(voided, 409, 'ROUND_ALREADY_DEALT');
    expect((await api.get(`/v1/wallets/${PLAYER}`, { key: operator })).body).toEqual(wallet);
    expect((await api.get(`/v1/rounds/${roundId}`, { key: operator })).body).toEqual(resolved.body);
  });
});

describe('cursors', () => {
  it('are opaque and bound to their list: a crafted, altered or borrowed one is 400 CURSOR_INVALID', async () => {
    const page = await api.get(`/v1/wallets/${PLAYER}/ledger?limit=1`, { key: operator });
    const cursor: string = page.body.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const [payload, mac] = cursor.split('.') as [string, string];
    const key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const crafted = [
      `${b64({ ...key, sk: 'L#000000000001' })}.${mac}`, // another position in the list, same seal
      `${b64({ ...key, sk: 1 })}.${mac}`, // a sort key of the wrong type
      `${b64({ ...key, extra: 1 })}.${mac}`, // an extra attribute
      b64(key), // no seal at all (what cursors used to be)
      `${payload}.${'A'.repeat(mac.length)}`, // a forged seal
      `${payload}.${mac}.x`,
      'AAAA',
    ];
    for (const c of crafted) {
      expectProblem(
        await api.get(`/v1/wallets/${PLAYER}/ledger?cursor=${encodeURIComponent(c)}`, { key: operator }),
        400,
        'CURSOR_INVALID',
      );
    }
    // Another wallet's list (same tenant), and another tenant's wallet of the same player id.
    expectProblem(
      await api.get(`/v1/wallets/${POOR}/ledger?cursor=${cursor}`, { key: operator }),
      400,
      'CURSOR_INVALID',
    );
    // The cursor itself still works.
    expect((await api.get(`/v1/wallets/${PLAYER}/ledger?cursor=${cursor}`, { key: operator })).status).toBe(
      200,
    );
  });
});
