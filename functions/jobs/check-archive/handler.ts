import { archiveFromEnv } from '@pyb/archive';
import { archiveCheckJobHandler } from '../../src/archive-check-job';
import { appContext, useCases } from '../../src/context';
import { feedOperatorsFromEnv } from '../../src/feed-job';

/** Not an HTTP route: EventBridge Scheduler invokes it once a day (infra/src/archive-check.ts). */
export const handler = archiveCheckJobHandler(() => ({
  ctx: useCases(appContext()),
  archive: archiveFromEnv().archive,
  operators: feedOperatorsFromEnv(),
  stage: process.env.STAGE ?? 'local',
}));
