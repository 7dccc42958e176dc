/**
 * Follows a table by its events (docs/api.md, "Live events"): first the last events of the feed (where
 * the table is now), then the push channel — MQTT over WebSockets, the access token as the password —
 * the table's topic in `seq` order and the player's own topic. An event already had is dropped; a gap
 * (an event more than one past the last) or a new connection reads what was missed from
 * GET /v1/tables/{tableId}/live?after=, so a dropped connection loses nothing and needs no reload.
 * A lost connection is opened again with a fresh token, after 1, 2, 4 … up to 10 s.
 */
import type { LiveEvent as LiveEventSchema, LiveEvents as LiveEventsSchema } from '@pyb/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type * as z from 'zod';
import { get, seg } from '../lib/api';
import type { Sessions } from './session';

export type LiveEvent = z.infer<ReturnType<typeof LiveEventSchema>>;
type LiveEvents = z.infer<ReturnType<typeof LiveEventsSchema>>;

/** A player's own event (his topic): no seq, its truth is his position and wallet. */
export interface PlayerMessage {
  type: 'BET_ACCEPTED' | 'PAYOUT' | 'BALANCE';
  tableId: string;
  playerId: string;
  roundId?: string;
  at: string;
  data: Record<string, unknown>;
}

export type FeedState = 'connecting' | 'live' | 'reconnecting';

export interface FeedHandlers {
  /** In seq order, each once. `live`: pushed now (false: read back to catch up). */
  table(event: LiveEvent, live: boolean): void;
  player(message: PlayerMessage): void;
  state(state: FeedState): void;
}

/** How many past events a joining page reads to draw the table as it is (a round's worth and more). */
const JOIN_TAIL = 60;
/** Without a push channel (the session names none), the feed is read this often. */
const POLL_MS = 2_000;

/** The WebSocket URL of a session's live channel: a path is on the page's own origin. */
export function liveUrl(url: string, location: { protocol: string; host: string }): string {
  if (!url.startsWith('/')) return url;
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${url}`;
}

export function followTable(options: { tableId: string; sessions: Sessions; handlers: FeedHandlers }): {
  close(): void;
} {
  const { tableId, sessions, handlers } = options;
  let last = -1;
  let closed = false;
  let client: MqttClient | undefined;
  let retry = 0;
  /** Events are handed on one at a time, in order, across catch-ups and pushes. */
  let chain: Promise<void> = Promise.resolve();

  const feed = async (query: Record<string, number>): Promise<LiveEvents> =>
    get<LiveEvents>(`/v1/tables/${seg(tableId)}/live`, { key: await sessions.token(), query });

  const deliver = (event: LiveEvent, live: boolean) => {
    if (event.seq <= last) return;
    last = event.seq;
    handlers.table(event, live);
  };

  /** Everything after the last seq had, page by page. */
  const catchUp = async () => {
    for (;;) {
      const page = await feed({ after: last });
      for (const event of page.events) deliver(event, false);
      if (page.events.length < 500) return;
    }
  };

  const serial = (work: () => Promise<void> | void) => {
    chain = chain.then(work).catch(() => undefined);
    return chain;
  };

  const onTable = (event: LiveEvent) =>
    serial(async () => {
      if (event.seq <= last) return;
      if (event.seq > last + 1) await catchUp();
      deliver(event, true);
    });

  const connect = async () => {
    if (closed) return;
    const { live, player } = sessions.session;
    if (!live) return poll();
    handlers.state(retry === 0 ? 'connecting' : 'reconnecting');
    let token: string;
    try {
      token = await sessions.token();
    } catch {
      return reconnectLater();
    }
    const topics = {
      table: live.tableTopic ?? `pyb/v1/${player.operatorId}/tables/${tableId}`,
      player: live.playerTopic,
    };
    const c = mqtt.connect(liveUrl(live.url, location), {
      username: 'player',
      password: token,
      clientId: `pyb-${crypto.randomUUID()}`,
      protocolVersion: 4,
      // Reconnection is ours: each connection carries the freshest token.
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      // Plain timers: the 'worker' ones start a Worker from a blob: URL, which the pages' CSP refuses.
      timerVariant: 'native',
      clean: true,
    });
    client = c;
    c.on('connect', () => {
      c.subscribe([topics.table, topics.player], { qos: 1 }, (error) => {
        if (error) return c.end(true);
        retry = 0;
        // What happened while the connection was down (or before it was up).
        void serial(catchUp).then(() => handlers.state('live'));
      });
    });
    c.on('message', (topic, payload) => {
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(payload));
      } catch {
        return;
      }
      if (topic === topics.table) void onTable(body as LiveEvent);
      else if (topic === topics.player) handlers.player(body as PlayerMessage);
    });
    c.on('close', () => {
      if (client !== c) return;
      client = undefined;
      c.removeAllListeners();
      c.end(true);
      reconnectLater();
    });
    c.on('error', () => undefined);
  };

  const reconnectLater = () => {
    if (closed) return;
    handlers.state('reconnecting');
    const wait = Math.min(10_000, 1000 * 2 ** retry);
    retry += 1;
    setTimeout(() => void connect(), wait);
  };

  /** No push channel: read the feed on a timer (the same events, in the same order). */
  const poll = async () => {
    handlers.state('live');
    while (!closed) {
      await serial(catchUp);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  void serial(async () => {
    const page = await feed({ tail: JOIN_TAIL });
    for (const event of page.events) deliver(event, false);
    if (page.events.length > 0) last = page.next - 1;
  }).then(connect);

  return {
    close: () => {
      closed = true;
      client?.end(true);
    },
  };
}
