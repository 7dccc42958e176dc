/**
 * The target of each ended shoe's close-deadline schedule (EventBridge Scheduler): is the shoe closed,
 * its seed revealed? If not, it logs the shoe and emits the ShoesNotClosedInTime metric (CloudWatch
 * embedded metric format) that the stack's alarm watches. Not an HTTP endpoint.
 */
import { checkCloseDeadline } from '@pyb/core/use-cases';
import { appContext, useCases } from '../src/context';
import { logger } from '../src/logger';
import { countForStage } from '../src/metrics-names';

export interface CloseDeadlineEvent {
  shoeId: string;
  tableId?: string;
  operatorId?: string;
}

export const NOT_CLOSED_METRIC = 'ShoesNotClosedInTime';

export async function handler(event: CloseDeadlineEvent) {
  if (typeof event?.shoeId !== 'string') throw new TypeError('the schedule must pass { shoeId }');
  const check = await checkCloseDeadline(useCases(appContext()), { shoeId: event.shoeId });
  if (!check.closedInTime) {
    logger.error('shoe not closed by its deadline', { ...check });
    countForStage(NOT_CLOSED_METRIC, { shoeId: check.shoeId, status: check.status });
  }
  return check;
}
