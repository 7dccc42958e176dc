/**
 * From the environment: the deadlines' target, role and group set (a deployment) -> EventBridge
 * Scheduler; otherwise a recording adapter (dev, tests).
 * - CLOSE_DEADLINE_TARGET_ARN, CLOSE_DEADLINE_ROLE_ARN, CLOSE_DEADLINE_GROUP: an ended shoe's close;
 * - ROUND_DEADLINE_TARGET_ARN, ROUND_DEADLINE_ROLE_ARN, ROUND_DEADLINE_GROUP: a round's interrupted-game check.
 */
import type { CloseDeadlines, RoundDeadlines } from '@pyb/core';
import {
  SchedulerCloseDeadlines,
  type SchedulerDeadlinesOptions,
  SchedulerRoundDeadlines,
} from './eventbridge';
import { RecordingCloseDeadlines, RecordingRoundDeadlines } from './recording';

type Env = Record<string, string | undefined>;

function optionsOf(
  env: Env,
  prefix: 'CLOSE_DEADLINE' | 'ROUND_DEADLINE',
): SchedulerDeadlinesOptions | undefined {
  const targetArn = env[`${prefix}_TARGET_ARN`];
  const roleArn = env[`${prefix}_ROLE_ARN`];
  const groupName = env[`${prefix}_GROUP`];
  if (!targetArn || !roleArn || !groupName) return undefined;
  return { targetArn, roleArn, groupName, ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}) };
}

export function createCloseDeadlines(env: Env = process.env): CloseDeadlines {
  const options = optionsOf(env, 'CLOSE_DEADLINE');
  return options ? new SchedulerCloseDeadlines(options) : new RecordingCloseDeadlines();
}

export function createRoundDeadlines(env: Env = process.env): RoundDeadlines {
  const options = optionsOf(env, 'ROUND_DEADLINE');
  return options ? new SchedulerRoundDeadlines(options) : new RecordingRoundDeadlines();
}
