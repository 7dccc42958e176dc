import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured JSON logger per container. `LOG_LEVEL` (or Powertools' POWERTOOLS_LOG_LEVEL) sets the
 * level; the local server sets SILENT in tests. Each request appends its `requestId` (the correlation
 * id) and route, and `injectLambdaContext` clears them afterwards.
 */
export const logger = new Logger({
  serviceName: 'pyb-api',
  logLevel: (process.env.LOG_LEVEL ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO') as 'INFO',
});
