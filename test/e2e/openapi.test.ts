/** The OpenAPI 3.1 document the API serves describes every route of ROUTES as the API behaves. */
import { ROUTES } from '@pyb/functions/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, type Json } from './support/http';
import { type E2eStack, startStack } from './support/stack';

let stack: E2eStack;
let api: Client;
let doc: Json;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack.url);
  const answer = await api.get('/v1/openapi.json');
  expect(answer.status).toBe(200);
  doc = answer.body;
});
afterAll(() => stack?.stop());

describe('GET /v1/openapi.json', () => {
  it('is OpenAPI 3.1 with a bearer security scheme and the problem schema', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
    );
    expect(doc.components.schemas.Amount).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('documents every route: roles, security, path parameters, Idempotency-Key on POSTs, problem answers', () => {
    for (const route of ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op['x-roles']).toEqual([...route.roles]);
      expect(op.security).toEqual([
        ...(route.roles.length > 0 ? [{ apiKey: [] }] : []),
        ...(route.players ? [{ playerToken: [] }] : []),
      ]);
      expect(op['x-player-token']).toBe(route.players ? true : undefined);
      const names = (op.parameters ?? []).map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
      for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) expect(names).toContain(`path:${name}`);
      if (route.method === 'POST' && !route.singleUse) {
        expect(names).toContain('header:Idempotency-Key');
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '413', '415', '422']));
      }
      // A single-use route's credential is its once-only key: no Idempotency-Key to send.
      if (route.singleUse) expect(names).not.toContain('header:Idempotency-Key');
      if (route.roles.length > 0 || route.players) {
        expect(op.responses['401'].content['application/problem+json']).toBeDefined();
      }
    }
  });

  it('marks request bodies strict (unknown fields refused), as the API enforces them', () => {
    expect(doc.components.schemas.PlaceBetRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.BetInput.additionalProperties).toBe(false);
  });
});

describe('GET /v1/seamless-wallet.openapi.json', () => {
  it('serves the seamless wallet protocol: balance, debit, credit, rollback, HMAC-signed', async () => {
    const answer = await api.get('/v1/seamless-wallet.openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(Object.keys(answer.body.paths).sort()).toEqual(['/balance', '/credit', '/debit', '/rollback']);
    expect(answer.body.components.securitySchemes.pybHmac).toMatchObject({ type: 'apiKey', in: 'header' });
  });
});
