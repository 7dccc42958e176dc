/**
 * The archive's daily check (EventBridge Scheduler → Lambda, infra/src/archive-check.ts): for each
 * operator of the deployment (FEED_OPERATORS, or the schedule's input), is every shoe closed on the
 * day (yesterday by default) in the audit archive? Each missing shoe is logged with its key, and the
 * count is emitted as ShoesMissingFromArchive (EMF, dimension Stage), which the stack alarms on. A
 * check that could not run for an operator fails the invocation after the others, so the scheduler
 * retries it and, past its retries, the event goes to the dead-letter queue (alarmed too).
 */
import { OperatorId } from '@pyb/contracts';
import type { ArchiveCheck, AuditArchive } from '@pyb/core';
import { type Ctx, checkArchive, yesterday } from '@pyb/core/use-cases';
import { z } from 'zod';
import { logger } from './logger';
import { METRICS_NAMESPACE } from './metrics-names';

export const ARCHIVE_CHECK_METRIC = 'ShoesMissingFromArchive';

export const ArchiveCheckEvent = z.strictObject({
  /** Default: FEED_OPERATORS (comma-separated). */
  operators: z.array(OperatorId()).optional(),
  /** The UTC day whose closed shoes are checked; default: yesterday. */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

export interface ArchiveCheckJobDeps {
  ctx: Ctx;
  archive: Pick<AuditArchive, 'stored'>;
  operators: readonly string[];
  stage: string;
  /** Where the metric line goes (the Lambda log: CloudWatch turns it into the metric). */
  emit?: (line: string) => void;
}

export function archiveCheckJobHandler(deps: () => ArchiveCheckJobDeps) {
  return async (event: unknown): Promise<{ date: string; checks: ArchiveCheck[] }> => {
    const input = ArchiveCheckEvent.parse(event ?? {});
    const { ctx, archive, operators, stage, emit = console.log } = deps();
    const date = input.date ?? yesterday(ctx.clock.now());
    const checks: ArchiveCheck[] = [];
    const failed: string[] = [];
    for (const operatorId of input.operators ?? operators) {
      try {
        const check = await checkArchive(ctx, archive, { operatorId, date });
        for (const shoe of check.missing)
          logger.error('closed shoe missing from the archive', { operatorId, ...shoe });
        logger.info('archive checked', { ...check, missing: check.missing.length });
        checks.push(check);
      } catch (error) {
        logger.error('archive check failed', { operatorId, date, error: error as Error });
        failed.push(operatorId);
      }
    }
    const missing = checks.reduce((sum, c) => sum + c.missing.length, 0);
    emit(
      JSON.stringify({
        _aws: {
          Timestamp: ctx.clock.now().getTime(),
          CloudWatchMetrics: [
            {
              Namespace: METRICS_NAMESPACE,
              Dimensions: [['Stage']],
              Metrics: [{ Name: ARCHIVE_CHECK_METRIC, Unit: 'Count' }],
            },
          ],
        },
        Stage: stage,
        [ARCHIVE_CHECK_METRIC]: missing,
        date,
      }),
    );
    if (failed.length > 0) throw new Error(`archive check of ${date} failed for ${failed.join(', ')}`);
    return { date, checks };
  };
}
