import { appContext, useCases } from '../../src/context';
import { feedFiles } from '../../src/feed-files';
import { feedJobHandler, feedOperatorsFromEnv } from '../../src/feed-job';

/** Not an HTTP route: EventBridge Scheduler invokes it once a day (infra/src/feed.ts). */
export const handler = feedJobHandler(() => ({
  ctx: useCases(appContext()),
  files: feedFiles(),
  operators: feedOperatorsFromEnv(),
}));
