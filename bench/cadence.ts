/**
 * `pnpm bench cadence`: a table that runs itself with a crowd betting every round. The local stack as
 * `./scripts/dev` runs it — the HTTP handlers on DynamoDB Local, the cadence state machine's own
 * definition run by aws-local-stepfunctions on the real clock (tools/dev cadence.ts), the in-process
 * settlement queue behind the settle-batch handler — and CADENCE_BETTORS players (default 2,000) who
 * each bet once on every round while it takes bets, through 32 connections. Per round, from the
 * rounds as stored: bets accepted and refused, "no va más" after `closesAt`, the deal's wait for its
 * beacon round, the settlement, and when the next round opened against `settledAt + pauseSeconds`
 * (its clock). CADENCE_ROUNDS rounds (default 3), CADENCE_BETTING_SECONDS (default 45: 2,000 bets need
 * some 20 s on this 2-core box).
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RoundRecord } from '@pyb/core';
import { type Ctx, walletTransaction } from '@pyb/core/use-cases';
import { installLocalCadence } from '@pyb/dev/cadence';
import { provisionOperator } from '@pyb/ops/provision';
import { createTables, localClientConfig, startDynamoDbLocal, tableNames } from '@pyb/store-dynamodb/local';
import { localTimeStampAuthorityIn } from '@pyb/timestamp/local-identity';
import { startTimeStampServer } from '@pyb/timestamp/server';
import autocannon from 'autocannon';
import { HAND_WRITTEN, writeDocSection } from './doc-section';

const BETTORS = Number(process.env.CADENCE_BETTORS ?? 2_000);
const ROUNDS = Number(process.env.CADENCE_ROUNDS ?? 3);
const BETTING_SECONDS = Number(process.env.CADENCE_BETTING_SECONDS ?? 45);
const PAUSE_SECONDS = 3;
const CONNECTIONS = 32;
const OPERATOR = 'op-cadence-bench';
const PREFIX = `bench-cadence-${process.pid}-`;
const STAKE = 5_000; // the full table's minimum

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (a?: string, b?: string) => (a && b ? Date.parse(b) - Date.parse(a) : Number.NaN);

interface RoundFigures {
  round: RoundRecord;
  accepted: number;
  refused: Record<string, number>;
  betsSeconds: number;
}

export async function run(): Promise<void> {
  process.env.LOG_LEVEL ??= 'SILENT';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dynamodb = await startDynamoDbLocal();
  const keysDir = mkdtempSync(join(tmpdir(), 'pyb-bench-cadence-'));
  const admin = new DynamoDBClient(localClientConfig(dynamodb.endpoint));
  await createTables(admin, tableNames(PREFIX));
  admin.destroy();
  // The local TSA, as ./scripts/dev runs it: every head naming a beacon round is anchored before it is out.
  const tsa = await localTimeStampAuthorityIn(join(keysDir, 'tsa'), { clock: { now: () => new Date() } });
  const tsaServer = await startTimeStampServer(tsa, { port: 0 });
  const { buildContext, useCases } = await import('@pyb/functions/context');
  const { startLocalServer } = await import('@pyb/dev/local-server');
  const { keysOf } = await import('@pyb/functions/keys');
  const { queueOf } = await import('@pyb/functions/queue');
  const context = buildContext({
    DYNAMODB_ENDPOINT: dynamodb.endpoint,
    TABLE_PREFIX: PREFIX,
    KEY_SERVICE: 'local',
    LOCAL_KEYS_DIR: keysDir,
    // The dev stack's beacon: 1-second rounds, the least margin the core accepts (5 s).
    LOCAL_BEACON_PERIOD: '1',
    BEACON_MARGIN_SECONDS: '5',
    TSA_URLS: tsaServer.url,
    TSA_CERTS: join(keysDir, 'tsa', 'tsa.pem'),
    TSA_WINDOW_MS: '200',
  });
  const runner = installLocalCadence(context);
  const server = await startLocalServer({ port: 0, host: '127.0.0.1', context });
  const issued = await provisionOperator(context.principals, context.clock, {
    operatorId: OPERATOR,
    roles: ['admin', 'operator'],
    label: 'bench cadence',
  });
  const key = (role: string) => issued.find((k) => k.role === role)!.key;
  const api = async (method: 'GET' | 'POST', path: string, role: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key(role)}`,
        ...(method === 'POST' && { 'idempotency-key': randomUUID(), 'content-type': 'application/json' }),
      },
      ...(method === 'POST' && { body: JSON.stringify(body ?? {}) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const setup: Ctx = useCases(context, keysOf(context), { queue: queueOf(context) });
  const players = Array.from({ length: BETTORS }, (_, i) => `b-${i}`);
  const actor = { operatorId: OPERATOR, role: 'operator' as const, supervises: [] };
  for (let i = 0; i < players.length; i += 50)
    await Promise.all(
      players.slice(i, i + 50).map((playerId) =>
        walletTransaction(setup, actor, {
          playerId,
          type: 'CREDIT',
          amount: 10_000_000,
          currency: 'EUR',
          idempotencyKey: 'fund',
        }),
      ),
    );

  console.error(`cadence: ${BETTORS} players funded`);
  const table = await api('POST', '/v1/tables', 'admin', { name: 'Bench cadence', variant: 'full' });
  const tableId = table.tableId as string;
  await api('POST', `/v1/tables/${tableId}/shoes`, 'admin');
  await api('POST', `/v1/tables/${tableId}/cadence`, 'operator', {
    action: 'start',
    cadence: { bettingSeconds: BETTING_SECONDS, pauseSeconds: PAUSE_SECONDS, nextShoe: false },
  });

  const figures: RoundFigures[] = [];
  let last: string | undefined;
  while (figures.length < ROUNDS) {
    const seen = await api('GET', `/v1/tables/${tableId}`, 'operator');
    const now = seen.openRoundId as string | null;
    if (seen.lock) throw new Error(`the table locked: ${JSON.stringify(seen.lock)}`);
    if (!now || now === last) {
      await sleep(50);
      continue;
    }
    last = now;
    // Every bettor bets once on this round, while it takes bets.
    let next = 0;
    const statuses: Record<string, number> = {};
    const t0 = performance.now();
    await new Promise<void>((done, fail) => {
      const instance = autocannon(
        {
          url: server.url,
          connections: CONNECTIONS,
          timeout: 120,
          duration: BETTING_SECONDS + 60,
          maxOverallRequests: BETTORS,
          requests: [
            {
              setupRequest: (request) => {
                const i = next++;
                return {
                  ...request,
                  method: 'POST',
                  path: `/v1/rounds/${now}/bets`,
                  headers: {
                    authorization: `Bearer ${key('operator')}`,
                    'content-type': 'application/json',
                    'idempotency-key': randomUUID(),
                  },
                  body: JSON.stringify({
                    playerId: players[i % BETTORS],
                    bets: [{ type: i % 2 ? 'BANKER' : 'PLAYER', amount: STAKE }],
                    ...(i < 14 && { seat: i + 1 }),
                  }),
                };
              },
            },
          ],
        },
        (error) => (error ? fail(error) : done()),
      );
      instance.on('response', (_c, status) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
    });
    const betsSeconds = (performance.now() - t0) / 1000;
    console.error(
      `cadence: round ${figures.length + 1}: ${JSON.stringify(statuses)} in ${betsSeconds.toFixed(1)} s`,
    );
    const { '201': created = 0, '200': ok = 0, ...refused } = statuses;
    figures.push({ round: { roundId: now } as RoundRecord, accepted: created + ok, refused, betsSeconds });
  }
  // The round after the last one measured opens (its clock is the last measure), then the cadence stops.
  let after: string | null = null;
  while (!after || after === last) {
    await sleep(50);
    after = (await api('GET', `/v1/tables/${tableId}`, 'operator')).openRoundId as string | null;
  }
  await api('POST', `/v1/tables/${tableId}/cadence`, 'operator', { action: 'pause' });
  await runner.idle();
  const stored = async (roundId: string) => (await context.store.get('round', { roundId }))!;
  for (const f of figures) f.round = await stored(f.round.roundId);
  const rounds = [...figures.map((f) => f.round), await stored(after)];
  const rows: string[] = [];
  for (const f of figures) {
    const r = f.round;
    const next = rounds.find((g) => g.tableRound === r.tableRound + 1);
    const late = next ? ms(r.settledAt, next.openedAt) - PAUSE_SECONDS * 1000 : Number.NaN;
    rows.push(
      [
        r.tableRound,
        `${f.accepted.toLocaleString('en')} / ${
          Object.entries(f.refused)
            .map(([s, n]) => `${n} × ${s}`)
            .join(', ') || 0
        }`,
        seconds(f.betsSeconds * 1000),
        seconds(ms(r.closesAt, r.closedAt)),
        seconds(ms(r.closedAt, r.dealtAt)),
        seconds(ms(r.dealtAt, r.settledAt)),
        next ? (Date.parse(r.settledAt!) < Date.parse(next.openedAt) ? 'yes' : 'NO') : '–',
        next ? seconds(late) : '–',
        next ? seconds(ms(r.openedAt, next.openedAt)) : '–',
      ].join(' | '),
    );
  }
  const heading = '## A table that runs itself, with a crowd (local cadence)';
  const text = [
    heading,
    '',
    `\`pnpm bench cadence\` (bench/cadence.ts): one full table on its cadence (${BETTING_SECONDS} s of bets, ${PAUSE_SECONDS} s of pause; the cadence state machine's definition run by aws-local-stepfunctions on the real clock, as \`./scripts/dev\` runs it), the HTTP handlers on DynamoDB Local, the in-process settlement queue (50 positions a batch); ${BETTORS.toLocaleString('en')} players each bet once on every round while it takes bets, through ${CONNECTIONS} connections. Load average ${loadavg()[0]!.toFixed(1)}, Node ${process.version}. Times from the rounds as stored.`,
    '',
    '| round | bets accepted / refused | bets took | "no va más" after closesAt | deal (beacon wait) | settlement | settled before the next opened | next opened after settled + pause | round to round |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    '',
    HAND_WRITTEN,
    '',
  ].join('\n');
  console.log(text);
  if (!process.argv.includes('--no-write')) writeDocSection(heading, text);
  await server.close();
  context.doc.destroy();
  await dynamodb.stop();
  await tsaServer.close();
  rmSync(keysDir, { recursive: true, force: true });
}
