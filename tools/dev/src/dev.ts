/**
 * The local stack behind `./scripts/dev`: DynamoDB Local with its data in .data/dynamodb (kept
 * between runs), the tables, the local key service (.data/keys), a demo operator seeded once, the
 * API on http://localhost:$PORT through the same handlers the Lambdas run, and the web app (built
 * from web/ at start) beside it at /. Ctrl-C stops it all.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_BEACON_FAIL_FILE } from '@pyb/beacon';
import { type Actor, authenticate, createCore, DomainError, liveGrant, type Role } from '@pyb/core';
import { exportFeed, context as useCaseContext } from '@pyb/core/use-cases';
import { beaconOf } from '@pyb/functions/beacon';
import { type AppContext, useCases } from '@pyb/functions/context';
import { keysOf } from '@pyb/functions/keys';
import { LOCAL_KEYS_FAIL_FILE } from '@pyb/keys';
import { provisionOperator, provisionWallet } from '@pyb/ops/provision';
import type { ReferenceWallet } from '@pyb/seamless-wallet/reference-wallet';
import {
  createTables,
  type DynamoDbLocal,
  DynamoDbLocalError,
  localClientConfig,
  startDynamoDbLocal,
  tableNames,
} from '@pyb/store-dynamodb/local';
import { localTimeStampAuthorityIn } from '@pyb/timestamp/local-identity';
import { startTimeStampServer, type TimeStampServer } from '@pyb/timestamp/server';
import { buildWeb } from '@pyb/web/build';
import { lobby } from './demo-play';
import { type LiveBroker, startLiveBroker } from './live-broker';
import type { LocalServer } from './local-server';
import { demoStatus } from './status';

const ROOT = resolve(import.meta.dirname, '../../..');
/** PYB_DEV_DATA: another data folder (scripts/ci-tour runs the documented tour on a fresh one). */
const DATA = resolve(ROOT, process.env.PYB_DEV_DATA ?? '.data');
const PORT = Number(process.env.PORT ?? 3000);
const DYNAMODB_PORT = Number(process.env.DYNAMODB_PORT ?? 8000);
const PREFIX = process.env.TABLE_PREFIX ?? 'pyb-dev';
const OPERATOR = 'demo';
const PLAYERS = ['player-1', 'player-2', 'player-3'];
const FUNDS = 100_000; // 1,000.00 EUR each
/** The second demo operator: its players' money stays in its own wallet (the reference wallet). */
const SEAMLESS_OPERATOR = 'demo-seamless';
const WALLET_PORT = Number(process.env.WALLET_PORT ?? 4100);
/** The environment variable the seamless operator's secret reference (`env:…`) names. */
const SEAMLESS_SECRET_ENV = 'DEMO_SEAMLESS_WALLET_SECRET';

interface DemoState {
  operatorId: string;
  keys: Record<Role, string>;
  tableId?: string;
  /** The seamless demo operator. */
  seamless?: { operatorId: string; keys: Record<Role, string>; tableId?: string };
  /** The table that runs itself (a cadence): the one the lobby's launch URLs open. */
  cadenceTableId?: string;
}

/** The demo cadence table's clock: 15 s of bets, 3 s after each settlement (RTS 14G: ≥ 5 s apart). */
const DEMO_CADENCE = { bettingSeconds: 15, pauseSeconds: 3, nextShoe: true } as const;

const statePath = join(DATA, 'demo.json');

/** `dev:<commit>` of the working tree (named in every statement as its code version). */
function sourceRevision(): string {
  try {
    return `dev:${execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()}`;
  } catch {
    return 'dev';
  }
}

function readState(): DemoState | undefined {
  if (!existsSync(statePath)) return undefined;
  try {
    return JSON.parse(readFileSync(statePath, 'utf8')) as DemoState;
  } catch {
    return undefined;
  }
}

/**
 * The demo operator, once: keys are stored hashed, so the plaintext demo keys are kept in
 * .data/demo.json (dev only) and re-issued if the database no longer knows them.
 */
