/**
 * `pnpm bench live`: the fan-out of a whole shoe's live events to many watchers of one table, on the
 * local aedes broker over WebSockets (tools/dev live-broker.ts) with `mqtt` clients, all in this
 * process. A shoe is played through the use cases (memory store) and after each round the feed is
 * published (core publishTable: catch-up from the chain, then MQTT publish); every subscriber checks it
 * got every seq once, in order. Measured per event: from the publishTable call to the last
 * subscriber's receipt — and, in the same run, the same number of raw MQTT publishes of the same
 * payloads (no feed, no store) to the same subscribers. LIVE_SUBSCRIBERS (default 10,000), LIVE_DECKS (1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBeacon } from '@pyb/beacon';
import { type Actor, createCore, type LiveFeedStore, publishTable, type Store, tableTopic } from '@pyb/core';
import { PUBLISHER_USERNAME, startLiveBroker } from '@pyb/dev/live-broker';
import { LocalKeyService } from '@pyb/keys';
import { MqttTablePublisher } from '@pyb/live-mqtt';
import { MemoryStore } from '@pyb/store-memory';
import { connectAsync, type MqttClient } from 'mqtt';
import { HAND_WRITTEN, writeDocSection } from './doc-section';

const SUBSCRIBERS = Number(process.env.LIVE_SUBSCRIBERS ?? 10_000);
const DECKS = Number(process.env.LIVE_DECKS ?? 1);
const OP = 'op-bench';
const SECRET = 'bench-secret';
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Tally {
  /** Receipts per key and the time of the last. */
  count: Map<number, number>;
  last: Map<number, number>;
  outOfOrder: number;
}

