/**
 * Picks the feed-file adapter from the environment, like @pyb/archive does:
 *   FEED_BUCKET set -> S3FeedFiles on it
 *   otherwise       -> LocalFeedFiles in FEED_DIR (default .data/feed); refused in production
 */
import type { FeedFiles } from '@pyb/core';
import { LocalFeedFiles } from './local';
import { S3FeedFiles } from './s3';

export interface FeedFilesConfig {
  files: FeedFiles;
  description: string;
}

export function feedFilesFromEnv(env: Record<string, string | undefined> = process.env): FeedFilesConfig {
  const bucket = env.FEED_BUCKET;
  if (bucket) {
    return {
      files: new S3FeedFiles({ bucket, ...(env.AWS_REGION && { region: env.AWS_REGION }) }),
      description: `s3://${bucket}`,
    };
  }
  // A Lambda bundle holds no local folder adapter (infra/src/esbuild-options.ts, LAMBDA_BUNDLE_DEFINE).
  if (
    process.env.PYB_LAMBDA_BUNDLE === '1' ||
    env.NODE_ENV === 'production' ||
    env.AWS_LAMBDA_FUNCTION_NAME
  ) {
    throw new Error('the local feed folder is for development only: set FEED_BUCKET in production');
  } else {
    const dir = env.FEED_DIR ?? '.data/feed';
    return { files: new LocalFeedFiles(dir), description: `local folder ${dir}` };
  }
}
