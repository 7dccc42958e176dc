import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync } from 'esbuild';

/** The repository root (infra/src/ -> ../..). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The Node version the bundles target; keep in step with the Lambda runtime in the stack. */
export const NODE_TARGET = 'node22';

/** The file Lambda loads: `.mjs` so the runtime treats the bundle as ESM without a package.json. */
export const BUNDLE_FILE = 'index.mjs';
export const LAMBDA_HANDLER = 'index.handler';

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
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: 'external',
    sourcesContent: false,
    legalComments: 'none',
    external: [],
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    banner: {
      js: "import{createRequire as __pybCreateRequire}from'node:module';const require=__pybCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}

/**
 * Bundles in-process with the workspace's esbuild. NodejsFunction's own local bundling shells out to
 * `pnpm exec esbuild` from the repo root (it picks the runner from the lock file), which needs pnpm on
 * the PATH and esbuild as a root dependency — neither holds on a fresh clone or in CI — and otherwise
 * falls back to Docker. Calling esbuild's API needs neither.
 */
class EsbuildLocalBundling implements ILocalBundling {
  // Public fields: the CDK folds them into the asset cache key, so each entry bundles separately.
  constructor(
    readonly entry: string,
    readonly nodeTarget: string,
  ) {}

  tryBundle(outputDir: string): boolean {
    buildSync(lambdaBuildOptions(this.entry, outputDir));
    return true;
  }
}

/** The deployment package of one handler: its esbuild bundle, hashed by output. */
export function bundledHandlerCode(handler: string): lambda.Code {
  const entry = handlerEntry(handler);
  if (!existsSync(entry)) {
    throw new Error(`routes.ts names handler '${handler}' but ${entry} does not exist`);
  }
  return lambda.Code.fromAsset(join(REPO_ROOT, 'functions', handler), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      local: new EsbuildLocalBundling(entry, NODE_TARGET),
      // Never pulled: local bundling above either succeeds or throws. The CDK requires an image.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
    },
  });
}