async function subscribers(
  url: string,
  topic: string,
  tally: () => Tally,
  keyOf: (payload: Buffer) => number,
) {
  const clients: MqttClient[] = [];
  const lastSeen: number[] = [];
  for (let i = 0; i < SUBSCRIBERS; i += 250) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(250, SUBSCRIBERS - i) }, async (_, j) => {
        const n = i + j;
        const client = await connectAsync(url, {
          username: 'watcher',
          password: `w${n}`,
          reconnectPeriod: 0,
        });
        lastSeen[n] = -1;
        client.on('message', (_t, payload) => {
          const t = tally();
          const key = keyOf(payload);
          if (key !== lastSeen[n]! + 1) t.outOfOrder += 1;
          lastSeen[n] = key;
          t.count.set(key, (t.count.get(key) ?? 0) + 1);
          t.last.set(key, performance.now());
        });
        await client.subscribeAsync(topic, { qos: 1 });
        return client;
      }),
    );
    clients.push(...batch);
  }
  return { clients, reset: () => lastSeen.fill(-1) };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-bench-live-'));
  const clock = { now: () => new Date() };
  const store = new MemoryStore();
  const core = createCore({
    store,
    keys: new LocalKeyService({ dir, env: {} }),
    beacon: new LocalBeacon({
      dir: join(dir, 'beacon'),
      period: 1,
      clock: { now: () => new Date(Date.now() + 3_600_000) },
      env: {},
    }),
    beaconMarginSeconds: 5,
    clock,
    codeVersion: 'bench',
    testShoes: true,
    shoeScheme: 'pyb-shoe/2',
  });
  const broker = await startLiveBroker({
    publisherSecret: SECRET,
    authenticate: async () => ({ operatorId: OP, playerId: 'watcher' }),
  });
  const publisher = new MqttTablePublisher({
    url: broker.url,
    username: PUBLISHER_USERNAME,
    password: SECRET,
  });
  const live = { store: store as Store & LiveFeedStore, publisher };
  const boss: Actor = { operatorId: OP, role: 'admin', supervises: [] };
  const op: Actor = { operatorId: OP, role: 'operator', supervises: [] };
  const config = { decks: DECKS, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } };
  const table = await core.createTable(boss, { name: 'Bench', variant: 'custom', config });
  const topic = tableTopic(OP, table.tableId);
  let tally: Tally = { count: new Map(), last: new Map(), outOfOrder: 0 };
  const connectStart = performance.now();
  const subs = await subscribers(
    broker.url,
    topic,
    () => tally,
    (p) => JSON.parse(p.toString('utf8')).seq as number,
  );
  const connectMs = performance.now() - connectStart;
  await core.walletTransaction(op, {
    playerId: 'p1',
    type: 'CREDIT',
    amount: 10_000_000,
    currency: 'EUR',
    idempotencyKey: 'f',
  });

  // The platform's path: the use cases, then publishTable after each step (as the handlers do).
  const sentAt = new Map<number, number>();
  const payloads: string[] = [];
  const publishing = async () => {
    const before = performance.now();
    const head = (await store.get('liveHead', { tableId: table.tableId }))?.next ?? 0;
    await publishTable(live, table.tableId);
    const after = (await store.get('liveHead', { tableId: table.tableId }))?.next ?? 0;
    for (let s = head; s < after; s++) sentAt.set(s, before);
  };
  await core.openShoe(boss, { tableId: table.tableId });
  await publishing();
  for (;;) {
    const round = await core.openRound(op, { tableId: table.tableId });
    await publishing();
    await core.placeBet(op, {
      roundId: round.roundId,
      playerId: 'p1',
      bets: [{ type: 'BANKER', amount: 500 }],
      idempotencyKey: round.roundId,
    });
    const view = await core.resolveRound(op, { roundId: round.roundId });
    await publishing();
    if (view.lastCoup) break;
  }
  const events = sentAt.size;
  await until(() => (tally.count.get(events - 1) ?? 0) >= SUBSCRIBERS);
  const feedTally = tally;
  for (const e of await store.listLiveEvents(table.tableId, -1, 500)) payloads.push(JSON.stringify(e));

  // The raw protocol: the same payloads, one MQTT publish each, no feed (seq reused as the key).
  tally = { count: new Map(), last: new Map(), outOfOrder: 0 };
  subs.reset();
  const raw = await connectAsync(broker.url, { username: PUBLISHER_USERNAME, password: SECRET });
  const rawAt = new Map<number, number>();
  for (let s = 0; s < payloads.length; s++) {
    rawAt.set(s, performance.now());
    await raw.publishAsync(topic, payloads[s]!, { qos: 1 });
  }
  await until(() => (tally.count.get(events - 1) ?? 0) >= SUBSCRIBERS);
  const rawTally = tally;

  const latencies = (t: Tally, at: Map<number, number>) =>
    [...at.entries()].map(([s, t0]) => t.last.get(s)! - t0).sort((a, b) => a - b);
  const lost = (t: Tally) =>
    [...Array(events).keys()].reduce((n, s) => n + (SUBSCRIBERS - (t.count.get(s) ?? 0)), 0);
  const feed = latencies(feedTally, sentAt);
  const rawL = latencies(rawTally, rawAt);
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const rows: [string, string][] = [
    ['subscribers (one table)', SUBSCRIBERS.toLocaleString('en')],
    ['events in the shoe', String(events)],
    ['deliveries per path', (events * SUBSCRIBERS).toLocaleString('en')],
    ['lost / out of order (feed path)', `${lost(feedTally)} / ${feedTally.outOfOrder}`],
    ['lost / out of order (raw MQTT)', `${lost(rawTally)} / ${rawTally.outOfOrder}`],
    ['publishTable → last subscriber, median', ms(quantile(feed, 0.5))],
    ['publishTable → last subscriber, p99', ms(quantile(feed, 0.99))],
    ['raw MQTT publish → last subscriber, median', ms(quantile(rawL, 0.5))],
    ['raw MQTT publish → last subscriber, p99', ms(quantile(rawL, 0.99))],
    ['connecting the subscribers', ms(connectMs)],
  ];
  console.table(Object.fromEntries(rows));
  const heading = '## Live fan-out: one table, a whole shoe (local aedes)';
  writeDocSection(
    heading,
    [
      heading,
      '',
      `\`pnpm bench live\` (bench/live.ts): ${SUBSCRIBERS.toLocaleString('en')} MQTT-over-WebSocket subscribers (\`mqtt\` 5.16.0) of one table on the local aedes 1.2.0 broker, all in one Node process with the broker and the use cases (memory store), a ${DECKS}-deck shoe played to its end and published after each step; load average ${loadavg()[0]!.toFixed(1)}, Node ${process.version}. Each subscriber checks every seq arrives once and in order.`,
      '',
      '| measure | value |',
      '|---|---|',
      ...rows.map(([name, value]) => `| ${name} | ${value} |`),
      '',
      HAND_WRITTEN,
      '',
    ].join('\n'),
  );
  for (const c of subs.clients) c.end(true);
  await raw.endAsync(true);
  await publisher.close();
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
}
