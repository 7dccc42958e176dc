/**
 * Live events (docs/api.md, "Live events") on a real MQTT broker — aedes over WebSockets, with the
 * authorizer's rule as its hooks — and real `mqtt` clients: every watcher sees the same events in the
 * same order, one that dropped catches up by seq from the feed, a player subscribes only to his table
 * and his own topic, and his private events reach him alone.
 */
import {
  betMessages,
  type LiveDeps,
  type LiveFeedStore,
  type LiveGrant,
  listLiveEvents,
  playerTopic,
  publishTable,
  type Store,
  tableTopic,
} from '@pyb/core';
import { type LiveBroker, PUBLISHER_USERNAME, startLiveBroker } from '@pyb/dev/live-broker';
import { tablePreset } from '@pyb/engine';
import { MqttTablePublisher } from '@pyb/live-mqtt';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, operator } from '../support/actors';
import { fundPlayers } from '../support/fixture';
import { playShoe } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

const OP = 'op-live';
const op = operator(OP);
const CONFIG = { decks: 1, cutCard: { minCardsBehind: 7, maxCardsBehind: 10 } } as const;
const SECRET = 'publisher-secret';

let stack: TestStack;
let broker: LiveBroker;
let publisher: MqttTablePublisher;
let live: LiveDeps;
const clients: MqttClient[] = [];
/** The tests' tokens: each names a grant (token verification itself: the sessions tests). */
const TOKENS = new Map<string, LiveGrant>();

beforeAll(async () => {
  stack = await createTestStack('live');
  broker = await startLiveBroker({
    publisherSecret: SECRET,
    authenticate: async (token) => {
      const grant = TOKENS.get(token);
      if (!grant) throw new Error('token does not verify');
      return grant;
    },
  });
  publisher = new MqttTablePublisher({ url: broker.url, username: PUBLISHER_USERNAME, password: SECRET });
  live = { store: stack.store as Store & LiveFeedStore, publisher };
  await fundPlayers(stack.core, op, ['lia', 'bo', 'cy'], 1_000_000);
});
afterAll(async () => {
  for (const c of clients) await c.endAsync(true);
  await publisher?.close();
  await broker?.close();
  await stack?.cleanup();
});

interface Watcher {
  client: MqttClient;
  got: Map<string, Record<string, unknown>[]>;
}

async function watcher(token: string, topics: string[]): Promise<Watcher> {
  const client = await connectAsync(broker.url, { username: 'player', password: token, reconnectPeriod: 0 });
  clients.push(client);
  const got = new Map<string, Record<string, unknown>[]>();
  client.on('message', (topic, payload) => {
    got.set(topic, [...(got.get(topic) ?? []), JSON.parse(payload.toString('utf8'))]);
  });
  if (topics.length > 0) await client.subscribeAsync(topics, { qos: 1 });
  return { client, got };
}

/** Resolves once `ready` holds (checked on every message); the test's timeout is the backstop. */
function until(w: Watcher, ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) return;
      w.client.off('message', check);
      resolve();
    };
    w.client.on('message', check);
    setImmediate(check);
  });
}

const seqs = (events: readonly Record<string, unknown>[]) => events.map((e) => e.seq as number);

