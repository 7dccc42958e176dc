/**
 * A broken audit chain over HTTP, held to the served OpenAPI document: an audit item deleted in
 * DynamoDB, close is 409 AUDIT_CHAIN_BROKEN and the table locked (TABLE_LOCKED, source AUDIT, in
 * GET /v1/tables/{id}/events); open-shoe is 409 SHOE_ALREADY_OPEN saying to abandon; only an admin key
 * may POST /v1/shoes/{shoeId}/abandon; after it the shoe is ABANDONED (its export 409 SHOE_ABANDONED,
 * its replay ABANDONED) and the table opens a new shoe.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
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

describe('POST /v1/shoes/{shoeId}/abandon', () => {
  it('recovers a table whose shoe close found its audit chain broken', async () => {
    const { admin, operator, regulator } = stack.a;
    const table = await api.post('/v1/tables', { key: admin, body: { name: 'Broken e2e', variant: 'mini' } });
    const tableId = table.body.tableId;
    const shoe = await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
    const shoeId = shoe.body.shoeId;
    const round = await api.post(`/v1/tables/${tableId}/rounds`, { key: operator });
    const roundId = round.body.roundId;
    expect((await api.post(`/v1/rounds/${roundId}/resolve`, { key: operator })).status).toBe(200);

    // The insider's edit: the COUP_DEALT item deleted from the audit table.
    const dealt = (await stack.context.store.listAudit(shoeId)).find((a) => a.type === 'COUP_DEALT')!;
    await stack.context.doc.send(
      new DeleteCommand({
        TableName: stack.context.tables.audit,
        Key: { pk: `SHOE#${shoeId}`, sk: `E#${String(dealt.seq).padStart(6, '0')}` },
      }),
    );

    const close = await api.post(`/v1/shoes/${shoeId}/close`, {
      key: admin,
      body: { reason: 'END_OF_SESSION' },
    });
    expect([close.status, close.body.code]).toEqual([409, 'AUDIT_CHAIN_BROKEN']);
    const events = await api.get(`/v1/tables/${tableId}/events`, { key: regulator });
    expect(
      events.body.events.map((e: { type: string; lock?: { source: string } }) => [e.type, e.lock?.source]),
    ).toEqual([['TABLE_LOCKED', 'AUDIT']]);
    const open = await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
    expect([open.status, open.body.code]).toEqual([409, 'SHOE_ALREADY_OPEN']);
    expect(open.body.detail).toContain(`POST /v1/shoes/${shoeId}/abandon`);

    const body = { reason: 'the deleted item is in no backup (OPS-301)' };
    const byOperator = await api.post(`/v1/shoes/${shoeId}/abandon`, { key: operator, body });
    expect([byOperator.status, byOperator.body.code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
    const abandoned = await api.post(`/v1/shoes/${shoeId}/abandon`, { key: admin, body });
    expect(abandoned.status).toBe(200);
    expect(abandoned.body).toMatchObject({ phase: 'ABANDONED', abandoned: { reason: body.reason } });

    const exported = await api.get(`/v1/shoes/${shoeId}/audit`, { key: regulator });
    expect([exported.status, exported.body.code]).toEqual([409, 'SHOE_ABANDONED']);
    const replay = await api.get(`/v1/rounds/${roundId}/replay`, { key: regulator });
    expect(replay.body.verification.status).toBe('ABANDONED');
    const again = await api.post(`/v1/tables/${tableId}/shoes`, { key: admin });
    expect([again.status, again.body.number]).toEqual([201, 2]);
  });
});
