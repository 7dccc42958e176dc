/** The feed's file port of this process, from the environment (FEED_BUCKET, else the local folder). */

import type { FeedFiles } from '@pyb/core';
import { feedFilesFromEnv } from '@pyb/feed-files';

let files: FeedFiles | undefined;

export const feedFiles = (): FeedFiles => {
  files ??= feedFilesFromEnv().files;
  return files;
};
