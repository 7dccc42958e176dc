/**
 * The local live broker: aedes, a real MQTT broker, over WebSockets (as IoT Core serves browsers),
 * with IoT Core's custom-authorizer rule as its hooks: a player connects with his token as the MQTT
 * password and may subscribe only where core `maySubscribe` lets him; the platform's publisher alone
 * (its username and secret) may publish. Used by ./scripts/dev and the tests.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type LiveGrant, maySubscribe } from '@pyb/core';
import { Aedes, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';

export const PUBLISHER_USERNAME = 'pyb-platform';

export interface LiveBrokerOptions {
  port?: number;
  host?: string;
  /** The platform publisher's password. */
  publisherSecret: string;
  /** The grant of a player token; rejects when the token does not verify (expired, revoked, forged). */
  authenticate: (token: string) => Promise<LiveGrant>;
}

export interface LiveBroker {
  url: string;
  broker: Aedes;
  /** Takes a WebSocket upgrade another server received (the local server's `/live`). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

type Who = { publisher: true } | { grant: LiveGrant };
const WHO = Symbol('pyb-live');
const whoOf = (client: Client): Who | undefined => (client as unknown as { [WHO]?: Who })[WHO];

export async function startLiveBroker(o: LiveBrokerOptions): Promise<LiveBroker> {
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const secret = password?.toString('utf8') ?? '';
      if (username === PUBLISHER_USERNAME) {
        if (secret !== o.publisherSecret)
          return done(Object.assign(new Error('bad publisher secret'), { returnCode: 4 }), false);
        (client as unknown as { [WHO]: Who })[WHO] = { publisher: true };
        return done(null, true);
      }
      o.authenticate(secret).then(
        (grant) => {
          (client as unknown as { [WHO]: Who })[WHO] = { grant };
          done(null, true);
        },
        () => done(Object.assign(new Error('not authorized'), { returnCode: 5 }), false),
      );
    },
    authorizePublish: (client, _packet, callback) => {
      const who = client ? whoOf(client) : undefined;
      callback(who && 'publisher' in who ? null : new Error('only the platform publishes'));
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const who = client ? whoOf(client) : undefined;
      const ok = who !== undefined && ('publisher' in who || maySubscribe(who.grant, subscription.topic));
      // A refused subscription is answered (SUBACK 0x80), not a dropped connection.
      callback(null, ok ? subscription : null);
    },
  });
  const server: Server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => broker.handle(createWebSocketStream(socket), req));
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, o.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://${o.host ?? '127.0.0.1'}:${port}`,
    broker,
    upgrade: (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
