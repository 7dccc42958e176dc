/** The IoT Core adapter's exact requests, and the custom authorizer's policy for a player token. */
import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { playerTopic, tableTopic } from '@pyb/core';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { authorizerResponse, denied, IotTablePublisher, iotPolicy } from '../src/index';

const ACCOUNT = { region: 'eu-west-1', accountId: '111122223333' };
const ARN = 'arn:aws:iot:eu-west-1:111122223333';

describe('IotTablePublisher', () => {
  it('publishes each message once, QoS 1, JSON, in the order given', async () => {
    const client = new IoTDataPlaneClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock.on(PublishCommand).resolves({});
    const messages = [
      { topic: tableTopic('op-1', 't1'), payload: '{"seq":0}' },
      { topic: tableTopic('op-1', 't1'), payload: '{"seq":1}' },
      { topic: playerTopic('op-1', 'lia'), payload: '{"type":"PAYOUT"}' },
    ];
    await new IotTablePublisher({ client }).publish(messages);
    const inputs = mock.commandCalls(PublishCommand).map((c) => c.args[0].input);
    expect(inputs).toEqual(
      messages.map((m) => ({
        topic: m.topic,
        qos: 1,
        payload: new TextEncoder().encode(m.payload),
        contentType: 'application/json',
      })),
    );
  });

  it('rejects when IoT Core refuses one (the caller keeps the events in the feed)', async () => {
    const client = new IoTDataPlaneClient({ region: 'eu-west-1' });
    mockClient(client).on(PublishCommand).rejects(new Error('ThrottlingException'));
    await expect(
      new IotTablePublisher({ client }).publish([{ topic: 'pyb/v1/op-1/tables/t1', payload: '{}' }]),
    ).rejects.toThrow('ThrottlingException');
  });
});

describe('the custom authorizer policy', () => {
  it('lets a player connect as his client, subscribe to and receive his table and his own topic, and never publish', () => {
    const grant = { operatorId: 'op-1', playerId: 'lia', tableId: 't1' };
    expect(iotPolicy(grant, ACCOUNT, 'lia-browser-1')).toEqual({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Action: 'iot:Connect', Resource: `${ARN}:client/lia-browser-1` },
        {
          Effect: 'Allow',
          Action: 'iot:Subscribe',
          Resource: [
            `${ARN}:topicfilter/pyb/v1/op-1/tables/t1`,
            `${ARN}:topicfilter/pyb/v1/op-1/players/lia`,
          ],
        },
        {
          Effect: 'Allow',
          Action: 'iot:Receive',
          Resource: [`${ARN}:topic/pyb/v1/op-1/tables/t1`, `${ARN}:topic/pyb/v1/op-1/players/lia`],
        },
        { Effect: 'Deny', Action: 'iot:Publish', Resource: '*' },
      ],
    });
  });

  it("a token naming no table reaches its own operator's tables only", () => {
    const policy = iotPolicy({ operatorId: 'op-1', playerId: 'lia' }, ACCOUNT, 'c1');
    expect(policy.Statement[1]!.Resource).toEqual([
      `${ARN}:topicfilter/pyb/v1/op-1/tables/*`,
      `${ARN}:topicfilter/pyb/v1/op-1/players/lia`,
    ]);
  });

  it('answers with the policy and a connection that ends with the token', () => {
    const grant = { operatorId: 'op-1', playerId: 'p.1:x', tableId: 't1' };
    const response = authorizerResponse(grant, ACCOUNT, 'c1', 240);
    expect(response).toMatchObject({
      isAuthenticated: true,
      principalId: 'op1p1x',
      disconnectAfterInSeconds: 300, // IoT's least
      refreshAfterInSeconds: 300,
    });
    expect(JSON.parse(response.policyDocuments[0]!)).toEqual(iotPolicy(grant, ACCOUNT, 'c1'));
    expect(denied()).toMatchObject({ isAuthenticated: false, policyDocuments: [] });
  });
});