/** An operator's demo keys: the ones kept in .data/demo.json if the database still knows them, else new ones. */
async function demoKeys(
  context: AppContext,
  operatorId: string,
  kept: Record<Role, string> | undefined,
): Promise<Record<Role, string>> {
  const known = async (key: string) =>
    authenticate(context.principals, `Bearer ${key}`).then(
      () => true,
      () => false,
    );
  if (kept && (await known(kept.admin)) && (await known(kept.operator)) && (await known(kept.regulator)))
    return kept;
  const issued = await provisionOperator(context.principals, context.clock, {
    operatorId,
    roles: ['admin', 'operator', 'regulator'],
    label: operatorId,
  });
  return Object.fromEntries(issued.map((k) => [k.role, k.key])) as Record<Role, string>;
}

/** A table of the operator with a shoe in play (the one kept if it still exists). */
async function demoTable(
  core: ReturnType<typeof createCore>,
  admin: Actor,
  kept: string | undefined,
  name: string,
  withShoe = true,
): Promise<string> {
  const exists = kept
    ? await core.getTable(admin, { tableId: kept }).then(
        () => true,
        () => false,
      )
    : false;
  const tableId =
    kept && exists
      ? kept
      : (await core.createTable(admin, { name, variant: 'mini', config: { pairBets: true } })).tableId;
  // A shoe in play, so the operator key can deal at once (opening and closing shoes needs the admin key).
  // Not on a locked table, and a failure here does not stop the start: the banner says what to do.
  const table = await core.getTable(admin, { tableId });
  if (withShoe && !table.currentShoeId && !table.lock) {
    await core.openShoe(admin, { tableId }).catch((error: unknown) => {
      console.error(`The demo table ${tableId} has no shoe in play: ${(error as Error).message}`);
    });
  }
  return tableId;
}

async function seed(context: AppContext, wallet: ReferenceWallet): Promise<Required<DemoState>> {
  const previous = readState();
  const keys = await demoKeys(context, OPERATOR, previous?.keys);
  const admin: Actor = { operatorId: OPERATOR, role: 'admin', supervises: [] };
  const core = createCore({
    store: context.store,
    keys: keysOf(context),
    beacon: beaconOf(context),
    clock: context.clock,
    codeVersion: context.env.CODE_VERSION ?? 'unknown',
  });
  const tableId = await demoTable(core, admin, previous?.tableId, 'Demo mini table');
  for (const playerId of PLAYERS) {
    const funded = await core.getWallet(admin, { playerId }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError && error.code === 'WALLET_NOT_FOUND') return false;
        throw error;
      },
    );
    if (!funded) {
      await core.walletTransaction(admin, {
        playerId,
        type: 'CREDIT',
        amount: FUNDS,
        currency: 'EUR',
        idempotencyKey: `demo-seed-${playerId}`,
        reference: 'demo seed',
      });
    }
  }
  // The seamless operator: the same players, their money in the reference wallet (its books in memory:
  // every start funds them again), reached at WALLET_PORT with the secret named by its record.
  const seamlessKeys = await demoKeys(context, SEAMLESS_OPERATOR, previous?.seamless?.keys);
  // As `./scripts/provision --operator demo-seamless --wallet seamless …` would: the same use case, on
  // the local server's use-case context (it sees the mode at once).
  await provisionWallet(useCases(context), {
    operatorId: SEAMLESS_OPERATOR,
    walletMode: 'seamless',
    seamless: { baseUrl: wallet.url, secretRef: `env:${SEAMLESS_SECRET_ENV}` },
  });
  const seamlessAdmin: Actor = { operatorId: SEAMLESS_OPERATOR, role: 'admin', supervises: [] };
  const seamlessTableId = await demoTable(
    core,
    seamlessAdmin,
    previous?.seamless?.tableId,
    'Demo seamless table',
  );
  // No shoe opened here: its cadence opens one when the first player arrives (/dev/launch).
  const cadenceTableId = await demoTable(core, admin, previous?.cadenceTableId, 'Demo cadence table', false);
  const state = {
    operatorId: OPERATOR,
    keys,
    tableId,
    cadenceTableId,
    seamless: { operatorId: SEAMLESS_OPERATOR, keys: seamlessKeys, tableId: seamlessTableId },
  };
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return state;
}

