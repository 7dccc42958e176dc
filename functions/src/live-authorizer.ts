/**
 * AWS IoT Core's custom authorizer for browsers on MQTT over WebSockets (docs/deploy.md, "Live
 * events"): the player's access token — the MQTT password, or the `token` query parameter of the
 * WebSocket URL — verified as every player request is (signature, expiry, session not ended or
 * revoked: core `authenticatePlayer`), answered with the policy of its grant (@pyb/live-mqtt
 * iotPolicy: subscribe to his table and his own topic, never publish). Anything else is refused.
 */
import { ACCESS_TOKEN_SECONDS, type Actor, liveGrant } from '@pyb/core';
import { type AuthorizerResponse, authorizerResponse, denied, type IotAccount } from '@pyb/live-mqtt';
import { z } from 'zod';
import { logger } from './logger';

/** What IoT Core sends (the fields read). */
const AuthorizerEvent = z.object({
  token: z.string().optional(),
  protocolData: z
    .object({
      mqtt: z
        .object({ username: z.string().optional(), password: z.string().optional(), clientId: z.string() })
        .optional(),
      http: z.object({ queryString: z.string().optional() }).optional(),
    })
    .optional(),
  connectionMetadata: z.object({ id: z.string() }).optional(),
});

/** The token: the MQTT password (base64, as IoT Core passes it), else the WebSocket URL's `token`. */
export function tokenOf(event: z.infer<typeof AuthorizerEvent>): string | undefined {
  const password = event.protocolData?.mqtt?.password;
  if (password) return Buffer.from(password, 'base64').toString('utf8');
  const query = event.protocolData?.http?.queryString;
  if (query)
    return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query).get('token') ?? undefined;
  return event.token;
}

export function liveAuthorizer(deps: {
  account: IotAccount;
  authenticate: (token: string) => Promise<Actor>;
}) {
  return async (raw: unknown): Promise<AuthorizerResponse> => {
    const event = AuthorizerEvent.safeParse(raw);
    if (!event.success) return denied();
    const token = tokenOf(event.data);
    const clientId = event.data.protocolData?.mqtt?.clientId;
    if (!token || !clientId) return denied();
    try {
      const grant = liveGrant(await deps.authenticate(token));
      // An access token lives ACCESS_TOKEN_SECONDS: the connection ends with it, a refreshed one reconnects.
      return grant ? authorizerResponse(grant, deps.account, clientId, ACCESS_TOKEN_SECONDS) : denied();
    } catch (error) {
      logger.info('live connection refused', { error: (error as Error).message });
      return denied();
    }
  };
}
