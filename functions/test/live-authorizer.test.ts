/** The IoT custom authorizer: the token from where IoT Core passes it, the grant's policy, refusals. */
import type { Actor } from '@pyb/core';
import { iotPolicy } from '@pyb/live-mqtt';
import { describe, expect, it } from 'vitest';
import { liveAuthorizer } from '../src/live-authorizer';

const ACCOUNT = { region: 'eu-west-1', accountId: '111122223333' };
const lia: Actor = {
  operatorId: 'op-1',
  role: 'player',
  supervises: [],
  player: { playerId: 'lia', sessionId: 's1', tableId: 't1' },
};
const authorize = liveAuthorizer({
  account: ACCOUNT,
  authenticate: async (token) => {
    if (token === 'good') return lia;
    if (token === 'operator') return { operatorId: 'op-1', role: 'operator', supervises: [] };
    throw new Error('TOKEN_EXPIRED');
  },
});
const mqtt = (password: string) => ({
  protocols: ['mqtt', 'websockets'],
  protocolData: {
    mqtt: { username: 'lia', password: Buffer.from(password).toString('base64'), clientId: 'c1' },
  },
  connectionMetadata: { id: 'x' },
});

describe('live authorizer', () => {
  it("a player's token (the MQTT password): his grant's policy", async () => {
    const answer = await authorize(mqtt('good'));
    expect(answer.isAuthenticated).toBe(true);
    expect(JSON.parse(answer.policyDocuments[0]!)).toEqual(
      iotPolicy({ operatorId: 'op-1', playerId: 'lia', tableId: 't1' }, ACCOUNT, 'c1'),
    );
  });

  it('the token in the WebSocket URL works too', async () => {
    const answer = await authorize({
      protocolData: {
        mqtt: { clientId: 'c1' },
        http: { queryString: '?x-amz-customauthorizer-name=pyb&token=good' },
      },
    });
    expect(answer.isAuthenticated).toBe(true);
  });

  it('refuses an expired, forged or missing token, an operator key, and anything malformed', async () => {
    for (const event of [
      mqtt('expired'),
      mqtt('operator'),
      { protocolData: { mqtt: { clientId: 'c1' } } },
      'nonsense',
    ])
      expect(await authorize(event)).toMatchObject({ isAuthenticated: false, policyDocuments: [] });
  });
});
