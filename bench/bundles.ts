/**
 * Lambda bundle budget: bundles every handler of functions/src/routes.ts exactly as the CDK app does
 * (the same esbuild options, infra/src/esbuild-options.ts), then reports each bundle's size and its
 * cold-start init time — the time a fresh `node` process takes to import the bundle, median of
 * several runs, without and with `--enable-source-maps` (the deployed functions set it) — beside the
 * yardstick: a trivial handler that imports only the DynamoDB client (bench/baseline/handler.ts),
 * bundled the same way. The runs are interleaved (each round imports the yardstick, then every
 * function), so a busy machine slows all of them alike and the ratio stays meaningful.
 *
 *   scripts/node22 ./node_modules/.bin/tsx bench/run.ts bundles     (Node 22, as Lambda)
 *   scripts/node22 ./node_modules/.bin/tsx bench/bundles.ts --runs=21 --no-write
 *
 * Bundles are code-split (infra/src/esbuild-options.ts): *initial* bytes are `index.mjs` and the
 * chunks it imports statically — what an import parses; the chunks loaded with `import()` on first
 * use (the beacon's curve, the KMS, SQS, Scheduler and Secrets Manager clients, the SDK's rarer
 * credential providers) are counted in *all* only.
 *
 * Rewrites only the generated block of the `## Lambda bundles and cold start` section of
 * docs/benchmarks.md (between its markers, bench/doc-section.ts `writeDocBlock`): prose around the
 * block and the other sections are left as they are. Numbers are for this machine and Node version;
 * Lambda's arm64 cores differ, the ratios between functions do not much.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { ROUTES } from '@pyb/functions/routes';
import {
  BUNDLE_FILE,
  bundleHandlerWithMetafile,
  handlerEntry,
  initialOutputs,
  inputBytes,
  type Metafile,
  REPO_ROOT,
} from '@pyb/infra/esbuild-options';
import { BENCHMARKS_DOC, writeDocBlock } from './doc-section';

const SECTION = '## Lambda bundles and cold start';
/** The generated block's name in its markers. */
const BLOCK = 'bench/bundles.ts';
/** The yardstick: a handler that imports only the DynamoDB client. */
const BASELINE = 'baseline (DynamoDB client only)';
const BASELINE_ENTRY = join(REPO_ROOT, 'bench', 'baseline', 'handler.ts');
/** For reference: get-wallet with the whole composition root, as every function was built before. */
const WHOLE_ROOT = 'get-wallet, whole composition root (before)';
const WHOLE_ROOT_ENTRY = join(REPO_ROOT, 'bench', 'baseline', 'whole-root.ts');
/** Builds one endpoint's schemas after the import: what a handler's first request adds (CPU time). */
const FIRST_USE_ENTRY = join(REPO_ROOT, 'bench', 'baseline', 'first-use.ts');
/** Issue #11's budget: every function imports in at most this multiple of the yardstick. */
const BUDGET = 1.3;
const DOC = BENCHMARKS_DOC;

interface Row {
  handler: string;
  /** index.mjs and the chunks it imports statically: what an import parses. */
  bytes: number;
  /** Every JavaScript file of the asset, the chunks loaded on first use included. */
  allBytes: number;
  zipBytes: number;
  mapBytes: number;
  initMs: number;
  initMapsMs: number;
  /** CPU time of the import. */
  cpuMs: number;
  /** initMs / the yardstick's initMs. */
  ratio: number;
  /** cpuMs / the yardstick's cpuMs. */
  cpuRatio: number;
  /** CPU time of building the endpoint's schemas on its first request (undefined for the reference rows). */
  firstUseMs: number | undefined;
  topPackages: Array<[string, number]>;
}

interface Built {
  handler: string;
  file: string;
  metafile: Metafile;
  plain: number[];
  cpu: number[];
  withMaps: number[];
  firstUse: number[];
}

