/**
 * The IoT Core custom authorizer's answer for a player token (docs/deploy.md, "Live events"): the
 * policy of the grant core's `grantTopics` names — connect as his own client id, subscribe to and
 * receive from his table's topic and his own, publish nothing. The same rule as the local broker's
 * hooks (core `maySubscribe`), written as IAM-style statements.
 */
import { grantTopics, type LiveGrant } from '@pyb/core';

export interface IotAccount {
  region: string;
  accountId: string;
}

/** What IoT Core expects back from a custom authorizer Lambda. */
export interface AuthorizerResponse {
  isAuthenticated: boolean;
  principalId: string;
  disconnectAfterInSeconds: number;
  refreshAfterInSeconds: number;
  policyDocuments: string[];
}

/** IoT Core bounds both durations to 300 s … 86,400 s. */
const bounded = (s: number) => Math.min(86_400, Math.max(300, Math.floor(s)));

export function iotPolicy(grant: LiveGrant, account: IotAccount, clientId: string) {
  const arn = (kind: string, name: string) =>
    `arn:aws:iot:${account.region}:${account.accountId}:${kind}/${name}`;
  const topics = grantTopics(grant);
  return {
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Action: 'iot:Connect', Resource: arn('client', clientId) },
      {
        Effect: 'Allow',
        Action: 'iot:Subscribe',
        Resource: [arn('topicfilter', topics.table), arn('topicfilter', topics.player)],
      },
      {
        Effect: 'Allow',
        Action: 'iot:Receive',
        Resource: [arn('topic', topics.table), arn('topic', topics.player)],
      },
      { Effect: 'Deny', Action: 'iot:Publish', Resource: '*' },
    ],
  };
}

/** The authorizer's answer: the connection ends when the token expires (a refreshed token reconnects). */
export function authorizerResponse(
  grant: LiveGrant,
  account: IotAccount,
  clientId: string,
  secondsLeft: number,
): AuthorizerResponse {
  return {
    isAuthenticated: true,
    // IoT's principal id: letters and digits only, at most 128.
    principalId:
      `${grant.operatorId}${grant.playerId}`.replace(/[^A-Za-z0-9]/g, '').slice(0, 128) || 'player',
    disconnectAfterInSeconds: bounded(secondsLeft),
    refreshAfterInSeconds: bounded(Math.min(secondsLeft, 300)),
    policyDocuments: [JSON.stringify(iotPolicy(grant, account, clientId))],
  };
}

export const denied = (): AuthorizerResponse => ({
  isAuthenticated: false,
  principalId: 'denied',
  disconnectAfterInSeconds: 300,
  refreshAfterInSeconds: 300,
  policyDocuments: [],
});
