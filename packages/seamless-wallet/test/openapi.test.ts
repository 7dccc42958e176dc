/**
 * The protocol's OpenAPI document holds what the reference wallet (and so any conforming wallet)
 * answers: every answer of every operation, also refusals, validates against the document's schema
 * for that operation and status (ajv, JSON Schema 2020-12 = OpenAPI 3.1's dialect).
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSeamlessWalletOpenApi } from '@pyb/contracts/seamless-openapi';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeamlessWalletClient } from '../src/client';
import { ReferenceWallet } from '../src/reference-wallet';
import { sign } from '../src/signature';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
const doc = buildSeamlessWalletOpenApi() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
ajv.addSchema(doc, 'doc');
const validate = (operation: string, status: number, body: unknown) => {
  const v = ajv.compile({
    $ref: `doc#/paths/~1${operation}/post/responses/${status}/content/application~1json/schema`,
  });
  return v(body) ? [] : v.errors;
};

let wallet: ReferenceWallet;
beforeAll(async () => {
  wallet = await ReferenceWallet.start({ secrets: ['k'] });
  wallet.fund('ana', 'EUR', 5000);
});
afterAll(() => wallet.close());

describe('the seamless wallet OpenAPI document', () => {
  it('describes the four operations, HMAC-signed, with 200 / 401 / 422 answers', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const op of ['balance', 'debit', 'credit', 'rollback']) {
      const post = doc.paths[`/${op}`].post;
      expect(post.security).toEqual([{ pybHmac: [] }]);
      expect(Object.keys(post.responses).sort()).toEqual(['200', '401', '422']);
      expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['x-pyb-timestamp', 'x-pyb-signature', 'x-pyb-protocol']),
      );
    }
    expect(doc.components.schemas.SeamlessDebitRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.SeamlessDebitRequest.required).toEqual(
      expect.arrayContaining(['txId', 'playerId', 'currency', 'amount', 'roundId', 'tableId', 'betRef']),
    );
  });

  it('every answer of the reference wallet validates against it, refusals and auth errors included', async () => {
    const refs = {
      roundId: 'rnd_a',
      tableId: 'tbl_a',
      betRef: 'rnd_a:ana:b1',
      playerId: 'ana',
      currency: 'EUR',
    };
    const calls: [string, Record<string, unknown>][] = [
      ['balance', { playerId: 'ana', currency: 'EUR' }],
      ['debit', { ...refs, txId: 'dbt_aaaaaaaaaaaaaaaa', amount: 1000 }],
      ['debit', { ...refs, txId: 'dbt_bbbbbbbbbbbbbbbb', amount: 999_999 }],
      ['credit', { ...refs, txId: 'crd_aaaaaaaaaaaaaaaa', amount: 1950, kind: 'PAYOUT' }],
      ['rollback', { ...refs, txId: 'rbk_cccccccccccccccc', amount: 10, debitTxId: 'dbt_cccccccccccccccc' }],
      ['debit', { ...refs, txId: 'dbt_cccccccccccccccc', amount: 10 }],
    ];
    const statuses: number[] = [];
    for (const [operation, body] of calls) {
      const text = JSON.stringify(body);
      const path = `/pyb/${operation}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const res = await fetch(`${wallet.url}/${operation}`, {
        method: 'POST',
        headers: {
          'x-pyb-timestamp': timestamp,
          'x-pyb-signature': sign('k', { first: 'POST', path, timestamp, body: text }),
          'x-pyb-protocol': 'pyb-seamless/1',
        },
        body: text,
      });
      statuses.push(res.status);
      expect(validate(operation, res.status, await res.json()), `${operation} ${res.status}`).toEqual([]);
    }
    expect(statuses).toEqual([200, 200, 422, 200, 200, 422]);
    const unsigned = await fetch(`${wallet.url}/debit`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    expect(validate('debit', 401, await unsigned.json())).toEqual([]);
  });

  it('the client takes a signed 200 that breaks the schema, or answers another call, as UNKNOWN', async () => {
    // A wallet that signs correctly but answers wrongly.
    const answers = [
      { txId: 'dbt_aaaaaaaaaaaaaaaa', playerId: 'ana', currency: 'EUR', balance: 1.5 },
      { txId: 'dbt_aaaaaaaaaaaaaaaa', playerId: 'ana', currency: 'EUR', balance: 100, extra: true },
      { txId: 'dbt_zzzzzzzzzzzzzzzz', playerId: 'ana', currency: 'EUR', balance: 100 },
      { txId: 'dbt_aaaaaaaaaaaaaaaa', playerId: 'bea', currency: 'EUR', balance: 100 },
      { txId: 'dbt_aaaaaaaaaaaaaaaa', playerId: 'ana', currency: 'EUR', balance: 100 },
    ];
    const server = createServer((req, res) => {
      const body = JSON.stringify(answers.shift());
      const timestamp = String(Math.floor(Date.now() / 1000));
      res.writeHead(200, {
        'x-pyb-timestamp': timestamp,
        'x-pyb-signature': sign('k', { first: '200', path: req.url ?? '', timestamp, body }),
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new SeamlessWalletClient({
      baseUrl: `http://127.0.0.1:${port}/pyb`,
      secrets: { current: 'k' },
      timeoutMs: 60_000, // a deadline no answered call meets on a loaded machine
    });
    const debit = {
      txId: 'dbt_aaaaaaaaaaaaaaaa',
      playerId: 'ana',
      currency: 'EUR',
      amount: 5,
      roundId: 'rnd_a',
      tableId: 'tbl_a',
      betRef: 'rnd_a:ana:b1',
    };
    const outcomes = [];
    for (let i = 0; i < 5; i += 1) outcomes.push((await client.debit(debit)).outcome);
    server.close();
    expect(outcomes).toEqual(['UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN', 'OK']);
  });
});
