/** The exact requests the EventBridge Scheduler adapter sends. */
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  atExpression,
  createCloseDeadlines,
  createRoundDeadlines,
  RecordingCloseDeadlines,
  RecordingRoundDeadlines,
  roundScheduleName,
  SchedulerCloseDeadlines,
  SchedulerRoundDeadlines,
  scheduleName,
} from '../src/index';

const SHOE = { shoeId: 'shoe_01kx8m1074c2hb0s3ps8q5yvrn', tableId: 'tbl_1', operatorId: 'acme' };
const options = {
  targetArn: 'arn:aws:lambda:eu-west-1:111122223333:function:pyb-dev-check-shoe-closed',
  roleArn: 'arn:aws:iam::111122223333:role/pyb-dev-close-deadlines',
  groupName: 'pyb-dev-close-deadlines',
};

describe('SchedulerCloseDeadlines', () => {
  it('creates one one-time schedule per shoe, at the deadline in UTC, that deletes itself after running', async () => {
    const client = new SchedulerClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await new SchedulerCloseDeadlines({ ...options, client }).schedule(SHOE, '2025-03-01T19:30:00.250Z');
    expect(mock.commandCalls(CreateScheduleCommand).map((c) => c.args[0].input)).toEqual([
      {
        Name: 'shoe-close-shoe_01kx8m1074c2hb0s3ps8q5yvrn',
        GroupName: 'pyb-dev-close-deadlines',
        Description: `Is shoe ${SHOE.shoeId} of table tbl_1 closed (seed revealed) by 2025-03-01T19:30:00.250Z?`,
        ScheduleExpression: 'at(2025-03-01T19:30:01)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: options.targetArn,
          RoleArn: options.roleArn,
          Input: JSON.stringify(SHOE),
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
        },
      },
    ]);
  });

  it('a schedule already there (a retried or concurrent deal) is left as it is; other errors surface', async () => {
    const client = new SchedulerClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock
      .on(CreateScheduleCommand)
      .rejectsOnce(
        new ConflictException({ message: 'exists', $metadata: {} } as ConstructorParameters<
          typeof ConflictException
        >[0]),
      );
    const deadlines = new SchedulerCloseDeadlines({ ...options, client });
    await expect(deadlines.schedule(SHOE, '2025-03-01T19:30:00Z')).resolves.toBeUndefined();
    mock
      .on(CreateScheduleCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    await expect(deadlines.schedule(SHOE, '2025-03-01T19:30:00Z')).rejects.toThrow(/denied/);
  });

  it('names and expressions stay within what the scheduler accepts', () => {
    expect(scheduleName('x'.repeat(64))).toHaveLength(64);
    expect(scheduleName('a:b')).toBe('shoe-close-a_b');
    expect(atExpression('2025-01-01T00:00:00.000Z')).toBe('at(2025-01-01T00:00:00)');
    expect(() => atExpression('nope')).toThrow(RangeError);
  });
});

describe('createCloseDeadlines', () => {
  it('EventBridge Scheduler when deployed, a recorder otherwise', async () => {
    expect(
      createCloseDeadlines({
        CLOSE_DEADLINE_TARGET_ARN: options.targetArn,
        CLOSE_DEADLINE_ROLE_ARN: options.roleArn,
        CLOSE_DEADLINE_GROUP: options.groupName,
        AWS_REGION: 'eu-west-1',
      }),
    ).toBeInstanceOf(SchedulerCloseDeadlines);
    const recording = createCloseDeadlines({});
    expect(recording).toBeInstanceOf(RecordingCloseDeadlines);
    await recording.schedule(SHOE, '2025-01-01T00:00:00Z');
    await recording.schedule(SHOE, '2026-01-01T00:00:00Z');
    expect([...(recording as RecordingCloseDeadlines).scheduled.values()]).toEqual([
      { shoe: SHOE, dueAt: '2025-01-01T00:00:00Z' },
    ]);
  });
});

const ROUND = { roundId: 'rnd_01kx8m1074c2hb0s3ps8q5yvrn', tableId: 'tbl_1', operatorId: 'acme' };
const roundOptions = {
  targetArn: 'arn:aws:lambda:eu-west-1:111122223333:function:pyb-dev-round-deadline',
  roleArn: 'arn:aws:iam::111122223333:role/pyb-dev-round-deadlines',
  groupName: 'pyb-dev-round-deadlines',
};

describe('SchedulerRoundDeadlines', () => {
  it('creates one one-time schedule per round deadline, named after the round and its second, that deletes itself', async () => {
    const client = new SchedulerClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    const deadlines = new SchedulerRoundDeadlines({ ...roundOptions, client });
    await deadlines.schedule(ROUND, 'OPEN', '2025-03-01T19:40:00.250Z');
    await deadlines.schedule(ROUND, 'CLOSED', '2025-03-01T19:45:00Z');
    const sent = mock.commandCalls(CreateScheduleCommand).map((c) => c.args[0].input);
    expect(sent[0]).toEqual({
      Name: 'round-rnd_01kx8m1074c2hb0s3ps8q5yvrn-1740858001',
      GroupName: 'pyb-dev-round-deadlines',
      Description: `Round ${ROUND.roundId} of table tbl_1, OPEN at the last look: past its deadline at 2025-03-01T19:40:00.250Z?`,
      ScheduleExpression: 'at(2025-03-01T19:40:01)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: roundOptions.targetArn,
        RoleArn: roundOptions.roleArn,
        Input: JSON.stringify(ROUND),
        RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
      },
    });
    expect(sent[1]).toMatchObject({
      Name: 'round-rnd_01kx8m1074c2hb0s3ps8q5yvrn-1740858300',
      ScheduleExpression: 'at(2025-03-01T19:45:00)',
    });
  });

  it('a deadline already scheduled is left as it is; names fit in 64 characters with their second', async () => {
    const client = new SchedulerClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock
      .on(CreateScheduleCommand)
      .rejects(
        new ConflictException({ message: 'exists', $metadata: {} } as ConstructorParameters<
          typeof ConflictException
        >[0]),
      );
    await expect(
      new SchedulerRoundDeadlines({ ...roundOptions, client }).schedule(
        ROUND,
        'OPEN',
        '2025-03-01T19:40:00Z',
      ),
    ).resolves.toBeUndefined();
    const long = roundScheduleName('r'.repeat(64), '2025-03-01T19:40:00Z');
    expect(long).toHaveLength(64);
    expect(long.endsWith('-1740858000')).toBe(true);
  });

  it('EventBridge Scheduler when deployed, a recorder otherwise (one per round and second)', async () => {
    expect(
      createRoundDeadlines({
        ROUND_DEADLINE_TARGET_ARN: roundOptions.targetArn,
        ROUND_DEADLINE_ROLE_ARN: roundOptions.roleArn,
        ROUND_DEADLINE_GROUP: roundOptions.groupName,
      }),
    ).toBeInstanceOf(SchedulerRoundDeadlines);
    const recording = createRoundDeadlines({}) as RecordingRoundDeadlines;
    expect(recording).toBeInstanceOf(RecordingRoundDeadlines);
    await recording.schedule(ROUND, 'OPEN', '2025-01-01T00:00:00.100Z');
    await recording.schedule(ROUND, 'OPEN', '2025-01-01T00:00:00.900Z');
    await recording.schedule(ROUND, 'CLOSED', '2025-01-01T00:05:00Z');
    expect(recording.of(ROUND.roundId).map((s) => [s.state, s.dueAt])).toEqual([
      ['OPEN', '2025-01-01T00:00:00.100Z'],
      ['CLOSED', '2025-01-01T00:05:00Z'],
    ]);
  });
});