/** What the banner says of the demo now (status.ts): each part read on its own, none can stop the start. */
function statusOf(context: AppContext, state: Required<DemoState>): Promise<string> {
  const core = createCore({
    store: context.store,
    keys: keysOf(context),
    beacon: beaconOf(context),
    clock: context.clock,
    codeVersion: context.env.CODE_VERSION ?? 'unknown',
  });
  const admin: Actor = { operatorId: state.operatorId, role: 'admin', supervises: [] };
  const feedContext = useCaseContext({ store: context.store, keys: keysOf(context), clock: context.clock });
  const failing = [
    [join(DATA, 'keys', LOCAL_KEYS_FAIL_FILE), 'the local key service'],
    [join(DATA, 'beacon', LOCAL_BEACON_FAIL_FILE), 'the local beacon'],
  ].filter(([path]) => existsSync(path!));
  const notes = failing.map(
    ([path, what]) => `${what} fails on demand while ${shown(path!)} exists (rm it to fix)`,
  );
  return demoStatus({
    core,
    feed: ({ from, to }) => exportFeed(feedContext, admin, { from, to, format: 'ndjson' }),
    admin,
    operatorId: state.operatorId,
    tableId: state.tableId,
    players: PLAYERS,
    now: context.clock.now(),
  }).then((status) => [...notes, status].join('\n'));
}

/** A path as the banner shows it: from the repo root when inside it (`.data/env.sh`). */
const shown = (path: string) => (relative(ROOT, path).startsWith('..') ? path : relative(ROOT, path));

/** A shell-safe single-quoted word. */
const quoted = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * `.data/env.sh`, to `source` in a shell (README, "A short tour"): the demo keys and ids, the API and
 * the reference wallet, and `baccarat` (scripts/baccarat: the CLI on Node 22) as a shell function.
 */
function envFile(url: string, walletOrigin: string, state: Required<DemoState>): string {
  const vars: [string, string][] = [
    ['API', url],
    ['WALLET', walletOrigin],
    ['ADMIN_KEY', state.keys.admin],
    ['OPERATOR_KEY', state.keys.operator],
    ['REGULATOR_KEY', state.keys.regulator],
    ['TABLE_ID', state.tableId],
    ['CADENCE_TABLE_ID', state.cadenceTableId],
    ['SEAMLESS_ADMIN_KEY', state.seamless.keys.admin],
    ['SEAMLESS_OPERATOR_KEY', state.seamless.keys.operator],
    ['SEAMLESS_REGULATOR_KEY', state.seamless.keys.regulator],
    ['SEAMLESS_TABLE_ID', state.seamless.tableId!],
  ];
  return [
    '# Written by ./scripts/dev at each start (dev only): `source .data/env.sh` in your shell.',
    ...vars.map(([name, value]) => `export ${name}=${quoted(value)}`),
    `baccarat() { ${quoted(join(ROOT, 'scripts/baccarat'))} "$@"; }`,
    '',
  ].join('\n');
}

