/**
 * What lets a newcomer play on ./scripts/dev without typing a key or an id: the demo cadence table,
 * run from the first visit, and a lobby that does what an operator's lobby does — its server asks for a launch URL for
 * one player (POST /v1/players/{playerId}/launch with the operator's key) and sends the browser there.
 * Both go through the API over HTTP, as an operator's server would.
 */
import type { ServerResponse } from 'node:http';
import type { DevPage } from './local-server';

interface Demo {
  keys: { admin: string; operator: string };
  cadenceTableId: string;
}

async function api<T>(
  base: string,
  key: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && {
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/**
 * Starts the demo table's cadence. A round the last run left in play (the stack stopped mid-round: its
 * local Step Functions executions live in this process) is voided first, its bets refunded, so the
 * table goes on instead of waiting for a run that no longer exists.
 */
export async function runDemoCadence(
  base: string,
  demo: Demo,
  cadence: { bettingSeconds: number; pauseSeconds: number; nextShoe: boolean },
): Promise<string | undefined> {
  // The start message says what went wrong; the rest of the stack runs on.
  return startCadence(base, demo, cadence).catch(
    (error: unknown) => `the demo cadence did not start: ${(error as Error).message}`,
  );
}

async function startCadence(
  base: string,
  demo: Demo,
  cadence: { bettingSeconds: number; pauseSeconds: number; nextShoe: boolean },
): Promise<string | undefined> {
  const { admin } = demo.keys;
  const table = await api<{ openRoundId?: string | null; lock?: unknown }>(
    base,
    admin,
    `/v1/tables/${demo.cadenceTableId}`,
  );
  if (table.status !== 200) return `the demo cadence table is not readable (${table.status})`;
  if (table.body.lock) return 'the demo cadence table is locked (see GET /v1/tables/$TABLE_ID)';
  if (table.body.openRoundId) {
    await api(base, admin, `/v1/rounds/${table.body.openRoundId}/void`, {
      reason: 'TECHNICAL_FAULT',
      note: 'the dev stack stopped mid-round',
    });
  }
  const started = await api<{ code?: string; detail?: string }>(
    base,
    admin,
    `/v1/tables/${demo.cadenceTableId}/cadence`,
    { action: 'start', cadence },
  );
  return started.status === 200
    ? undefined
    : `the demo cadence did not start: ${started.body.code} ${started.body.detail}`;
}

/**
 * GET /dev/launch?player=ID: a launch URL for the demo player, the browser sent there (303). The first
 * visit of this process starts the demo table's cadence (runDemoCadence), so the table runs only once
 * someone plays, and a stack that only takes the README's tour keeps its feed as the tour shows it.
 */
export function lobby(
  base: () => string,
  demo: Demo,
  players: readonly string[],
  cadence: { bettingSeconds: number; pauseSeconds: number; nextShoe: boolean },
): DevPage {
  let running: Promise<string | undefined> | undefined;
  return async (url: URL, res: ServerResponse) => {
    const player = url.searchParams.get('player') ?? players[0]!;
    if (!players.includes(player)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`No demo player ${player}: one of ${players.join(', ')}.\n`);
      return;
    }
    running ??= runDemoCadence(base(), demo, cadence);
    const note = await running;
    if (note) console.error(note);
    const launch = await api<{ launchUrl?: string; detail?: string }>(
      base(),
      demo.keys.operator,
      `/v1/players/${encodeURIComponent(player)}/launch`,
      { tableId: demo.cadenceTableId },
    );
    if (launch.status !== 201 || !launch.body.launchUrl) {
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`The launch failed: ${launch.status} ${launch.body.detail ?? ''}\n`);
      return;
    }
    res.writeHead(303, { location: launch.body.launchUrl, 'cache-control': 'no-store' });
    res.end();
  };
}
