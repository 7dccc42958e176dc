/**
 * A child process of `pnpm bench live` (bench/live.ts): connects its share of the table's watchers to
 * the broker and tallies what they receive. The watchers are spread over several processes because a
 * process may hold at most 20,000 open files here (`ulimit -Hn`) and every in-process watcher costs two
 * (its socket and the broker's end). Times are wall-clock milliseconds (`performance.timeOrigin +
 * performance.now()`), comparable across the processes of one machine.
 *
 * Messages: parent → `{ expect: lastKey }` (reply `{ done: 'complete' }` once every watcher has it, or
 * `{ done: 'quiet' }` after 30 s with nothing received: the rest is lost, and counted so),
 * `{ report: true }` (reply the tally), `{ reset: true }`, `{ close: true }`; child → `{ ready, connectMs }`.
 */
import { connectAsync, type MqttClient } from 'mqtt';

const [url, topic, countText] = process.argv.slice(2) as [string, string, string];
const count = Number(countText);
const now = () => performance.timeOrigin + performance.now();

let counts = new Map<number, number>();
let last = new Map<number, number>();
let outOfOrder = 0;
const lastSeen: number[] = new Array(count).fill(-1);
let expecting: number | undefined;

let lastMessageAt = now();
/** Nothing received for this long while expecting: the rest is lost (counted, not waited for forever). */
const QUIET_MS = 30_000;

const send = (message: object) => process.send?.(message);
const check = () => {
  if (expecting === undefined) return;
  const complete = (counts.get(expecting) ?? 0) >= count;
  if (complete || now() - lastMessageAt > QUIET_MS) {
    expecting = undefined;
    send({ done: complete ? 'complete' : 'quiet' });
  }
};
setInterval(check, 1_000).unref();

const clients: MqttClient[] = [];
const start = now();
for (let i = 0; i < count; i += 250) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(250, count - i) }, async (_, j) => {
      const n = i + j;
      const client = await connectAsync(url, {
        username: 'watcher',
        password: `w${process.pid}-${n}`,
        reconnectPeriod: 0,
      });
      client.on('message', (_t, payload) => {
        const key = (JSON.parse(payload.toString('utf8')) as { seq: number }).seq;
        if (key !== lastSeen[n]! + 1) outOfOrder += 1;
        lastSeen[n] = key;
        lastMessageAt = now();
        counts.set(key, (counts.get(key) ?? 0) + 1);
        last.set(key, now());
        check();
      });
      await client.subscribeAsync(topic, { qos: 1 });
      return client;
    }),
  );
  clients.push(...batch);
}
send({ ready: true, connectMs: now() - start });

process.on('message', async (message: { expect?: number; report?: true; reset?: true; close?: true }) => {
  if (message.expect !== undefined) {
    expecting = message.expect;
    lastMessageAt = Math.max(lastMessageAt, now());
    check();
  } else if (message.report) {
    send({ report: { counts: [...counts], last: [...last], outOfOrder } });
  } else if (message.reset) {
    counts = new Map();
    last = new Map();
    outOfOrder = 0;
    lastSeen.fill(-1);
  } else if (message.close) {
    for (const c of clients) c.end(true);
    process.exit(0);
  }
});