/** `--name value` or `--name=value`. */
function arg(name: string): string | undefined {
  const inline = process.argv.find((a) => a.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Import of `file` in a fresh Node process (module loading and top-level evaluation): wall time, and
 * the CPU time the process spent on it (user + system), which a machine busy with other work inflates
 * much less than the wall time.
 */
function importMs(file: string, sourceMaps: boolean): { wall: number; cpu: number } {
  const script =
    'const c=process.cpuUsage();const t=performance.now();await import(process.argv.at(-1));' +
    'const u=process.cpuUsage(c);process.stdout.write(JSON.stringify({wall:performance.now()-t,' +
    'cpu:(u.user+u.system)/1000}));process.exit(0)';
  const out = execFileSync(
    process.execPath,
    [
      ...(sourceMaps ? ['--enable-source-maps'] : []),
      '--input-type=module',
      '-e',
      script,
      pathToFileURL(file).href,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );
  return JSON.parse(out) as { wall: number; cpu: number };
}

/** CPU time of building `handler`'s schemas in a fresh process, after importing the probe bundle. */
function firstUseMs(probe: string, handler: string): number {
  const script =
    'const m=await import(process.argv.at(-2));const c=process.cpuUsage();m.buildSchemas(process.argv.at(-1));' +
    'const u=process.cpuUsage(c);process.stdout.write(String((u.user+u.system)/1000));process.exit(0)';
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', script, pathToFileURL(probe).href, handler],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );
  return Number(out);
}

/** Output bytes per npm package (or workspace package) in the files an import loads, from esbuild's metafile. */
function packagesBySize(metafile: Metafile): Array<[string, number]> {
  const sizes = new Map<string, number>();
  for (const [input, bytes] of inputBytes(metafile, initialOutputs(metafile))) {
    const m = input.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
    const name = m ? m[1]! : input.startsWith('packages/') ? `@pyb/${input.split('/')[1]}` : 'functions';
    sizes.set(name, (sizes.get(name) ?? 0) + bytes);
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

async function build(handler: string, entry: string, outRoot: string): Promise<Built> {
  const outdir = join(outRoot, handler.replace(/\W+/g, '-'));
  mkdirSync(outdir, { recursive: true });
  const metafile = await bundleHandlerWithMetafile(entry, outdir);
  const file = join(outdir, BUNDLE_FILE);
  importMs(file, false); // warm the file cache; not counted
  return { handler, file, metafile, plain: [], cpu: [], withMaps: [], firstUse: [] };
}

function row(b: Built, baseline: { wall: number; cpu: number }): Row {
  const initMs = median(b.plain);
  // Output paths in the metafile are relative to the working directory esbuild ran in (REPO_ROOT).
  const path = (o: string) => join(REPO_ROOT, o);
  const js = Object.keys(b.metafile.outputs).filter((o) => o.endsWith('.mjs'));
  const files = js.flatMap((o) => [path(o), `${path(o)}.map`]);
  return {
    handler: b.handler,
    bytes: initialOutputs(b.metafile).reduce((sum, o) => sum + statSync(path(o)).size, 0),
    allBytes: js.reduce((sum, o) => sum + statSync(path(o)).size, 0),
    // The deployment zip holds every file of the asset (chunks and maps), deflated.
    zipBytes: files.reduce((sum, f) => sum + deflateRawSync(readFileSync(f)).length, 0),
    mapBytes: js.reduce((sum, o) => sum + statSync(`${path(o)}.map`).size, 0),
    initMs,
    initMapsMs: median(b.withMaps),
    cpuMs: median(b.cpu),
    ratio: initMs / baseline.wall,
    cpuRatio: median(b.cpu) / baseline.cpu,
    firstUseMs: b.firstUse.length > 0 ? median(b.firstUse) : undefined,
    topPackages: packagesBySize(b.metafile).slice(0, 3),
  };
}

const kib = (n: number) => (n / 1024).toFixed(0);
const ms = (n: number) => n.toFixed(1);

function section(
  baseline: Row,
  before: Row,
  rows: Row[],
  missing: string[],
  failed: string[],
  runs: number,
): string {
  const lines = [
    `Measured by \`bench/bundles.ts\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: Node ${process.version}, ` +
      `${process.arch}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores, load average ` +
      `${loadavg()[0]!.toFixed(1)} when it finished). Each handler ` +
      'is bundled with the options the CDK app deploys (`infra/src/esbuild-options.ts`: ESM, minified, ' +
      'node22, AWS SDK v3 clients bundled, code splitting, external source maps). *Init* is the time a ' +
      'fresh `node` process takes to import the bundle (load + top-level evaluation), median of ' +
      `${runs} interleaved runs (each run imports the yardstick, then every function); Lambda adds its ` +
      'runtime bootstrap on top and runs on other cores, so read the columns as ratios.',
    '',
    '*Initial KiB* is what an import parses: `index.mjs` and the chunks it imports statically; *all KiB* ' +
      'adds the chunks loaded with `import()` on first use (the BLS curve, the KMS, SQS, Scheduler and ' +
      "Secrets Manager clients, the SDK's rarer credential providers). The first row is the yardstick of " +
      'issue #11: a trivial handler importing only the DynamoDB client (`bench/baseline/handler.ts`), ' +
      `bundled the same way; *×* is each figure over the yardstick's, in the same run (budget: ≤ ${BUDGET}×). ` +
      'The second row, for reference, is get-wallet built as every function was before the composition ' +
      'root was split (`bench/baseline/whole-root.ts`). *CPU ms* is the CPU time the importing process ' +
      'spent (user + system), which other work on the machine inflates less than the wall time. *First ' +
      "request: its schemas* is the CPU time of building the endpoint's zod schemas on its first request " +
      '(`bench/baseline/first-use.ts`).',
    '',
    '| function | initial KiB | all KiB | zip KiB | map KiB | init ms | × | CPU ms | × (CPU) | first request: its schemas, CPU ms | init ms, source maps on | largest packages loaded at import (KiB) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of [baseline, before, ...rows]) {
    const top = r.topPackages.map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', ');
    const within = r === baseline || r === before ? '' : r.cpuRatio <= BUDGET ? '' : ' ⚠';
    lines.push(
      `| ${r.handler} | ${kib(r.bytes)} | ${kib(r.allBytes)} | ${kib(r.zipBytes)} | ${kib(r.mapBytes)} | ${ms(r.initMs)} | ` +
        `${r.ratio.toFixed(2)} | ${ms(r.cpuMs)} | ${r.cpuRatio.toFixed(2)}${within} | ` +
        `${r.firstUseMs === undefined ? '–' : ms(r.firstUseMs)} | ${ms(r.initMapsMs)} | ${top} |`,
    );
  }
  if (rows.length > 0) {
    const total = rows.reduce((sum, r) => sum + r.bytes, 0);
    const firstUse = rows.map((r) => r.firstUseMs ?? 0);
    const heaviest = rows.reduce((a, b) => ((b.firstUseMs ?? 0) > (a.firstUseMs ?? 0) ? b : a));
    const biggest = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const slowest = rows.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
    const over = rows.filter((r) => r.cpuRatio > BUDGET);
    const mapsCost = median(rows.map((r) => r.initMapsMs / r.initMs));
    lines.push(
      '',
      `${rows.length} bundles; loaded at import ${kib(total)} KiB in all (the yardstick ${kib(baseline.bytes)} KiB). ` +
        `Largest: ${biggest.handler} (${kib(biggest.bytes)} KiB at import, ${kib(biggest.allBytes)} KiB in all). ` +
        `Slowest import: ${slowest.handler} (${ms(slowest.cpuMs)} ms CPU). Turning source maps on multiplies ` +
        `init by ${mapsCost.toFixed(2)} (median over functions).`,
      '',
      `Against the yardstick (${ms(baseline.initMs)} ms, ${ms(baseline.cpuMs)} ms CPU): median ` +
        `${median(rows.map((r) => r.ratio)).toFixed(2)}× wall, ${median(rows.map((r) => r.cpuRatio)).toFixed(2)}× CPU; ` +
        `${rows.length - over.length} of ${rows.length} within ${BUDGET}× (CPU)` +
        (over.length > 0
          ? `; over it (⚠): ${over
              .sort((a, b) => b.cpuRatio - a.cpuRatio)
              .map((r) => `${r.handler} ${r.cpuRatio.toFixed(2)}×`)
              .join(', ')}.`
          : '.') +
        ` The whole composition root (the reference row) costs ${before.cpuRatio.toFixed(2)}× CPU.`,
      '',
      `On its first request a handler builds its own endpoint's schemas: median ${ms(median(firstUse))} ms ` +
        `CPU, largest ${heaviest.handler} ${ms(heaviest.firstUseMs ?? 0)} ms.`,
    );
  }
  if (missing.length > 0) {
    lines.push('', `Not measured (no \`functions/<handler>/handler.ts\` yet): ${missing.join(', ')}.`);
  }
  if (failed.length > 0) {
    lines.push('', `Did not bundle when measured (see the script's output): ${failed.join(', ')}.`);
  }
  return `${lines.join('\n')}\n`;
}

/** The suite entry for bench/run.ts (`pnpm bench bundles`). */
export async function run(): Promise<void> {
  const runs = Number(arg('--runs') ?? 21);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  const present = ROUTES.filter((r) => existsSync(handlerEntry(r.handler))).map((r) => r.handler);
  const missing = ROUTES.map((r) => r.handler).filter((h) => !present.includes(h));
  const outRoot = mkdtempSync(join(tmpdir(), 'pyb-bundles-'));
  const built: Built[] = [];
  const failed: string[] = [];
  let baseline: Row;
  let before: Row;
  let rows: Row[];
  try {
    const baselineBuilt = await build(BASELINE, BASELINE_ENTRY, outRoot);
    const beforeBuilt = await build(WHOLE_ROOT, WHOLE_ROOT_ENTRY, outRoot);
    const probe = (await build('first-use probe', FIRST_USE_ENTRY, outRoot)).file;
    for (const handler of present) {
      try {
        built.push(await build(handler, handlerEntry(handler), outRoot));
      } catch (error) {
        // Keep measuring the others; the section lists what did not build.
        failed.push(handler);
        console.error(`${handler}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    // Interleaved: each round imports the yardstick and then every function, once plain, once with maps.
    for (let i = 0; i < runs; i++) {
      for (const b of [baselineBuilt, beforeBuilt, ...built]) {
        const plain = importMs(b.file, false);
        b.plain.push(plain.wall);
        b.cpu.push(plain.cpu);
        b.withMaps.push(importMs(b.file, true).wall);
        if (b !== baselineBuilt && b !== beforeBuilt) b.firstUse.push(firstUseMs(probe, b.handler));
      }
      console.log(`round ${i + 1}/${runs}`);
    }
    const yardstick = { wall: median(baselineBuilt.plain), cpu: median(baselineBuilt.cpu) };
    baseline = row(baselineBuilt, yardstick);
    before = row(beforeBuilt, yardstick);
    rows = built.map((b) => row(b, yardstick));
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
  for (const r of [baseline, before, ...rows]) {
    console.log(
      `${r.handler.padEnd(32)} ${kib(r.bytes).padStart(5)} KiB (all ${kib(r.allBytes).padStart(5)})  zip ${kib(r.zipBytes).padStart(4)} KiB  ` +
        `init ${ms(r.initMs).padStart(6)} ms  ${r.ratio.toFixed(2)}×  cpu ${ms(r.cpuMs).padStart(6)} ms  ` +
        `${r.cpuRatio.toFixed(2)}×  (source maps ${ms(r.initMapsMs)} ms)`,
    );
  }
  const text = section(baseline, before, rows, missing, failed, runs);
  if (process.argv.includes('--no-write')) console.log(`\n${text}`);
  else {
    writeDocBlock(SECTION, BLOCK, text);
    console.log(`\nwrote the generated block of "${SECTION}" in ${DOC}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
