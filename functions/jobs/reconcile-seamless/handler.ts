/**
 * The daily seamless reconciliation of one operator (EventBridge Scheduler, one schedule per seamless
 * operator at 00:30 UTC: infra/src/seamless.ts): the report of the UTC day that ended stored, its
 * stuck transactions handed to the outbox again, and the SeamlessUnresolved metric (CloudWatch
 * embedded metric format) the operator's alarm watches — emitted every run, 0 included, so the alarm
 * clears when a day is clean. `{ operatorId, date? }`: a date re-runs that day (a backfill).
 */
import { OPERATOR_ID_PATTERN } from '@pyb/contracts';
import { reconcileSeamlessDay } from '@pyb/core/use-cases';
import { appContext, useCases } from '../../src/context';
import { logger } from '../../src/logger';
import { METRICS_NAMESPACE } from '../../src/metrics-names';
import { outboxOf } from '../../src/seamless';

export interface ReconcileEvent {
  operatorId: string;
  date?: string;
}

export const UNRESOLVED_METRIC = 'SeamlessUnresolved';

export async function handler(event: ReconcileEvent) {
  if (typeof event?.operatorId !== 'string' || !OPERATOR_ID_PATTERN.test(event.operatorId)) {
    throw new TypeError('the schedule must pass { operatorId } (and optionally date: YYYY-MM-DD)');
  }
  const context = appContext();
  const report = await reconcileSeamlessDay(useCases(context, undefined, { outbox: outboxOf(context) }), {
    operatorId: event.operatorId,
    ...(typeof event.date === 'string' && { date: event.date }),
  });
  const { count, unresolved } = report.summary;
  const facts = { operatorId: report.operatorId, date: report.date, count, redelivered: report.redelivered };
  if (unresolved.count > 0) {
    logger.error('seamless transactions unresolved', {
      ...facts,
      unresolved: unresolved.count,
      first: unresolved.transactions.slice(0, 20),
    });
  } else {
    logger.info('seamless day reconciled', facts);
  }
  console.log(
    JSON.stringify({
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [['Stage', 'Operator']],
            Metrics: [{ Name: UNRESOLVED_METRIC, Unit: 'Count' }],
          },
        ],
      },
      Stage: process.env.STAGE ?? 'local',
      Operator: report.operatorId,
      [UNRESOLVED_METRIC]: unresolved.count,
      date: report.date,
    }),
  );
  return { ...facts, unresolved: unresolved.count };
}
