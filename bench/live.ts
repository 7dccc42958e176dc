/**
 * `pnpm bench live`: the fan-out of a whole shoe's live events to many watchers of one table, on the
 * local aedes broker over WebSockets (tools/dev live-broker.ts) with `mqtt` clients, all in this
 * process; the watchers in child processes (bench/live-watchers.ts). A shoe is played through the use cases (memory store) and after each round the feed is
 * published (core publishTable: catch-up from the chain, then MQTT publish); every subscriber checks it
 * got every seq once, in order. Measured per event: from the publishTable call to the last
 * subscriber's receipt — and, in the same run, the same number of raw MQTT publishes of the same
 * payloads (no feed, no store) to the same subscribers. LIVE_SUBSCRIBERS (default 10,000), LIVE_DECKS (1).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalBeacon } from '@pyb/beacon';
import { type Actor, createCore, type LiveFeedStore, publishTable, type Store, tableTopic } from '@pyb/core';
import { PUBLISHER_USERNAME, startLiveBroker } from '@pyb/dev/live-broker';
import { LocalKeyService } from '@pyb/keys';
import { MqttTablePublisher } from '@pyb/live-mqtt';
import { MemoryStore } from '@pyb/store-memory';
import { connectAsync } from 'mqtt';
import { HAND_WRITTEN, writeDocSection } from './doc-section';

const SUBSCRIBERS = Number(process.env.LIVE_SUBSCRIBERS ?? 10_000);
const DECKS = Number(process.env.LIVE_DECKS ?? 1);
const OP = 'op-bench';
const SECRET = 'bench-secret';
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Tally {
  /** Receipts per key and the (wall-clock) time of the last. */
  count: Map<number, number>;
  last: Map<number, number>;
  outOfOrder: number;
}

/** Wall-clock milliseconds, comparable with the watcher processes' (bench/live-watchers.ts). */
const wallNow = () => performance.timeOrigin + performance.now();

/** Watchers per child process: 2 open files each, well under the 20,000 a process may hold here. */
const PER_PROCESS = 2_500;

type Report = { counts: [number, number][]; last: [number, number][]; outOfOrder: number };

/** The watchers, in child processes (bench/live-watchers.ts) of at most PER_PROCESS each. */
async function watchers(url: string, topic: string) {
  const children: ChildProcess[] = [];
  const ready: Promise<number>[] = [];
  for (let from = 0; from < SUBSCRIBERS; from += PER_PROCESS) {
    const child = fork(
      fileURLToPath(new URL('./live-watchers.ts', import.meta.url)),
      [url, topic, String(Math.min(PER_PROCESS, SUBSCRIBERS - from))],
      { execArgv: ['--import', 'tsx'] },
    );
    children.push(child);
    ready.push(
      new Promise((resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`a watcher process exited (${code}) before it was ready`)),
        );
        child.once('message', (m: { connectMs: number }) => resolve(m.connectMs));
      }),
    );
  }
  const connectMs = Math.max(...(await Promise.all(ready)));
  const ask = <T>(child: ChildProcess, message: object, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        child.off('message', on);
        resolve(m[key] as T);
      };
      child.on('message', on);
      child.send(message);
    });
  return {
    connectMs,
    /** Resolves once every watcher has received `key` (the last event). */
    received: (key: number) => Promise.all(children.map((c) => ask(c, { expect: key }, 'done'))),
    tally: async (): Promise<Tally> => {
      const t: Tally = { count: new Map(), last: new Map(), outOfOrder: 0 };
      for (const r of await Promise.all(children.map((c) => ask<Report>(c, { report: true }, 'report')))) {
        for (const [k, n] of r.counts) t.count.set(k, (t.count.get(k) ?? 0) + n);
        for (const [k, at] of r.last) t.last.set(k, Math.max(t.last.get(k) ?? 0, at));
        t.outOfOrder += r.outOfOrder;
      }
      return t;
    },
    reset: () => {
      for (const c of children) c.send({ reset: true });
    },
    close: () => {
      for (const c of children) c.send({ close: true });
    },
  };
}

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
  const subs = await watchers(broker.url, topic);
  const connectMs = subs.connectMs;
  console.error(`live: ${SUBSCRIBERS} watchers connected in ${connectMs.toFixed(0)} ms`);
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
    const before = wallNow();
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
  console.error(`live: the shoe played, ${events} events published; waiting for the watchers`);
  await subs.received(events - 1);
  const feedTally = await subs.tally();
  for (const e of await store.listLiveEvents(table.tableId, -1, 500)) payloads.push(JSON.stringify(e));

  // The raw protocol: the same payloads, one MQTT publish each, no feed (seq reused as the key).
  subs.reset();
  const raw = await connectAsync(broker.url, { username: PUBLISHER_USERNAME, password: SECRET });
  const rawAt = new Map<number, number>();
  for (let s = 0; s < payloads.length; s++) {
    rawAt.set(s, wallNow());
    await raw.publishAsync(topic, payloads[s]!, { qos: 1 });
  }
  await subs.received(events - 1);
  const rawTally = await subs.tally();

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
      `\`pnpm bench live\` (bench/live.ts): ${SUBSCRIBERS.toLocaleString('en')} MQTT-over-WebSocket subscribers (\`mqtt\` 5.16.0) of one table on the local aedes 1.2.0 broker, the broker and the use cases (memory store) in one Node process, the watchers in ${Math.ceil(SUBSCRIBERS / PER_PROCESS)} others (at most ${PER_PROCESS.toLocaleString('en')} each: a process may hold 20,000 open files here, and a watcher costs two), a ${DECKS}-deck shoe played to its end and published after each step; load average ${loadavg()[0]!.toFixed(1)}, Node ${process.version}. Each subscriber checks every seq arrives once and in order.`,
      '',
      '| measure | value |',
      '|---|---|',
      ...rows.map(([name, value]) => `| ${name} | ${value} |`),
      '',
      HAND_WRITTEN,
      '',
    ].join('\n'),
  );
  subs.close();
  await raw.endAsync(true);
  await publisher.close();
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
}
