/**
 * Deadlines on EventBridge Scheduler: one one-time schedule per deadline, `at(<deadline>)` in UTC, that
 * invokes its check function with the ids it names and deletes itself once run. A second call for the
 * same deadline meets the schedule already there (ConflictException) and leaves it.
 *
 * - CloseDeadlines: one per ended shoe, invoking check-shoe-closed.
 * - RoundDeadlines: one per round deadline (the round and the second it falls on), invoking
 *   round-deadline (the interrupted-game policy).
 */
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  type CloseDeadlines,
  type DeadlineState,
  onFirstUse,
  type RoundDeadlines,
  type RoundRef,
  type ShoeRef,
} from '@pyb/core';

export interface SchedulerDeadlinesOptions {
  /** ARN of the function the schedules invoke (check-shoe-closed, round-deadline). */
  targetArn: string;
  /** Role EventBridge Scheduler assumes to invoke it. */
  roleArn: string;
  /** Schedule group of the stage. */
  groupName: string;
  client?: SchedulerClient;
  region?: string;
}

/** Schedule names: [0-9a-zA-Z-_.], at most 64 characters (ids are [A-Za-z0-9._:-]{1,64}). */
function safeName(prefix: string, id: string, suffix = ''): string {
  const room = 64 - prefix.length - suffix.length;
  return `${prefix}${id.replace(/[^0-9A-Za-z._-]/g, '_').slice(0, room)}${suffix}`;
}

export const scheduleName = (shoeId: string): string => safeName('shoe-close-', shoeId);

/** A round's deadline: the round and the second its check is due (its state does not name it: a state's deadline is one time). */
export const roundScheduleName = (roundId: string, dueAt: string): string =>
  safeName('round-', roundId, `-${Math.ceil(Date.parse(dueAt) / 1000)}`);

/** `at(yyyy-mm-ddThh:mm:ss)`: the scheduler's one-time expression, to the second, rounded up. */
export function atExpression(dueAt: string): string {
  const ms = Date.parse(dueAt);
  if (!Number.isFinite(ms)) throw new RangeError(`bad time ${dueAt}`);
  return `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;
}

type Scheduler = typeof import('@aws-sdk/client-scheduler');

/** Creates the one-time schedules of one group and target. */
class OneTimeSchedules {
  /**
   * The client and its commands, loaded at the first schedule (`onFirstUse`): the functions that may
   * schedule one then do not parse the client at a cold start's import (docs/architecture.md, "What
   * a function loads").
   */
  private readonly load: () => Promise<{ scheduler: Scheduler; client: SchedulerClient }>;

  constructor(private readonly options: SchedulerDeadlinesOptions) {
    this.load = onFirstUse(async () => {
      const scheduler = await import('@aws-sdk/client-scheduler');
      return {
        scheduler,
        client:
          options.client ?? new scheduler.SchedulerClient(options.region ? { region: options.region } : {}),
      };
    });
  }

  async create(name: string, description: string, dueAt: string, input: object): Promise<void> {
    const { scheduler, client } = await this.load();
    try {
      await client.send(
        new scheduler.CreateScheduleCommand({
          Name: name,
          GroupName: this.options.groupName,
          Description: description,
          ScheduleExpression: atExpression(dueAt),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: this.options.targetArn,
            RoleArn: this.options.roleArn,
            Input: JSON.stringify(input),
            RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
          },
        }),
      );
    } catch (error) {
      // Scheduled already (a retried call, a concurrent one): one check per deadline is enough.
      if (error instanceof scheduler.ConflictException || (error as Error).name === 'ConflictException')
        return;
      throw error;
    }
  }
}

export class SchedulerCloseDeadlines implements CloseDeadlines {
  private readonly schedules: OneTimeSchedules;

  constructor(options: SchedulerDeadlinesOptions) {
    this.schedules = new OneTimeSchedules(options);
  }

  schedule(shoe: ShoeRef, dueAt: string): Promise<void> {
    return this.schedules.create(
      scheduleName(shoe.shoeId),
      `Is shoe ${shoe.shoeId} of table ${shoe.tableId} closed (seed revealed) by ${dueAt}?`,
      dueAt,
      { shoeId: shoe.shoeId, tableId: shoe.tableId, operatorId: shoe.operatorId },
    );
  }
}

export class SchedulerRoundDeadlines implements RoundDeadlines {
  private readonly schedules: OneTimeSchedules;

  constructor(options: SchedulerDeadlinesOptions) {
    this.schedules = new OneTimeSchedules(options);
  }

  schedule(round: RoundRef, state: DeadlineState, dueAt: string): Promise<void> {
    return this.schedules.create(
      roundScheduleName(round.roundId, dueAt),
      `Round ${round.roundId} of table ${round.tableId}, ${state} at the last look: past its deadline at ${dueAt}?`,
      dueAt,
      { roundId: round.roundId, tableId: round.tableId, operatorId: round.operatorId },
    );
  }
}
