import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { bundleHandlerSync, handlerEntry, NODE_TARGET, REPO_ROOT } from './esbuild-options';

export { BUNDLE_FILE, handlerEntry, LAMBDA_HANDLER, NODE_TARGET, REPO_ROOT } from './esbuild-options';

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
    /** Files shipped beside the bundle: path in the package → file where the CDK runs. */
    readonly files: Record<string, string> = {},
  ) {}

  tryBundle(outputDir: string): boolean {
    bundleHandlerSync(this.entry, outputDir);
    for (const [to, from] of Object.entries(this.files)) {
      mkdirSync(dirname(join(outputDir, to)), { recursive: true });
      copyFileSync(from, join(outputDir, to));
    }
    return true;
  }
}

/** The deployment package of one handler: its esbuild bundle (and `files` beside it), hashed by output. */
export function bundledHandlerCode(handler: string, files: Record<string, string> = {}): lambda.Code {
  const entry = handlerEntry(handler);
  if (!existsSync(entry)) {
    throw new Error(`routes.ts names handler '${handler}' but ${entry} does not exist`);
  }
  return lambda.Code.fromAsset(join(REPO_ROOT, 'functions', handler), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      local: new EsbuildLocalBundling(entry, NODE_TARGET, files),
      // Never pulled: local bundling above either succeeds or throws. The CDK requires an image.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
    },
  });
}
