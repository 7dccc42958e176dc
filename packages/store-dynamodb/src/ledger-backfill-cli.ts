/**
 * `./scripts/migrate-ledger`: the ledger backfill (./ledger-backfill.ts) as an operator runs it
 * against a deployed wallets table (docs/data-model.md, *Migration*).
 *
 *   TABLE_WALLETS=<name> AWS_REGION=... ./scripts/migrate-ledger --dry-run
 *   TABLE_WALLETS=<name> AWS_REGION=... ./scripts/migrate-ledger --state backfill.json
 *
 * With `--state FILE` the scan's position is saved after every page and a later run resumes from it
 * (`--restart` ignores it). Exit code 0 when no entry is left in the old layout and none conflicts,
 * 1 when conflicts were reported (nothing is written for them), 2 on a usage error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Presets, SingleBar } from 'cli-progress';
import type { Item } from './layout';
import { type BackfillProgress, backfillLedger } from './ledger-backfill';
import { localClientConfig } from './local/launcher';
import { tableNamesFromEnv } from './tables';

const USAGE = `usage: ./scripts/migrate-ledger [--dry-run] [--state FILE [--restart]] [--page-size N] [--max-pages N] [--no-progress]
  Moves wallet ledger entries written before the L#<seq> layout (docs/data-model.md, "Migration").
env: TABLE_WALLETS or TABLE_PREFIX (default pyb), DYNAMODB_ENDPOINT for DynamoDB Local, AWS_REGION/credentials otherwise`;

interface SavedState {
  table: string;
  cursor: Item | undefined;
  done: boolean;
  at: string;
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    options: {
      'dry-run': { type: 'boolean' },
      state: { type: 'string' },
      restart: { type: 'boolean' },
      'page-size': { type: 'string' },
      'max-pages': { type: 'string' },
      'no-progress': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });

export async function main(argv: string[], env = process.env): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const count = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!/^[0-9]+$/.test(text) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  let pageSize: number | undefined;
  let maxPages: number | undefined;
  try {
    pageSize = count('page-size', values['page-size']);
    maxPages = count('max-pages', values['max-pages']);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const table = tableNamesFromEnv(env).wallets;
  const dryRun = values['dry-run'] === true;
  const stateFile = values.state;
  let cursor: Item | undefined;
  if (stateFile && !values.restart && existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as SavedState;
    if (saved.table !== table) {
      console.error(
        `${stateFile} is the state of table ${saved.table}, not ${table} (--restart to start over)`,
      );
      return 2;
    }
    if (saved.done) {
      console.log(`${stateFile}: a previous run reached the end of ${table}; --restart to scan again`);
      return 0;
    }
    cursor = saved.cursor;
  }

  const client = new DynamoDBClient(env.DYNAMODB_ENDPOINT ? localClientConfig(env.DYNAMODB_ENDPOINT) : {});
  const doc = DynamoDBDocumentClient.from(client);
  try {
    // DynamoDB's item count is refreshed about every six hours: the bar's total is an estimate.
    const estimate =
      (await client.send(new DescribeTableCommand({ TableName: table }))).Table?.ItemCount ?? 0;
    const bar = values['no-progress']
      ? undefined
      : new SingleBar(
          {
            format:
              '{bar} {value}/{total} items scanned | old entries {found}, moved {migrated}, already moved {alreadyDone}, conflicts {conflicts}',
            etaBuffer: 20,
          },
          Presets.shades_classic,
        );
    bar?.start(Math.max(estimate, 1), 0, { found: 0, migrated: 0, alreadyDone: 0, conflicts: 0 });
    console.error(
      `${dryRun ? 'dry run on' : 'moving old ledger entries of'} ${table}${cursor ? ' (resumed)' : ''}`,
    );
    const result = await backfillLedger(doc, {
      table,
      dryRun,
      ...(pageSize !== undefined && { pageSize }),
      ...(maxPages !== undefined && { maxPages }),
      ...(cursor && { cursor }),
      onPage: (p: BackfillProgress) => {
        if (bar) {
          if (p.scanned > bar.getTotal()) bar.setTotal(p.scanned);
          bar.update(p.scanned, {
            found: p.found,
            migrated: p.migrated,
            alreadyDone: p.alreadyDone,
            conflicts: p.conflicts.length,
          });
        }
        if (stateFile && !dryRun) {
          const state: SavedState = { table, cursor: p.cursor, done: p.done, at: new Date().toISOString() };
          writeFileSync(stateFile, `${JSON.stringify(state)}\n`);
        }
      },
    });
    bar?.stop();
    for (const c of result.conflicts)
      console.error(`conflict: ${c.pk} ${c.sk} (seq ${String(c.seq)}): ${c.reason}`);
    console.log(
      JSON.stringify({
        table,
        dryRun,
        done: result.done,
        pages: result.pages,
        scanned: result.scanned,
        oldEntries: result.found,
        [dryRun ? 'wouldMove' : 'moved']: result.migrated,
        alreadyMoved: result.alreadyDone,
        conflicts: result.conflicts.length,
      }),
    );
    if (!result.done)
      console.error(
        `stopped before the end of the table${stateFile ? `; rerun to resume from ${stateFile}` : ''}`,
      );
    return result.conflicts.length > 0 ? 1 : 0;
  } finally {
    client.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exitCode = await main(process.argv.slice(2));
