/**
 * Lambda bundle budget: bundles every handler of functions/src/routes.ts exactly as the CDK app does
 * (the same esbuild options, infra/src/esbuild-options.ts), then reports each bundle's size and its
 * cold-start init time — the time a fresh `node` process takes to import the bundle, median of
 * several runs, without and with `--enable-source-maps` (the deployed functions set it).
 *
 *   pnpm bench bundles                      (or: node_modules/.bin/tsx bench/bundles.ts)
 *   node_modules/.bin/tsx bench/bundles.ts --runs=7 --no-write
 *
 * Writes the `## Lambda bundles and cold start` section of docs/benchmarks.md (other sections are
 * left as they are). Numbers are for this machine and Node version; Lambda's arm64 cores differ, the
 * ratios between functions do not much.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { ROUTES } from '../functions/src/routes';
import {
  BUNDLE_FILE,
  bundleHandlerWithMetafile,
  handlerEntry,
  type Metafile,
} from '../infra/src/esbuild-options';
import { BENCHMARKS_DOC, writeDocSection } from './doc-section';

const SECTION = '## Lambda bundles and cold start';
const DOC = BENCHMARKS_DOC;

interface Row {
  handler: string;
  bytes: number;
  zipBytes: number;
  mapBytes: number;
  initMs: number;
  initMapsMs: number;
  topPackages: Array<[string, number]>;
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

/** Import time of `file` in a fresh Node process: module loading and top-level evaluation. */
function importMs(file: string, sourceMaps: boolean): number {
  const script =
    'const t=performance.now();await import(process.argv.at(-1));' +
    'process.stdout.write(String(performance.now()-t));process.exit(0)';
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
  return Number(out);
}

/** Output bytes per npm package (or workspace package) from esbuild's metafile. */
function packagesBySize(metafile: Metafile): Array<[string, number]> {
  const sizes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = input.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
      const name = m ? m[1]! : input.startsWith('packages/') ? `@pyb/${input.split('/')[1]}` : 'functions';
      sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

async function measure(handler: string, outRoot: string, runs: number): Promise<Row> {
  const outdir = join(outRoot, handler);
  mkdirSync(outdir, { recursive: true });
  const metafile = await bundleHandlerWithMetafile(handlerEntry(handler), outdir);
  const file = join(outdir, BUNDLE_FILE);
  const map = `${file}.map`;
  importMs(file, false); // warm the file cache; not counted
  const plain: number[] = [];
  const withMaps: number[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(importMs(file, false));
    withMaps.push(importMs(file, true));
  }
  return {
    handler,
    bytes: statSync(file).size,
    // The deployment zip holds the bundle and its map, deflated.
    zipBytes: deflateRawSync(readFileSync(file)).length + deflateRawSync(readFileSync(map)).length,
    mapBytes: statSync(map).size,
    initMs: median(plain),
    initMapsMs: median(withMaps),
    topPackages: packagesBySize(metafile).slice(0, 3),
  };
}

const kib = (n: number) => (n / 1024).toFixed(0);
const ms = (n: number) => n.toFixed(1);

function section(rows: Row[], missing: string[], failed: string[], runs: number): string {
  const lines = [
    SECTION,
    '',
    `Measured by \`bench/bundles.ts\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ` +
      `${process.arch}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores). Each handler ` +
      'is bundled with the options the CDK app deploys (`infra/src/esbuild-options.ts`: ESM, minified, ' +
      'node22, AWS SDK v3 clients bundled, external source map). *Init* is the time a fresh `node` ' +
      `process takes to import the bundle (load + top-level evaluation), median of ${runs} runs; ` +
      'Lambda adds its runtime bootstrap on top and runs on other cores, so read the columns as ratios.',
    '',
    '| function | bundle KiB | zip KiB | map KiB | init ms | init ms, source maps on | largest packages (KiB) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const top = r.topPackages.map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', ');
    lines.push(
      `| ${r.handler} | ${kib(r.bytes)} | ${kib(r.zipBytes)} | ${kib(r.mapBytes)} | ${ms(r.initMs)} | ` +
        `${ms(r.initMapsMs)} | ${top} |`,
    );
  }
  if (rows.length > 0) {
    const total = rows.reduce((sum, r) => sum + r.bytes, 0);
    const biggest = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const smallest = rows.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    const slowest = rows.reduce((a, b) => (b.initMs > a.initMs ? b : a));
    const mapsCost = median(rows.map((r) => r.initMapsMs / r.initMs));
    lines.push(
      '',
      `${rows.length} bundles, ${kib(total)} KiB in all. Largest: ${biggest.handler} (${kib(biggest.bytes)} KiB, ` +
        `${(biggest.bytes / smallest.bytes).toFixed(1)}× ${smallest.handler}). Slowest import: ` +
        `${slowest.handler} (${ms(slowest.initMs)} ms). Turning source maps on multiplies init by ` +
        `${mapsCost.toFixed(2)} (median over functions).`,
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
  const runs = Number(arg('--runs') ?? 7);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  const present = ROUTES.filter((r) => existsSync(handlerEntry(r.handler))).map((r) => r.handler);
  const missing = ROUTES.map((r) => r.handler).filter((h) => !present.includes(h));
  const outRoot = mkdtempSync(join(tmpdir(), 'pyb-bundles-'));
  const rows: Row[] = [];
  const failed: string[] = [];
  try {
    for (const handler of present) {
      let row: Row;
      try {
        row = await measure(handler, outRoot, runs);
      } catch (error) {
        // Keep measuring the others; the section lists what did not build.
        failed.push(handler);
        console.error(`${handler}: ${(error as Error).message.split('\n')[0]}`);
        continue;
      }
      rows.push(row);
      console.log(
        `${handler.padEnd(20)} ${kib(row.bytes).padStart(5)} KiB  zip ${kib(row.zipBytes).padStart(4)} KiB  ` +
          `init ${ms(row.initMs).padStart(6)} ms  (source maps ${ms(row.initMapsMs)} ms)`,
      );
    }
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
  const text = section(rows, missing, failed, runs);
  if (process.argv.includes('--no-write')) console.log(`\n${text}`);
  else {
    writeDocSection(SECTION, text);
    console.log(`\nwrote "${SECTION}" in ${DOC}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
