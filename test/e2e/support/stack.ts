/**
 * The local stack for end-to-end tests: fresh tables on the run's DynamoDB Local, a local key service
 * in a temp folder, the local HTTP server on a random port (the same handlers the Lambdas run), and
 * API keys for two operators and a regulator. Tests talk to it over real HTTP only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LocalBeacon } from '@pyb/beacon';
import type { LocalCadenceRunnerOptions } from '@pyb/cadence/local';
import { issueApiKey, liveGrant, type Role } from '@pyb/core';
import { installLocalCadence as localCadence } from '@pyb/dev/cadence';
import { type LiveBroker, startLiveBroker } from '@pyb/dev/live-broker';
import type { AppContext } from '@pyb/functions/context';
import { LocalKeyService } from '@pyb/keys';
import { createTables, deleteTables, localClientConfig, tableNames } from '@pyb/store-dynamodb/local';
import { inject } from 'vitest';
import { skippingClock } from '../../support/clock';
import { testTimeStamps } from '../../support/time-stamps';

export interface Keys {
  admin: string;
  operator: string;
  regulator: string;
}

export interface E2eStack {
  url: string;
  /** The server's composition root (the adapters behind the handlers): for setup at scale and counting calls. */
  context: AppContext;
  /** The local folder of the feed's daily files (FEED_DIR of the feed routes). */
  feedDir: string;
  /** Operator A's keys (its regulator key supervises A only). */
  a: Keys;
  /** Operator B's keys: another tenant. */
  b: Keys;
  /** A platform-admin key (operator `platform`): it alone sets operators' wallet modes. */
  platform: string;
  /** The stack's local key service (to rotate the signing key, as a deploy would). */
  signing: LocalKeyService;
  /** The temp folder of its keys and its beacon's key (test/support/dealt signs rounds with it). */
  keysDir: string;
  /** The local TSA's certificate: what a verifier pins (--trust-tsa). */
  tsaPem: string;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** A built web app to serve beside the API (the browser tests in test/e2e/web). */
  siteDir?: string;
  /** More settings of the handlers (e.g. INLINE_SETTLE_MAX, to see rounds SETTLING with a few players). */
  env?: Record<string, string>;
  /**
   * The live table (the game client's tests): the aedes broker behind the server's own `/live`, as
   * ./scripts/dev runs it, and tables' cadences on the local Step Functions runner, on the stack's
   * clock, each step first awaiting `hold` (a test keeps "no va más" until its players have bet).
   */
  live?: { hold?: LocalCadenceRunnerOptions['hold'] };
}

export async function startStack(options: StackOptions = {}): Promise<E2eStack> {
  const endpoint = inject('dynamodbEndpoint');
  const prefix = `e2e-${randomBytes(4).toString('hex')}`;
  const keysDir = mkdtempSync(join(tmpdir(), 'pyb-e2e-keys-'));
  // The feed routes' file port reads its folder from the environment (functions/src/feed-files.ts).
  const feedDir = join(keysDir, 'feed');
  process.env.FEED_DIR = feedDir;
  const client = new DynamoDBClient(localClientConfig(endpoint));
  const names = tableNames(prefix);
  await createTables(client, names);
  // Quiet unless asked (LOG_LEVEL=INFO shows one JSON line per request); read when the logger loads.
  process.env.LOG_LEVEL ??= 'SILENT';
  const { buildContext } = await import('@pyb/functions/context');
  const { startLocalServer } = await import('@pyb/dev/local-server');
  const { playerActor } = await import('@pyb/functions/sessions');
  const context = buildContext({
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_PREFIX: prefix,
    KEY_SERVICE: 'local',
    LOCAL_KEYS_DIR: keysDir,
    BEACON: 'local',
    BEACON_MARGIN_SECONDS: '5',
    CODE_VERSION: 'e2e',
    ...options.env,
  });
  const signing = new LocalKeyService({ dir: keysDir, env: {} });
  context.keys = signing;
  // The API and its beacon share one clock whose waits take no real time (test/support/clock).
  context.clock = skippingClock();
  context.beacon = new LocalBeacon({
    dir: join(keysDir, 'beacon'),
    period: 1,
    clock: context.clock,
    env: {},
  });
  // The local TSA on the same clock, behind the adapter a deployment uses (test/support/time-stamps).
  const timeStamps = await testTimeStamps(context.clock);
  context.timeStamper = timeStamps.timeStamper;
  let broker: LiveBroker | undefined;
  if (options.live) {
    const secret = randomBytes(16).toString('hex');
    broker = await startLiveBroker({
      publisherSecret: secret,
      authenticate: async (token) => {
        const grant = liveGrant(await playerActor(context, token));
        if (!grant) throw new Error('not a player token');
        return grant;
      },
    });
    Object.assign(context.env, {
      LIVE_MQTT_URL: broker.url,
      LIVE_MQTT_SECRET: secret,
      LIVE_BROWSER_URL: '/live',
    });
    localCadence(context, { clock: context.clock, ...(options.live.hold && { hold: options.live.hold }) });
  }
  const server = await startLocalServer({
    port: 0,
    context,
    siteDir: options.siteDir,
    ...(broker && { upgrades: { '/live': broker.upgrade } }),
  });
  const issue = async (operatorId: string, role: Role) =>
    (await issueApiKey(context.principals, context.clock, { operatorId, role })).key;
  const keysOf = async (operatorId: string): Promise<Keys> => ({
    admin: await issue(operatorId, 'admin'),
    operator: await issue(operatorId, 'operator'),
    regulator: await issue(operatorId, 'regulator'),
  });
  const a = await keysOf('op-a');
  const b = await keysOf('op-b');
  const platform = (
    await issueApiKey(context.principals, context.clock, {
      operatorId: 'platform',
      role: 'admin',
      platform: true,
    })
  ).key;
  return {
    url: server.url,
    context,
    feedDir,
    a,
    b,
    platform,
    signing,
    keysDir,
    tsaPem: timeStamps.pem,
    stop: async () => {
      await broker?.close();
      await server.close();
      await deleteTables(client, names);
      client.destroy();
      context.doc.destroy();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}
