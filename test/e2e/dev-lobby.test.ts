/**
 * What ./scripts/dev adds so a newcomer plays without typing a key or an id (tools/dev/src/demo-play.ts):
 * the lobby's first visit starts the demo table's cadence (its first shoe opened by the cadence) and
 * answers a demo player's launch URL on it (as an operator's server asks for one); an unknown player
 * is refused; after a restart, the round the stopped stack left in play is voided and the table goes on.
 */
import type { ServerResponse } from 'node:http';
import type { LocalCadenceRunner } from '@pyb/cadence/local';
import { lobby } from '@pyb/dev/demo-play';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsInOrder } from '../support/order';
import { type Client, client } from './support/http';
import { type E2eStack, startStack } from './support/stack';

stepsInOrder();

let stack: E2eStack;
let api: Client;
let tableId: string;
/** The runner holds every "no va más" until the end: the rounds here stay open. */
let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  stack = await startStack({ live: { hold: (step) => (step === 'close' ? held : Promise.resolve()) } });
  api = client(stack.url);
  const table = await api.post('/v1/tables', {
    key: stack.a.admin,
    body: { name: 'Demo cadence table', variant: 'mini', config: {} },
  });
  tableId = table.body.tableId;
});

afterAll(async () => {
  await api?.post(`/v1/tables/${tableId}/cadence`, { key: stack.a.admin, body: { action: 'stop' } });
  release();
  await (stack?.context.cadenceRunner as LocalCadenceRunner | undefined)?.idle();
  await stack?.stop();
});

/** What the lobby wrote: status and headers, and the body. */
function response() {
  const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const res = {
    writeHead: (status: number, headers: Record<string, string>) => {
      written.status = status;
      written.headers = headers;
    },
    end: (body?: string) => {
      written.body = body;
    },
  } as unknown as ServerResponse;
  return { res, written };
}

const demo = () => ({ keys: stack.a, cadenceTableId: tableId });
const PLAYERS = ['player-1', 'player-2'];
const CADENCE = { bettingSeconds: 15, pauseSeconds: 3, nextShoe: true };
const table = async () => (await api.get(`/v1/tables/${tableId}`, { key: stack.a.operator })).body;

/** One GET of the lobby (a new lobby: as after a restart of ./scripts/dev). */
async function visit(page: ReturnType<typeof lobby>, player: string) {
  const { res, written } = response();
  await page(new URL(`${stack.url}/dev/launch?player=${player}`), res);
  return written;
}

describe('the dev lobby and the demo cadence', () => {
  it('the first visit starts the cadence (its shoe opened by it) and sends the player to his launch URL', async () => {
    expect((await table()).cadence).toBeNull();
    const page = lobby(() => stack.url, demo(), PLAYERS, CADENCE);
    const written = await visit(page, 'player-2');
    expect(written.status).toBe(303);
    const location = written.headers!.location!;
    expect(location).toMatch(/^\/play#launchToken=pyl_/);
    const session = await api.post('/v1/sessions', {
      body: { launchToken: location.split('launchToken=')[1] },
    });
    expect(session.status).toBe(201);
    expect(session.body.player).toMatchObject({ playerId: 'player-2', tableId });
    expect((await table()).cadence).toMatchObject({ state: 'RUNNING', bettingSeconds: 15 });
    await expect.poll(async () => (await table()).openRoundId).toMatch(/^rnd_/);
    expect((await table()).currentShoeId).toMatch(/^shoe_/);

    const unknown = await visit(page, 'mallory');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      'No demo player mallory: one of player-1, player-2.\n',
    ]);
  });

  it('after a restart mid-round, the round left in play is voided and the table goes on', async () => {
    const before = (await table()).openRoundId;
    expect(before).toMatch(/^rnd_/);
    // A new lobby, as after a restart: the runner that held the round is gone, its round still open.
    expect(
      (
        await visit(
          lobby(() => stack.url, demo(), PLAYERS, CADENCE),
          'player-1',
        )
      ).status,
    ).toBe(303);
    const voided = (await api.get(`/v1/rounds/${before}`, { key: stack.a.operator })).body;
    expect([voided.status, voided.voidReason]).toEqual(['VOIDED', 'TECHNICAL_FAULT']);
    await expect.poll(async () => (await table()).openRoundId).not.toBe(before);
    expect((await table()).openRoundId).toMatch(/^rnd_/);
  });
});
