import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVED_DOCUMENTS } from '@pyb/functions/documents';
import { type BuildOptions, build, buildSync, type Metafile } from 'esbuild';

// No aws-cdk-lib here: bench/bundles.ts builds with these options without loading the CDK.

export type { Metafile };

/** The repository root (infra/src/ -> ../..). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The Node version the bundles target; keep in step with the Lambda runtime in the stack. */
export const NODE_TARGET = 'node22';

/** The file Lambda loads: `.mjs` so the runtime treats the bundle as ESM without a package.json. */
export const BUNDLE_FILE = 'index.mjs';
export const LAMBDA_HANDLER = 'index.handler';

/**
 * Set in every Lambda bundle at build time (esbuild `define`): the composition's dev-only adapters —
 * the local key service, the local beacon, the in-process settlement and outbox queues with their
 * consumers, the recording close-deadline adapter, the local feed and archive folders — sit behind
 * `process.env.PYB_LAMBDA_BUNDLE === '1'` tests, so esbuild drops them from the bundles (a Lambda never
 * takes those branches: it runs on KMS, drand, SQS, EventBridge Scheduler and S3). Unbundled (the local
 * stack, tests) the variable is unset and the same code picks them from the environment as before.
 */
export const LAMBDA_BUNDLE_DEFINE = { 'process.env.PYB_LAMBDA_BUNDLE': '"1"' } as const;

/**
 * The defines of one handler's bundle: LAMBDA_BUNDLE_DEFINE, and for the Meta endpoints
 * (functions/src/documents.ts) the document they serve, rendered now as `process.env.PYB_SERVED_DOCUMENT`:
 * a pure function of the contracts, so rendering it at build time serves the same bytes and the bundle's
 * cold start parses no schema (functions/src/served-document.ts).
 */
export function bundleDefines(entry: string): Record<string, string> {
  const handler = basename(dirname(entry));
  const document = Object.hasOwn(SERVED_DOCUMENTS, handler)
    ? SERVED_DOCUMENTS[handler as keyof typeof SERVED_DOCUMENTS]()
    : undefined;
  return document === undefined
    ? { ...LAMBDA_BUNDLE_DEFINE }
    : {
        ...LAMBDA_BUNDLE_DEFINE,
        'process.env.PYB_SERVED_DOCUMENT': JSON.stringify(JSON.stringify(document)),
      };
}

/** `functions/<handler>/handler.ts` for a routes.ts entry. */
export function handlerEntry(handler: string, root = REPO_ROOT): string {
  return join(root, 'functions', handler, 'handler.ts');
}

/**
 * The esbuild options of every Lambda bundle. One definition, used by the CDK app and by
 * bench/bundles.ts, so the sizes and cold starts we measure are those of what we deploy.
 *
 * - ESM, minified, tree-shaken; `module` before `main` so packages with an ESM build (the AWS SDK v3
 *   clients, middy, zod) are shaken as ESM.
 * - The AWS SDK is bundled, not taken from the runtime: the modular v3 clients we pin are the ones we
 *   tested, and a bundled client avoids the runtime's full SDK on the module path.
 * - External source maps without sources content (stack traces only need the mappings; Lambda loads
 *   them because the stack sets NODE_OPTIONS=--enable-source-maps).
 * - A `require` made from `import.meta.url`, for the few CommonJS dependencies that call require()
 *   inside an ESM bundle.
 * - `bundleDefines`: the dev-only adapters are not in the bundle; the Meta endpoints' documents are
 *   rendered at build time.
 * - Code splitting: what a handler loads with `import()` on first use (the beacon's BLS curve, the
 *   Secrets Manager, SQS and KMS clients where not every request needs them) goes to a chunk of its
 *   own next to `index.mjs`, so a cold start neither parses nor evaluates it until it is used — in
 *   one file, esbuild would defer only the evaluation, and parsing the bytes is most of an import
 *   (docs/benchmarks.md, "Lambda bundles and cold start").
 */
