/** The exact requests the Step Functions adapter sends, and the definition both runners use. */
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  cadenceDefinition,
  createCadenceRunner,
  executionName,
  SfnCadenceRunner,
  TASK_STEPS,
} from '../src/index';

const ARN = 'arn:aws:states:eu-west-1:111122223333:stateMachine:pyb-dev-cadence';
const ROUND = { tableId: 'tbl_01kx8m1074c2hb0s3ps8q5yvrn', operatorId: 'acme', tableRound: 42 };

describe('SfnCadenceRunner', () => {
  it('starts one execution per round, named after the table and its round number', async () => {
    const client = new SFNClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock.on(StartExecutionCommand).resolves({ executionArn: `${ARN}:x`, startDate: new Date(0) });
    expect(await new SfnCadenceRunner({ stateMachineArn: ARN, client }).start(ROUND)).toBe('STARTED');
    expect(mock.commandCalls(StartExecutionCommand).map((c) => c.args[0].input)).toEqual([
      {
        stateMachineArn: ARN,
        name: 'tbl_01kx8m1074c2hb0s3ps8q5yvrn-r42',
        input: JSON.stringify(ROUND),
      },
    ]);
  });

  it('an execution of that name already there: ALREADY_STARTED, nothing started; other errors surface', async () => {
    const client = new SFNClient({ region: 'eu-west-1' });
    const mock = mockClient(client);
    mock
      .on(StartExecutionCommand)
      .rejectsOnce(
        new ExecutionAlreadyExists({ message: 'exists', $metadata: {} } as ConstructorParameters<
          typeof ExecutionAlreadyExists
        >[0]),
      );
    const runner = new SfnCadenceRunner({ stateMachineArn: ARN, client });
    expect(await runner.start(ROUND)).toBe('ALREADY_STARTED');
    mock
      .on(StartExecutionCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    await expect(runner.start(ROUND)).rejects.toThrow(/denied/);
  });

  it('Step Functions when deployed, none otherwise', () => {
    expect(createCadenceRunner({ CADENCE_STATE_MACHINE_ARN: ARN, AWS_REGION: 'eu-west-1' })).toBeInstanceOf(
      SfnCadenceRunner,
    );
    expect(createCadenceRunner({})).toBeUndefined();
  });
});

describe('the cadence definition', () => {
  const STEP_ARN = 'arn:aws:lambda:eu-west-1:111122223333:function:pyb-dev-cadence-step';
  const SHOE_ARN = 'arn:aws:lambda:eu-west-1:111122223333:function:pyb-dev-cadence-open-shoe';
  const definition = cadenceDefinition(STEP_ARN, SHOE_ARN);

  it("OpenShoe alone calls the shoe opener's function, every other Task cadence-step's", () => {
    const resources = Object.fromEntries(
      Object.keys(TASK_STEPS).map((name) => [
        name,
        (definition.States[name as keyof typeof definition.States] as { Resource: string }).Resource,
      ]),
    );
    expect(resources).toEqual(
      Object.fromEntries(Object.keys(TASK_STEPS).map((n) => [n, n === 'OpenShoe' ? SHOE_ARN : STEP_ARN])),
    );
    expect(definition.States.OpenShoe).toMatchObject({ Parameters: { step: 'shoe' }, Next: 'OpenRound' });
  });

  it('a round that needs a shoe goes to OpenShoe, then back to OpenRound; a stopped one ends', () => {
    expect(definition.States['Opened?']).toEqual({
      Type: 'Choice',
      Choices: [
        { Variable: '$.stopped', IsPresent: true, Next: 'Stopped' },
        { Variable: '$.needsShoe', IsPresent: true, Next: 'OpenShoe' },
      ],
      Default: 'BettingOpen',
    });
  });

  it('every Task retries a crash, then locks the table; the deal waits for its beacon round by Retry', () => {
    for (const name of Object.keys(TASK_STEPS)) {
      const state = definition.States[name as keyof typeof definition.States] as {
        Retry: { ErrorEquals: string[] }[];
        Catch?: { Next: string }[];
        TimeoutSeconds: number;
      };
      expect(state.Retry.at(-1)!.ErrorEquals).toEqual(['States.TaskFailed', 'States.Timeout']);
      expect(state.TimeoutSeconds).toBeGreaterThan(0);
      if (name !== 'LockTable') expect(state.Catch).toEqual([expect.objectContaining({ Next: 'LockTable' })]);
    }
    expect(definition.States.Deal.Retry[0]).toMatchObject({
      ErrorEquals: ['BEACON_PENDING'],
      BackoffRate: 1,
    });
    expect(definition.States.BettingOpen).toEqual({
      Type: 'Wait',
      TimestampPath: '$.closesAt',
      Next: 'NoVaMas',
    });
  });

  it('execution names stay within what Step Functions accepts', () => {
    expect(executionName('a:b.c', 1)).toBe('a_b_c-r1');
    const long = executionName('x'.repeat(80), 123456);
    expect(long).toHaveLength(80);
    expect(long.endsWith('-r123456')).toBe(true);
  });
});
