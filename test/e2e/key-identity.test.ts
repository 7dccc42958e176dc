/** GET /v1/me: an API key learns its operator, its role and what the role may do — read from the routes that enforce it. */
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

describe('GET /v1/me', () => {
  it('says each key its role and what it may do; the operator key is told it does not open shoes', async () => {
    const me = async (key: string) => (await api.get('/v1/me', { key })).body;
    expect(await me(stack.a.admin)).toMatchObject({
      operatorId: 'op-a',
      role: 'admin',
      platform: false,
      may: { openAndCloseShoes: true, deal: true, moveMoney: true, setWalletModes: false },
    });
    expect(await me(stack.a.operator)).toMatchObject({
      role: 'operator',
      may: { openAndCloseShoes: false, deal: true, moveMoney: true, setWalletModes: false },
    });
    expect(await me(stack.a.regulator)).toMatchObject({
      role: 'regulator',
      supervises: ['op-a'],
      may: { openAndCloseShoes: false, deal: false, moveMoney: false, setWalletModes: false },
    });
    expect(await me(stack.platform)).toMatchObject({
      operatorId: 'platform',
      platform: true,
      may: { setWalletModes: true },
    });
    // What it says is what the API does: the operator key's shoe is refused.
    const table = await api.post('/v1/tables', {
      key: stack.a.admin,
      body: { name: 'Me', variant: 'mini', config: {} },
    });
    const refused = await api.post(`/v1/tables/${table.body.tableId}/shoes`, { key: stack.a.operator });
    expect([refused.status, refused.body.code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
    expect((await api.get('/v1/me')).status).toBe(401);
  });
});
