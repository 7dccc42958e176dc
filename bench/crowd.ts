/**
 * #11's crowd at full size: test/e2e/crowd.test.ts run with CROWD_PLAYERS=2000 (the suite runs 200 to
 * keep CI short). The same file, so the same assertions: every bet accepted once through 32
 * connections, no transaction retried for contention, no 5xx, the settlement fanned out in batches,
 * every position paid exactly once, every wallet equal to its ledger. The test hands back how long the
 * bets and the settlement took (CROWD_REPORT); this writes them with the machine's load.
 *
 *   pnpm bench crowd                       (or: node_modules/.bin/tsx bench/crowd.ts)
 *   CROWD_PLAYERS=300 pnpm bench crowd -- --no-write     (a short smoke run, prints the section)
 *
 * Writes the `## Crowd (2,000 players, the e2e assertions)` section of docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeDocSection } from './doc-section';

const SECTION = '## Crowd (2,000 players, the e2e assertions)';
const ROOT = resolve(import.meta.dirname, '..');

interface CrowdReport {
  players: number;
  connections: number;
  betsMs: number;
  settleMs: number;
}

export async function run(): Promise<void> {
  const players = Number(process.env.CROWD_PLAYERS ?? 2_000);
  const dir = mkdtempSync(join(tmpdir(), 'pyb-bench-crowd-'));
  const reportFile = join(dir, 'crowd.json');
  const startLoad = loadavg()[0]!;
  const from = performance.now();
  const vitest = spawnSync(
    join(ROOT, 'node_modules/.bin/vitest'),
    ['run', '--project', 'dynamodb', 'test/e2e/crowd.test.ts'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, CROWD_PLAYERS: String(players), CROWD_REPORT: reportFile },
    },
  );
  const wallMs = performance.now() - from;
  if (vitest.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the crowd of ${players} failed its assertions (vitest exit ${vitest.status})`);
  }
  const r = JSON.parse(readFileSync(reportFile, 'utf8')) as CrowdReport;
  rmSync(dir, { recursive: true, force: true });
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const text =
    `${SECTION}\n\n` +
    `\`pnpm bench crowd\` (bench/crowd.ts) runs test/e2e/crowd.test.ts with ${r.players.toLocaleString('en')} players ` +
    '(the suite runs 200): each funded, then each sends one bet at once over HTTP through ' +
    `${r.connections} connections to the local server on DynamoDB Local (14 take the seats, the others stand), ` +
    'then one resolve and the settlement queue (in-process adapter, batches of 50). Passed: every bet ' +
    'accepted once, no transaction retried or canceled, no 5xx, every position paid exactly once, every ' +
    'wallet equal to its ledger. Times are wall clock from the test (not asserted there).\n\n' +
    '| players | connections | bets sent in | bets/s | resolve → SETTLED | whole run (DynamoDB Local start, funding, checks) | machine |\n' +
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- |\n' +
    `| ${r.players.toLocaleString('en')} | ${r.connections} | ${s(r.betsMs)} s | ${Math.round(r.players / (r.betsMs / 1000))} | ` +
    `${s(r.settleMs)} s | ${s(wallMs)} s | ${cpus().length} cores, load ${startLoad.toFixed(1)} at start, Node ${process.version} |\n`;
  if (process.argv.includes('--no-write')) console.log(text);
  else writeDocSection(SECTION, text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