function banner(
  url: string,
  endpoint: string,
  state: Required<DemoState>,
  status: string,
  beacon: string,
  walletOrigin: string,
  envPath: string,
): string {
  const { keys, tableId } = state;
  return `
Punto y Banca API on ${url}  (DynamoDB Local ${endpoint}, data in ${shown(DATA)}/)

Demo operator "${state.operatorId}" — API keys (also in ${envPath}, with the seamless operator's):
  export ADMIN_KEY=${keys.admin}
  export OPERATOR_KEY=${keys.operator}
  export REGULATOR_KEY=${keys.regulator}
  export TABLE_ID=${tableId}
  export API=${url}
  export WALLET=${walletOrigin}
${status}

Play: ${url}/dev/launch?player=player-1  (or player-2, player-3) — the game client on the demo cadence
     table ${state.cadenceTableId}, which runs by itself from the first visit (${DEMO_CADENCE.bettingSeconds} s of bets a round): as an
     operator's lobby does, this asks for a launch URL (POST /v1/players/{playerId}/launch with the
     OPERATOR key) and sends you there.

Web: ${url}/?table=${tableId}  — the table (sign in with the OPERATOR key; the ADMIN key also opens
     and closes shoes), ${url}/verify (a player's verifier), ${url}/regulator (the REGULATOR key).

Seamless demo operator "${state.seamless.operatorId}": its players' money stays in the operator's own wallet,
the reference operator wallet at ${walletOrigin} (docs/seamless-wallet.md); its keys are the SEAMLESS_* of
${envPath}. Its books (balances, entries): curl -s $WALLET/_control/books

Shoes are provably fair (docs/provably-fair.md): each shoe's order waits for a round of the local
randomness beacon (its key in .data/beacon; chain hash ${beacon}) published after the
players' seeds close — so the first resolve of a shoe waits up to about 8 s. Once a shoe is closed,
anyone can check it (after \`source ${envPath}\`, which also defines \`baccarat\`):
  KEYS=$(curl -s $API/v1/signing-key)   # the key, its certificates, the beacon network: what you pin
  curl -s $API/v1/shoes/$SHOE/proof | baccarat verify - --public-key <(echo "$KEYS") --key-certificates <(echo "$KEYS") --trust-beacon <(echo "$KEYS") --trust-tsa ${join(DATA, 'tsa', 'tsa.pem')}

Next: the README tour and docs/api.md walk a whole shoe in curl (seeds, rounds, bets, resolve, close, verify).
OpenAPI: ${url}/v1/openapi.json    Ctrl-C stops everything.

In another shell, from ${ROOT}:
  source ${envPath}     # API, WALLET, the demo keys and table ids, and baccarat
`;
}

