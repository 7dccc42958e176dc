/**
 * CloseDeadlines on EventBridge Scheduler: one one-time schedule per ended shoe, `at(<deadline>)` in
 * UTC, that invokes the check-shoe-closed function with the shoe's ids and deletes itself once run.
 * A second call for the same shoe meets the schedule already there (ConflictException) and leaves it.
 */
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import { type CloseDeadlines, onFirstUse, type ShoeRef } from '@pyb/core';

export interface SchedulerCloseDeadlinesOptions {
  /** ARN of the function that checks the shoe (check-shoe-closed). */
  targetArn: string;
  /** Role EventBridge Scheduler assumes to invoke it. */
  roleArn: string;
  /** Schedule group of the stage. */
  groupName: string;
  client?: SchedulerClient;
  region?: string;
}

/** Schedule names: [0-9a-zA-Z-_.], at most 64 characters. Shoe ids are [A-Za-z0-9._:-]{1,64}. */
export function scheduleName(shoeId: string): string {
  const name = `shoe-close-${shoeId.replace(/[^0-9A-Za-z._-]/g, '_')}`;
  return name.length <= 64 ? name : name.slice(0, 64);
}

/** `at(yyyy-mm-ddThh:mm:ss)`: the scheduler's one-time expression, to the second, rounded up. */
export function atExpression(dueAt: string): string {
  const ms = Date.parse(dueAt);
  if (!Number.isFinite(ms)) throw new RangeError(`bad time ${dueAt}`);
  return `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;
}

type Scheduler = typeof import('@aws-sdk/client-scheduler');

export class SchedulerCloseDeadlines implements CloseDeadlines {
  /**
   * The client and its commands, loaded when a shoe first ends (`onFirstUse`): the functions that
   * may end one (resolve, void) then do not parse the client at a cold start's import
   * (docs/architecture.md, "What a function loads").
   */
  private readonly load: () => Promise<{ scheduler: Scheduler; client: SchedulerClient }>;

  constructor(private readonly options: SchedulerCloseDeadlinesOptions) {
    this.load = onFirstUse(async () => {
      const scheduler = await import('@aws-sdk/client-scheduler');
      return {
        scheduler,
        client:
          options.client ?? new scheduler.SchedulerClient(options.region ? { region: options.region } : {}),
      };
    });
  }

  async schedule(shoe: ShoeRef, dueAt: string): Promise<void> {
    const { scheduler, client } = await this.load();
    try {
      await client.send(
        new scheduler.CreateScheduleCommand({
          Name: scheduleName(shoe.shoeId),
          GroupName: this.options.groupName,
          Description: `Is shoe ${shoe.shoeId} of table ${shoe.tableId} closed (seed revealed) by ${dueAt}?`,
          ScheduleExpression: atExpression(dueAt),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: this.options.targetArn,
            RoleArn: this.options.roleArn,
            Input: JSON.stringify({
              shoeId: shoe.shoeId,
              tableId: shoe.tableId,
              operatorId: shoe.operatorId,
            }),
            RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
          },
        }),
      );
    } catch (error) {
      // Scheduled already (a retried deal, a concurrent resolver): one check per shoe is enough.
      if (error instanceof scheduler.ConflictException || (error as Error).name === 'ConflictException')
        return;
      throw error;
    }
  }
}