export function lambdaBuildOptions(entry: string, outdir: string): BuildOptions {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: { index: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: NODE_TARGET,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: 'external',
    sourcesContent: false,
    legalComments: 'none',
    external: [],
    define: bundleDefines(entry),
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    banner: {
      js: "import{createRequire as __pybCreateRequire}from'node:module';const require=__pybCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}

/**
 * Bundles one handler entry into `outdir` (index.mjs + index.mjs.map), synchronously (CDK bundling).
 *
 * With `PYB_BUNDLE_CACHE=<dir>` (scripts/ci-synth sets it for its two CLI synths, one folder per run),
 * a bundle whose options and every input file esbuild read are unchanged is copied from the folder
 * instead of rebuilt: the CLI runs the app in a new process per synth and the assets are hashed by
 * output, so the CDK itself cannot reuse one synth's bundles in the next. Unset: always built.
 */
export function bundleHandlerSync(entry: string, outdir: string): void {
  const cache = process.env.PYB_BUNDLE_CACHE;
  const options = lambdaBuildOptions(entry, outdir);
  if (!cache) {
    buildSync(options);
    return;
  }
  const { outdir: _, ...key } = options;
  const slot = join(cache, sha256(JSON.stringify(key)));
  const recorded = join(slot, 'inputs.json');
  if (existsSync(recorded)) {
    const inputs: Record<string, string> = JSON.parse(readFileSync(recorded, 'utf8'));
    if (Object.entries(inputs).every(([file, hash]) => fileHash(file) === hash)) {
      cpSync(join(slot, 'out'), outdir, { recursive: true });
      return;
    }
  }
  const { metafile } = buildSync({ ...options, metafile: true });
  const inputs = Object.fromEntries(
    Object.keys(metafile.inputs).map((file) => [file, fileHash(file)] as const),
  );
  rmSync(slot, { recursive: true, force: true });
  mkdirSync(slot, { recursive: true });
  cpSync(outdir, join(slot, 'out'), { recursive: true });
  writeFileSync(recorded, JSON.stringify(inputs));
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
/** An input's hash (metafile paths are relative to REPO_ROOT); a file gone since is a miss. */
const fileHash = (file: string): string | undefined => {
  const path = join(REPO_ROOT, file);
  return existsSync(path) ? sha256(readFileSync(path)) : undefined;
};

/**
 * The output files an import of index.mjs loads: itself and the chunks it imports statically,
 * transitively — what a cold start parses (the chunks behind `import()` are loaded on first use).
 */
export function initialOutputs(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((o) => o.endsWith(`/${BUNDLE_FILE}`));
  if (!entry) throw new Error(`no ${BUNDLE_FILE} in the metafile`);
  const seen = new Set<string>();
  const walk = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const i of outputs[o]?.imports ?? [])
      if (i.kind === 'import-statement' && outputs[i.path]) walk(i.path);
  };
  walk(entry);
  return [...seen];
}

/**
 * The bytes each source file contributes to `outputs` (by default every JavaScript file of the bundle,
 * the chunks loaded on first use included), from esbuild's metafile; a file whose every export was
 * shaken off is listed with 0. What the bundle tests and bench/bundles.ts read a bundle's contents from.
 */
export function inputBytes(
  metafile: Metafile,
  outputs: readonly string[] = Object.keys(metafile.outputs).filter((o) => o.endsWith('.mjs')),
): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const o of outputs)
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[o]?.inputs ?? {}))
      bytes.set(input, (bytes.get(input) ?? 0) + bytesInOutput);
  return bytes;
}

/** The same bundle, with esbuild's metafile (which input contributed how many bytes). */
export async function bundleHandlerWithMetafile(entry: string, outdir: string): Promise<Metafile> {
  const { metafile } = await build({ ...lambdaBuildOptions(entry, outdir), metafile: true });
  return metafile;
}