describe('live events on the local broker', () => {
  it('two watchers see every event of a whole shoe in the same order; one dropped mid-shoe catches up by seq', async () => {
    const table = await stack.core.createTable(admin(OP), {
      name: 'Live 1',
      variant: 'custom',
      config: CONFIG,
    });
    const topic = tableTopic(OP, table.tableId);
    TOKENS.set('t-lia', { operatorId: OP, playerId: 'lia', tableId: table.tableId });
    TOKENS.set('t-bo', { operatorId: OP, playerId: 'bo' });
    TOKENS.set('t-cy', { operatorId: OP, playerId: 'cy', tableId: table.tableId });
    const a = await watcher('t-lia', [topic]);
    const b = await watcher('t-bo', [topic]);
    let c: Watcher | undefined = await watcher('t-cy', [topic]);
    let cLast = -1;
    const shoe = await stack.core.openShoe(admin(OP), { tableId: table.tableId });
    await publishTable(live, table.tableId);
    await playShoe({
      core: stack.core,
      actor: op,
      tableId: table.tableId,
      players: ['lia', 'bo', 'cy'],
      config: tablePreset('custom', { ...CONFIG, name: 'Live 1' }),
      seed: 'live-1',
      patterns: [['PLAYER'], ['BANKER'], ['TIE'], ['BANKER', 'TIE']],
      afterRound: async (_round, n) => {
        await publishTable(live, table.tableId);
        if (n === 2 && c) {
          // cy's connection drops after the second round: he knows up to the last seq he saw.
          const head = await stack.store.get('liveHead', { tableId: table.tableId });
          await until(c, () => (c!.got.get(topic)?.length ?? 0) === head!.next);
          cLast = Math.max(...seqs(c.got.get(topic)!));
          await c.client.endAsync(true);
          c = undefined;
        }
      },
    });
    await stack.core.closeShoe(admin(OP), { shoeId: shoe.shoeId });
    await publishTable(live, table.tableId);

    const feed = await listLiveEvents(live, op, { tableId: table.tableId });
    const total = feed.events.length;
    expect(seqs(feed.events)).toEqual([...Array(total).keys()]); // gap-free from 0
    await until(a, () => (a.got.get(topic)?.length ?? 0) >= total);
    await until(b, () => (b.got.get(topic)?.length ?? 0) >= total);
    expect(a.got.get(topic)).toEqual(feed.events);
    expect(b.got.get(topic)).toEqual(feed.events);
    const types = feed.events.map((e) => e.type);
    expect(types[0]).toBe('SHOE_OPENED');
    expect(types).toContain('NO_VA_MAS');
    expect(types).toContain('CARD_DEALT');
    expect(types.filter((t) => t === 'SHOE_ENDED')).toHaveLength(1);
    expect(types.at(-1)).toBe('SHOE_CLOSED');
    const noVaMas = feed.events.find((e) => e.type === 'NO_VA_MAS')!;
    expect(noVaMas.data).toMatchObject({ totals: { bets: expect.any(Object), stake: expect.any(Number) } });
    expect(JSON.stringify(feed.events)).not.toMatch(/"playerId"|"lia"|"bo"|"cy"/); // aggregates only

    // cy reconnects: what he missed from the feed after his last seq, then live again — nothing lost.
    expect(cLast).toBeGreaterThan(0);
    const missed = await listLiveEvents(live, op, { tableId: table.tableId, after: cLast });
    expect(seqs(missed.events)[0]).toBe(cLast + 1);
    expect([...c0(cLast), ...seqs(missed.events)]).toEqual([...Array(total).keys()]);

    // A page joining now reads where the table is: its last events (tail), then follows with after.
    const tail = await listLiveEvents(live, op, { tableId: table.tableId, tail: 5 });
    expect(seqs(tail.events)).toEqual([total - 5, total - 4, total - 3, total - 2, total - 1]);
    expect(tail.next).toBe(total);
    const all = await listLiveEvents(live, op, { tableId: table.tableId, tail: 500 });
    expect(all.events).toEqual(feed.events);
    await expect(listLiveEvents(live, op, { tableId: table.tableId, tail: 5, after: 3 })).rejects.toThrow(
      /not both/,
    );
    await expect(listLiveEvents(live, op, { tableId: table.tableId, tail: 0 })).rejects.toThrow(
      /tail is 1 to/,
    );
  });

  it('a player subscribes only to his table and his own topic; his private events reach him alone', async () => {
    const table = await stack.core.createTable(admin(OP), {
      name: 'Live 2',
      variant: 'custom',
      config: CONFIG,
    });
    const other = await stack.core.createTable(admin('op-else'), {
      name: 'Else',
      variant: 'custom',
      config: CONFIG,
    });
    TOKENS.set('t-lia-2', { operatorId: OP, playerId: 'lia', tableId: table.tableId });
    TOKENS.set('t-bo-2', { operatorId: OP, playerId: 'bo', tableId: table.tableId });
    const lia = await watcher('t-lia-2', []);
    const grantedOf = (topic: string) =>
      lia.client.subscribeAsync(topic, { qos: 1 }).then(
        () => true,
        () => false, // SUBACK 0x80: refused
      );
    const asked = [
      tableTopic(OP, table.tableId),
      playerTopic(OP, 'lia'),
      playerTopic(OP, 'bo'), // another player's
      tableTopic('op-else', other.tableId), // another operator's table
      `pyb/v1/${OP}/players/+`, // wildcards
      `pyb/v1/${OP}/tables/#`,
    ];
    const granted: boolean[] = [];
    for (const topic of asked) granted.push(await grantedOf(topic));
    expect(granted).toEqual([true, true, false, false, false, false]);
    await expect(watcher('forged', [])).rejects.toThrow();

    const bo = await watcher('t-bo-2', [playerTopic(OP, 'bo')]);
    await stack.core.openShoe(admin(OP), { tableId: table.tableId });
    const round = await stack.core.openRound(op, { tableId: table.tableId });
    const bet = await stack.core.placeBet(op, {
      roundId: round.roundId,
      playerId: 'lia',
      bets: [{ type: 'PLAYER', amount: 500 }],
      idempotencyKey: 'live-2-lia',
    });
    await publisher.publish(betMessages(OP, table.tableId, bet, '2026-01-01T00:00:00.000Z'));
    await stack.core.resolveRound(op, { roundId: round.roundId });
    await publishTable(live, table.tableId);
    const mine = playerTopic(OP, 'lia');
    await until(lia, () => (lia.got.get(mine) ?? []).some((e) => e.type === 'PAYOUT'));
    const private_ = lia.got.get(mine)!.map((e) => e.type);
    expect(private_).toEqual(['BET_ACCEPTED', 'BALANCE', 'PAYOUT', 'BALANCE']);
    expect(lia.got.get(mine)![1]!.data).toEqual({ balance: bet.balance });
    // bo sits out: none of lia's events reached his topic, nor anything of hers through another.
    expect(bo.got.size).toBe(0);
    expect([...lia.got.keys()].sort()).toEqual([mine, tableTopic(OP, table.tableId)].sort());
  });
});

/** The seqs 0..last a watcher had before he dropped. */
const c0 = (last: number) => [...Array(last + 1).keys()];
