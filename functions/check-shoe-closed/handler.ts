/**
 * The target of each ended shoe's close-deadline schedule (EventBridge Scheduler): is the shoe closed,
 * its seed revealed? If not, it logs the shoe and emits the ShoesNotClosedInTime metric (CloudWatch
 * embedded metric format) that the stack's alarm watches. Not an HTTP endpoint.
 */
import { checkCloseDeadline } from '@pyb/core/use-cases';
import { appContext, useCases } from '../src/context';
import { logger } from '../src/logger';

export interface CloseDeadlineEvent {
  shoeId: string;
  tableId?: string;
  operatorId?: string;
}

export const METRIC_NAMESPACE = 'PuntoYBanca';
export const NOT_CLOSED_METRIC = 'ShoesNotClosedInTime';

export async function handler(event: CloseDeadlineEvent) {
  if (typeof event?.shoeId !== 'string') throw new TypeError('the schedule must pass { shoeId }');
  const check = await checkCloseDeadline(useCases(appContext()), { shoeId: event.shoeId });
  const stage = process.env.STAGE ?? 'local';
  if (!check.closedInTime) {
    logger.error('shoe not closed by its deadline', { ...check });
    // Embedded metric format: one line the Lambda log turns into a CloudWatch metric.
    console.log(
      JSON.stringify({
        _aws: {
          Timestamp: Date.now(),
          CloudWatchMetrics: [
            {
              Namespace: METRIC_NAMESPACE,
              Dimensions: [['Stage']],
              Metrics: [{ Name: NOT_CLOSED_METRIC, Unit: 'Count' }],
            },
          ],
        },
        Stage: stage,
        [NOT_CLOSED_METRIC]: 1,
        shoeId: check.shoeId,
        status: check.status,
      }),
    );
  }
  return check;
}