async function main(): Promise<void> {
  // scripts/node22 puts Node 22 first on PATH: the runtime the Lambdas run (nodejs22.x).
  console.log(`Node ${process.version} (${process.execPath})`);
  mkdirSync(DATA, { recursive: true });
  let dynamodb: DynamoDbLocal | undefined;
  let server: LocalServer | undefined;
  let wallet: ReferenceWallet | undefined;
  let tsaServer: TimeStampServer | undefined;
  let liveBroker: LiveBroker | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // The broker first: it ends the WebSockets the server upgraded for it (/live), which server.close waits for.
    await liveBroker?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await wallet?.close().catch(() => undefined);
    await tsaServer?.close().catch(() => undefined);
    await dynamodb?.stop().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    dynamodb = await startDynamoDbLocal({ dbPath: join(DATA, 'dynamodb'), port: DYNAMODB_PORT });
  } catch (error) {
    const hint =
      error instanceof DynamoDbLocalError
        ? ''
        : `\n(is port ${DYNAMODB_PORT} taken? DYNAMODB_PORT=<port> ./scripts/dev picks another)`;
    console.error(`Could not start DynamoDB Local: ${(error as Error).message}${hint}`);
    return stop(1);
  }
  const client = new DynamoDBClient(localClientConfig(dynamodb.endpoint));
  await createTables(client, tableNames(PREFIX));
  client.destroy();

  // The local TSA (its key and certificate kept in .data/tsa, so tokens made before a restart still
  // verify under the same pin) behind a real RFC 3161 endpoint: the handlers reach it over HTTP, as a
  // deployment reaches its TSAs (docs/time-stamps.md §6). Any free port.
  const tsa = await localTimeStampAuthorityIn(join(DATA, 'tsa'), { clock: { now: () => new Date() } });
  tsaServer = await startTimeStampServer(tsa, { port: Number(process.env.TSA_PORT ?? 0) });
  // The handlers build their adapters from these, exactly as a Lambda does from its configuration.
  Object.assign(process.env, {
    TSA_URLS: tsaServer.url,
    TSA_CERTS: join(DATA, 'tsa', 'tsa.pem'),
    TSA_WINDOW_MS: process.env.TSA_WINDOW_MS ?? '200',
    DYNAMODB_ENDPOINT: dynamodb.endpoint,
    TABLE_PREFIX: PREFIX,
    KEY_SERVICE: 'local',
    LOCAL_KEYS_DIR: join(DATA, 'keys'),
    BEACON: 'local',
    LOCAL_BEACON_DIR: join(DATA, 'beacon'),
    FEED_DIR: join(DATA, 'feed'),
    // The game page (web/play) and, on its own origin, the live broker (the local server's /live).
    LAUNCH_URL: '/play',
    LIVE_BROWSER_URL: '/live',
    CODE_VERSION: process.env.CODE_VERSION ?? sourceRevision(),
  });
  const { appContext } = await import('@pyb/functions/context');
  const { startLocalServer } = await import('./local-server');
  const { DEV_WALLET_SECRET, startReferenceWallet } = await import('@pyb/seamless-wallet/main');
  process.env[SEAMLESS_SECRET_ENV] ??= DEV_WALLET_SECRET;
  try {
    wallet = await startReferenceWallet({
      WALLET_PORT: String(WALLET_PORT),
      WALLET_SECRETS: process.env[SEAMLESS_SECRET_ENV],
      WALLET_PLAYERS: PLAYERS.join(','),
      WALLET_FUNDS: String(FUNDS),
    });
  } catch (error) {
    console.error(
      `Could not start the reference wallet: ${(error as Error).message}\n(is port ${WALLET_PORT} taken? WALLET_PORT=<port> ./scripts/dev picks another)`,
    );
    return stop(1);
  }
  // The live events' broker (docs/api.md, "Live events"): aedes over WebSockets with IoT Core's rule, a
  // player's access token as his MQTT password; the handlers publish to it as the platform.
  const { playerActor } = await import('@pyb/functions/sessions');
  const publisherSecret = randomBytes(16).toString('hex');
  liveBroker = await startLiveBroker({
    port: Number(process.env.LIVE_PORT ?? 0),
    publisherSecret,
    authenticate: async (token) => {
      const grant = liveGrant(await playerActor(appContext(), token));
      if (!grant) throw new Error('not a player token');
      return grant;
    },
  });
  Object.assign(process.env, { LIVE_MQTT_URL: liveBroker.url, LIVE_MQTT_SECRET: publisherSecret });
  // Tables with a cadence run themselves (POST /v1/tables/{tableId}/cadence): locally on aws-local-stepfunctions.
  (await import('./cadence')).installLocalCadence(appContext());
  const state = await seed(appContext(), wallet);
  let siteDir: string | undefined;
  let url = `http://localhost:${PORT}`;
  try {
    siteDir = await buildWeb();
  } catch (error) {
    console.error(`The web app did not build (the API runs without it): ${(error as Error).message}`);
  }
  try {
    server = await startLocalServer({
      port: PORT,
      host: process.env.HOST ?? '127.0.0.1',
      siteDir,
      upgrades: { '/live': liveBroker.upgrade },
      devPages: { '/dev/launch': lobby(() => server?.url ?? url, state, PLAYERS, DEMO_CADENCE) },
    });
  } catch (error) {
    console.error(
      `Could not listen on port ${PORT}: ${(error as Error).message}\nPORT=<port> ./scripts/dev picks another.`,
    );
    return stop(1);
  }
  const beacon = (await beaconOf(appContext()).network()).chainHash;
  url = `http://localhost:${server.port}`;
  const walletOrigin = new URL(wallet.url).origin;
  const envPath = join(DATA, 'env.sh');
  const status = await statusOf(appContext(), state);
  console.log(banner(url, dynamodb.endpoint, state, status, beacon, walletOrigin, shown(envPath)));
  console.log(
    `Live events: MQTT over WebSockets at ${url.replace(/^http/, 'ws')}/live (a player token as the password)`,
  );
  // Written once the start message is out: its presence says the stack is up (scripts/ci-tour waits for it).
  writeFileSync(envPath, envFile(url, walletOrigin, state), { mode: 0o600 });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
