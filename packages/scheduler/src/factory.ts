/**
 * From the environment: CLOSE_DEADLINE_TARGET_ARN, CLOSE_DEADLINE_ROLE_ARN and CLOSE_DEADLINE_GROUP
 * set (a deployment) -> EventBridge Scheduler; otherwise a recording adapter (dev, tests).
 */
import type { CloseDeadlines } from '@pyb/core';
import { SchedulerCloseDeadlines } from './eventbridge';
import { RecordingCloseDeadlines } from './recording';

export function createCloseDeadlines(env: Record<string, string | undefined> = process.env): CloseDeadlines {
  const {
    CLOSE_DEADLINE_TARGET_ARN: targetArn,
    CLOSE_DEADLINE_ROLE_ARN: roleArn,
    CLOSE_DEADLINE_GROUP: groupName,
  } = env;
  if (targetArn && roleArn && groupName) {
    return new SchedulerCloseDeadlines({
      targetArn,
      roleArn,
      groupName,
      ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
    });
  }
  return new RecordingCloseDeadlines();
}
