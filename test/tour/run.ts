/**
 * scripts/ci-tour: the README's tour and docs/api.md's whole shoe, run as written against
 * `./scripts/dev` — on free ports, with a fresh data folder (PYB_DEV_DATA) — so a doc that drifts
 * fails CI. The blocks run in order in one bash with `set -euo pipefail` (the same lines a reader
 * pastes; `.data/` is the fresh folder), each call's HTTP status is noted (a `curl` function adds a
 * --write-out to stderr), and each block's output must show its samples (markdown.ts). The tour
 * leaves nothing in the repo: `git status` is the same after it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Block, blocksOf, findings } from './markdown';

const ROOT = resolve(import.meta.dirname, '../..');
const TOURS: [doc: string, heading: string][] = [
  ['README.md', '## A short tour'],
  ['docs/api.md', '## A whole shoe in curl'],
];
const MARK = '@@pyb-tour-block';
const HTTP = '@@pyb-tour-http';
const START_TIMEOUT_MS = 300_000;
const TOUR_TIMEOUT_MS = 600_000;

const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/** The files git does not track (and does not ignore): what a tour could leave behind. */
const untracked = () =>
  execFileSync('git', ['ls-files', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });

/**
 * The environment of the stack and of the tour: real time for both. The tours' samples hold for the
 * day they run in (`date -u +%F`), and the server and the shell must read the same clock, so a
 * shifted test clock (PYB_CLOCK_START) is not passed on.
 */
const tourEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const { PYB_CLOCK_START: _shifted, ...env } = process.env;
  return { ...env, ...extra };
};

/**
 * The tour's "today" is one UTC day, from the demo's seeding to the last call: near 00:00 UTC (closer
 * than the start and the tours take on a busy machine, ~3 min), wait for the new day rather than cross it.
 */
const DAY_MARGIN_MS = 6 * 60_000;

async function oneUtcDay(): Promise<void> {
  const now = Date.now();
  const untilMidnight = 86_400_000 - (now % 86_400_000);
  if (untilMidnight > DAY_MARGIN_MS) return;
  console.log(
    `ci-tour: ${Math.ceil(untilMidnight / 1000)} s to 00:00 UTC: waiting, so the tour runs in one UTC day`,
  );
  await new Promise((r) => setTimeout(r, untilMidnight + 2_000));
}

