/**
 * The regulator feed's daily job (EventBridge Scheduler → Lambda, infra/src/feed.ts): for each operator
 * of the deployment (FEED_OPERATORS, or the schedule's input), yesterday's files (or those of `date`),
 * each streamed to the feed bucket by `writeDailyFeed`. Every operator is tried; if one failed the
 * invocation fails after the others, so the scheduler retries it (rewriting a day writes the same
 * bytes) and, past its retries, the event goes to the dead-letter queue and raises the alarm.
 */

import { OperatorId } from '@pyb/contracts';
import type { FeedFiles, FeedFileWritten } from '@pyb/core';
import { type Ctx, writeDailyFeed, yesterday } from '@pyb/core/use-cases';
import { z } from 'zod';
import { logger } from './logger';

export const FeedJobEvent = z.strictObject({
  /** Default: FEED_OPERATORS (comma-separated). */
  operators: z.array(OperatorId()).optional(),
  /** The UTC day to write; default: yesterday. */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

export interface FeedJobDeps {
  ctx: Ctx;
  files: FeedFiles;
  /** The deployment's operators (FEED_OPERATORS). */
  operators: readonly string[];
}

export function feedJobHandler(deps: () => FeedJobDeps) {
  return async (event: unknown): Promise<{ date: string; written: FeedFileWritten[] }> => {
    const input = FeedJobEvent.parse(event ?? {});
    const { ctx, files, operators } = deps();
    const date = input.date ?? yesterday(ctx.clock.now());
    const written: FeedFileWritten[] = [];
    const failed: string[] = [];
    for (const operatorId of input.operators ?? operators) {
      try {
        const done = await writeDailyFeed(ctx, files, { operatorId, date });
        for (const f of done) logger.info('feed file written', { operatorId, date, ...f });
        written.push(...done);
      } catch (error) {
        logger.error('feed files failed', { operatorId, date, error: error as Error });
        failed.push(operatorId);
      }
    }
    if (failed.length > 0) throw new Error(`feed of ${date} failed for ${failed.join(', ')}`);
    return { date, written };
  };
}

/** FEED_OPERATORS: the deployment's operator ids, comma-separated. */
export const feedOperatorsFromEnv = (env: Record<string, string | undefined> = process.env): string[] =>
  (env.FEED_OPERATORS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
