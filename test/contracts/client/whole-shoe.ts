/**
 * A whole shoe played by a client generated from the served OpenAPI document (openapi-typescript +
 * openapi-fetch): test/contracts/openapi.dynamodb.test.ts generates `.generated/schema.d.ts` from
 * GET /v1/openapi.json and type-checks this file under strict TypeScript. If the document is missing a
 * field, a status, a header or a problem code this script relies on, it does not compile.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './.generated/schema';

type Problem = components['schemas']['Problem'];

export async function wholeShoe(baseUrl: string, keys: { admin: string; operator: string }): Promise<number> {
  const client = (key: string) =>
    createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
  const admin = client(keys.admin);
  const api = client(keys.operator);
  let n = 0;
  // The document makes the Idempotency-Key a required header of every POST.
  const idem = (label: string) => ({ 'Idempotency-Key': `${label}-${Date.now()}-${++n}` });

  const table = await admin.POST('/v1/tables', {
    params: { header: idem('table') },
    body: {
      name: 'Generated client',
      variant: 'custom',
      config: {
        // Six decks (the API takes 6 or 8) with a deep cut card: the 32-45 cards of a one-deck shoe.
        decks: 6,
        cutCard: { minCardsBehind: 267, maxCardsBehind: 280 },
        commission: { mode: 'DEFERRED' },
      },
    },
  });
  if (!table.data) throw new Error(`table: ${table.error?.code}`);
  const tableId: string = table.data.tableId;
  const currency = table.data.config.currency;

  for (const playerId of ['gen-1', 'gen-2']) {
    const credit = await api.POST('/v1/wallets/{playerId}/transactions', {
      params: { path: { playerId }, header: idem('credit') },
      body: { type: 'CREDIT', amount: 1_000_000, currency, reference: 'generated client' },
    });
    if (credit.error) throw new Error(`credit: ${credit.error.code satisfies Problem['code']}`);
    const balance: number = credit.data.wallet.balance;
    if (balance < 1_000_000) throw new Error('credit not booked');
    if (credit.response.headers.get('X-Request-Id') === null) throw new Error('no request id');
  }

  const shoe = await admin.POST('/v1/tables/{tableId}/shoes', {
    params: { path: { tableId }, header: idem('shoe') },
  });
  if (!shoe.data) throw new Error(`shoe: ${shoe.error?.code}`);
  const shoeId = shoe.data.shoeId;
  const commitment: string = shoe.data.commitment;

  let coups = 0;
  for (;;) {
    const round = await api.POST('/v1/tables/{tableId}/rounds', {
      params: { path: { tableId }, header: idem('round') },
      body: coups === 0 ? { clientSeed: 'ñandú 🂡' } : {},
    });
    if (round.error) {
      // The shoe ended (the cut card came out): exactly the code the document lists for it.
      if (round.error.code === 'SHOE_ENDED') break;
      throw new Error(`round: ${round.error.code}`);
    }
    const roundId = round.data.roundId;
    for (const [playerId, type] of [
      ['gen-1', 'PLAYER'],
      ['gen-2', 'BANKER'],
    ] as const) {
      const bet = await api.POST('/v1/rounds/{roundId}/bets', {
        params: { path: { roundId }, header: idem('bet') },
        body: { playerId, bets: [{ type, amount: 1000 }] },
      });
      if (bet.error) {
        const code: 'INSUFFICIENT_FUNDS' | 'BET_BELOW_MIN' | string = bet.error.code;
        throw new Error(`bet: ${code}`);
      }
      const replayed = bet.response.headers.get('Idempotency-Replayed');
      if (replayed === 'true') throw new Error('a fresh key was replayed');
    }
    const resolved = await api.POST('/v1/rounds/{roundId}/resolve', {
      params: { path: { roundId }, header: idem('resolve') },
    });
    if (!resolved.data) throw new Error(`resolve: ${resolved.error?.code}`);
    const status: 'OPEN' | 'CLOSED' | 'DEALT' | 'SETTLING' | 'SETTLED' | 'VOIDING' | 'VOIDED' =
      resolved.data.status;
    const winner: 'PLAYER' | 'BANKER' | 'TIE' | undefined = resolved.data.result?.winner;
    if (status !== 'SETTLED' || winner === undefined) throw new Error('not settled');
    coups++;
    if (resolved.data.lastCoup) break;
  }

  const board = await api.GET('/v1/tables/{tableId}/scoreboard', {
    params: { path: { tableId }, query: { shoeId } },
  });
  if (board.data?.coups.length !== coups) throw new Error('scoreboard');

  const closed = await admin.POST('/v1/shoes/{shoeId}/close', {
    params: { path: { shoeId }, header: idem('close') },
  });
  if (!closed.data?.serverSeed || closed.data.statement.commitment !== commitment) throw new Error('close');

  const ledger = await api.GET('/v1/wallets/{playerId}/ledger', {
    params: { path: { playerId: 'gen-1' }, query: { limit: 100 } },
  });
  if (!ledger.data) throw new Error(`ledger: ${ledger.error?.code}`);
  const kinds = ledger.data.entries.map((e) => e.kind);
  if (!kinds.includes('BET')) throw new Error('no bet in the ledger');

  const bundle = await api.GET('/v1/shoes/{shoeId}/audit', {
    params: { path: { shoeId } },
  });
  if (!bundle.data) throw new Error(`audit: ${bundle.error?.code}`);
  const roundStatuses = bundle.data.rounds.map((r) => r.status);
  return roundStatuses.filter((s) => s === 'SETTLED').length;
}