async function startDev(data: string): Promise<ChildProcess> {
  const [port, dynamodb, wallet] = [await freePort(), await freePort(), await freePort()];
  const log = openSync(join(data, 'dev.log'), 'a');
  // Its own process group, so the stop reaches DynamoDB Local and the reference wallet too.
  const dev = spawn('./scripts/dev', [], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', log, log],
    env: tourEnv({
      PORT: String(port),
      DYNAMODB_PORT: String(dynamodb),
      WALLET_PORT: String(wallet),
      PYB_DEV_DATA: data,
    }),
  });
  closeSync(log);
  const started = Date.now();
  while (!existsSync(join(data, 'env.sh'))) {
    if (dev.exitCode !== null) throw new Error(`./scripts/dev exited ${dev.exitCode}:\n${devLog(data)}`);
    if (Date.now() - started > START_TIMEOUT_MS)
      throw new Error(`./scripts/dev did not start:\n${devLog(data)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(`ci-tour: ./scripts/dev up in ${Math.round((Date.now() - started) / 1000)} s (API :${port})`);
  return dev;
}

const devLog = (data: string) => {
  try {
    return readFileSync(join(data, 'dev.log'), 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '';
  }
};

async function stopDev(dev: ChildProcess): Promise<void> {
  if (dev.exitCode !== null || dev.pid === undefined) return;
  const exited = new Promise((r) => dev.once('exit', r));
  process.kill(-dev.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (dev.exitCode === null) process.kill(-dev.pid, 'SIGKILL');
}

/**
 * The commands of `./scripts/dev`'s start message (its `  curl …` and `  source …` lines, a `\` line
 * joined to the next), as one more block run after the tours: what it tells a reader to run must run.
 */
function startMessageBlock(data: string): Block {
  const lines = readFileSync(join(data, 'dev.log'), 'utf8').split('\n');
  const commands: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^ {2}(curl|source) /.test(lines[i]!)) continue;
    let command = lines[i]!.trim();
    while (command.endsWith('\\') && i + 1 < lines.length)
      command = `${command.slice(0, -1)} ${lines[++i]!.trim()}`;
    commands.push(command);
  }
  if (commands.length === 0)
    throw new Error(`./scripts/dev's start message shows no command:\n${devLog(data)}`);
  return {
    doc: 'the start message of ./scripts/dev',
    line: 0,
    code: commands.join('\n'),
    samples: [],
    refusals: new Set(),
  };
}

/** The blocks as one bash script, a marker before each (on stdout and stderr). */
function script(blocks: Block[], data: string): string {
  return [
    'set -euo pipefail',
    `curl() { command curl --write-out '%{stderr}${HTTP} %{http_code}\\n' "$@"; }`,
    ...blocks.flatMap((b, i) => [
      `printf '\\n${MARK} ${i} (${b.doc}:${b.line})\\n'; printf '\\n${MARK} ${i} (${b.doc}:${b.line})\\n' >&2`,
      b.code.replaceAll('.data/', `${data}/`),
    ]),
    `printf '\\n${MARK} end\\n'; printf '\\n${MARK} end\\n' >&2`,
  ].join('\n');
}

/** Stdout or stderr cut at the markers: the lines of each block. */
function byBlock(text: string, count: number): string[][] {
  const parts: string[][] = Array.from({ length: count }, () => []);
  let at = -1;
  for (const line of text.split('\n')) {
    const mark = line.startsWith(MARK) ? line.slice(MARK.length + 1) : undefined;
    if (mark !== undefined) at = mark === 'end' ? count : Number.parseInt(mark, 10);
    else if (at >= 0 && at < count) parts[at]!.push(line);
  }
  return parts;
}

function run(code: string, data: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    // TMPDIR: the walk's `cd "$(mktemp -d)"` lands in the data folder, removed with it.
    const bash = spawn('bash', ['-c', code], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: tourEnv({ TMPDIR: data }),
    });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    bash.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    const timer = setTimeout(() => bash.kill('SIGKILL'), TOUR_TIMEOUT_MS);
    bash.on('exit', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}

async function main(): Promise<number> {
  const blocks = TOURS.flatMap(([doc, heading]) =>
    blocksOf(readFileSync(join(ROOT, doc), 'utf8'), doc, heading),
  );
  const before = untracked();
  const data = mkdtempSync(join(tmpdir(), 'pyb-tour-'));
  let dev: ChildProcess | undefined;
  let keep = false;
  try {
    await oneUtcDay();
    dev = await startDev(data);
    blocks.push(startMessageBlock(data));
    const started = Date.now();
    const code = script(blocks, data);
    writeFileSync(join(data, 'tour.sh'), code);
    const result = await run(code, data);
    console.log(`\nci-tour: ${blocks.length} blocks ran in ${Math.round((Date.now() - started) / 1000)} s`);
    const outputs = byBlock(result.stdout, blocks.length);
    const statuses = byBlock(result.stderr, blocks.length).map((lines) =>
      lines.filter((l) => l.startsWith(HTTP)).map((l) => Number(l.slice(HTTP.length + 1))),
    );
    const marks = result.stdout.split('\n').filter((l) => l.startsWith(`${MARK} `));
    const reached =
      result.status === 0 ? blocks.length : Number.parseInt(marks.at(-1)?.slice(MARK.length + 1) ?? '0', 10);
    // A tour that stopped: what it stopped on, and the samples of the blocks that ran to their end.
    const found = blocks.slice(0, reached).flatMap((b, i) => findings(b, outputs[i]!, statuses[i]!));
    if (result.status !== 0) {
      const b = blocks[reached];
      found.unshift(
        `the tour stopped with exit ${result.status} in the block at ${b?.doc}:${b?.line} (its output above)`,
      );
    }
    const after = untracked();
    if (after !== before) found.push(`the tour left files in the repo:\n${after}`);
    if (found.length > 0) {
      console.error(`\nci-tour: ${found.length} finding(s):\n${found.map((f) => `  ${f}`).join('\n')}`);
      console.error(`ci-tour: the script it ran and ./scripts/dev's log are kept in ${data}`);
      keep = true;
      return 1;
    }
    console.log('ci-tour: every block ran and showed its samples');
    return 0;
  } catch (error) {
    console.error(`ci-tour: ${(error as Error).message}`);
    return 1;
  } finally {
    if (dev) await stopDev(dev);
    if (!keep) rmSync(data, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
