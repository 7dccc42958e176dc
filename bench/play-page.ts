/**
 * `pnpm bench play-page`: what the game client (/play) costs a player's browser. The site is built as
 * deployed and served by the local server beside the API (DynamoDB Local, the live broker behind its
 * `/live`); each run opens a fresh launch URL in a fresh Chromium context (nothing cached), once at
 * full speed and once with the CPU slowed 4× (DevTools `Emulation.setCPUThrottlingRate`, a mid-range
 * phone's pace). Measured: the first load's bytes (every HTML, JS and CSS file the page fetched, gzip
 * and brotli as CloudFront serves them) against the budget, and the time to interactive — from the
 * navigation's start to the moment a bet can be placed: the felt drawn with its spots and chips, the
 * balance read and the live channel subscribed (`#connection[data-state=live]`). PLAY_RUNS (default 7).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { liveGrant } from '@pyb/core';
import { startLiveBroker } from '@pyb/dev/live-broker';
import { provisionOperator } from '@pyb/ops/provision';
import { createTables, localClientConfig, startDynamoDbLocal, tableNames } from '@pyb/store-dynamodb/local';
import { launchBrowser } from '@pyb/test/web-browser';
import { buildWeb } from '@pyb/web/build';
import { HAND_WRITTEN, writeDocSection } from './doc-section';

const RUNS = Number(process.env.PLAY_RUNS ?? 7);
const PREFIX = 'bench-play';
/** The budget of the first load, compressed (issue #27): HTML + JS + CSS. */
const BUDGET_KIB = 150;
const SECTION = '## The game client: first load and time to interactive';

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export async function run(): Promise<void> {
  process.env.LOG_LEVEL ??= 'SILENT';
  const siteDir = await buildWeb(mkdtempSync(join(tmpdir(), 'pyb-bench-play-site-')));
  const keysDir = mkdtempSync(join(tmpdir(), 'pyb-bench-play-keys-'));
  const dynamodb = await startDynamoDbLocal();
  const admin = new DynamoDBClient(localClientConfig(dynamodb.endpoint));
  await createTables(admin, tableNames(PREFIX));
  admin.destroy();
  const { buildContext } = await import('@pyb/functions/context');
  const { startLocalServer } = await import('@pyb/dev/local-server');
  const { playerActor } = await import('@pyb/functions/sessions');
  const secret = 'bench-publisher';
  const context = buildContext({
    DYNAMODB_ENDPOINT: dynamodb.endpoint,
    TABLE_PREFIX: PREFIX,
    KEY_SERVICE: 'local',
    LOCAL_KEYS_DIR: keysDir,
    LOCAL_BEACON_PERIOD: '1',
    BEACON_MARGIN_SECONDS: '5',
    LAUNCH_URL: '/play',
    LIVE_BROWSER_URL: '/live',
  });
  const broker = await startLiveBroker({
    publisherSecret: secret,
    authenticate: async (token) => {
      const grant = liveGrant(await playerActor(context, token));
      if (!grant) throw new Error('not a player token');
      return grant;
    },
  });
  Object.assign(context.env, { LIVE_MQTT_URL: broker.url, LIVE_MQTT_SECRET: secret });
  const server = await startLocalServer({
    port: 0,
    host: '127.0.0.1',
    context,
    siteDir,
    upgrades: { '/live': broker.upgrade },
  });
  const browser = await launchBrowser();
  try {
    const issued = await provisionOperator(context.principals, context.clock, {
      operatorId: 'bench',
      roles: ['admin', 'operator'],
      label: 'bench',
    });
    const key = (role: string) => issued.find((k) => k.role === role)!.key;
    const call = async (path: string, role: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key(role)}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, string>;
    };
    const table = await call('/v1/tables', 'admin', { name: 'Bench table', variant: 'mini', config: {} });
    await call(`/v1/tables/${table.tableId}/shoes`, 'admin', {});
    await call('/v1/wallets/p1/transactions', 'operator', {
      type: 'CREDIT',
      amount: 100_000,
      currency: 'EUR',
      reference: 'bench',
    });

    const files = new Set<string>();
    const timed = async (rate: number): Promise<number> => {
      const launch = await call('/v1/players/p1/launch', 'operator', { tableId: table.tableId });
      const ctx = await browser.context();
      const page = await ctx.newPage();
      page.on('response', (response) => {
        const path = new URL(response.url()).pathname;
        if (!path.startsWith('/v1') && !path.startsWith('/live')) files.add(path);
      });
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      await page.goto(`${server.url}${launch.launchUrl}`);
      await page.waitForSelector('#connection[data-state="live"]', { timeout: 60_000 });
      await page.waitForSelector('#felt .spot');
      await page.waitForFunction(() => document.getElementById('balance')?.textContent !== '—');
      const ms = await page.evaluate(() => performance.now());
      await ctx.close();
      return ms;
    };
    const times: Record<number, number[]> = { 1: [], 4: [] };
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so a noisy moment of the machine falls on both.
      for (const rate of [1, 4]) times[rate]!.push(await timed(rate));
    }

    const sizes = [...files]
      .map((path) => {
        const file = join(
          siteDir,
          path.endsWith('/') || !path.includes('.') ? join(path, 'index.html') : path,
        );
        const body = readFileSync(file);
        return {
          path,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          brotli: brotliCompressSync(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          }).length,
        };
      })
      .sort((a, b) => b.brotli - a.brotli);
    const total = (k: 'raw' | 'gzip' | 'brotli') => sizes.reduce((sum, s) => sum + s[k], 0);
    const row = (rate: number) => {
      const sorted = [...times[rate]!].sort((a, b) => a - b);
      return `| ${rate === 1 ? 'full speed' : '4× CPU slowdown'} | ${RUNS} | ${quantile(sorted, 0.5).toFixed(0)} ms | ${quantile(sorted, 0.9).toFixed(0)} ms | ${sorted.at(-1)!.toFixed(0)} ms |`;
    };
    const text = [
      SECTION,
      '',
      `Measured by \`pnpm bench play-page\` on ${new Date().toISOString().slice(0, 10)} (load average ${loadavg()[0]!.toFixed(2)}): the site as deployed (Vite build), served by the local server beside the API on DynamoDB Local, the live broker behind \`/live\`. Each run is a fresh launch URL in a fresh browser context (nothing cached).`,
      '',
      `**First load** of \`/play\`: ${kib(total('gzip'))} gzip, ${kib(total('brotli'))} brotli (${kib(total('raw'))} raw) against a budget of ${BUDGET_KIB} KiB compressed — ${total('gzip') <= BUDGET_KIB * 1024 ? 'within it' : '**over it**'}. The files, largest first:`,
      '',
      '| file | raw | gzip | brotli |',
      '| --- | --- | --- | --- |',
      ...sizes.map(
        (s) =>
          `| \`${s.path.replace(/-[A-Za-z0-9_-]{8}\./, '-*.')}\` | ${kib(s.raw)} | ${kib(s.gzip)} | ${kib(s.brotli)} |`,
      ),
      '',
      "**Time to interactive**: from the navigation's start to the felt drawn with its spots and chips, the balance read and the live channel subscribed (the moment a bet can be placed).",
      '',
      '| CPU | runs | median | p90 | max |',
      '| --- | --- | --- | --- | --- |',
      row(1),
      row(4),
      '',
      HAND_WRITTEN,
    ].join('\n');
    writeDocSection(SECTION, text);
    console.log(text);
  } finally {
    await browser.close();
    await broker.close();
    await server.close();
    context.doc.destroy();
    await dynamodb.stop();
    rmSync(keysDir, { recursive: true, force: true });
    rmSync(siteDir, { recursive: true, force: true });
  }
}
