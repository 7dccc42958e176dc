import { cadenceDefinition } from '@pyb/cadence';
import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { acknowledgeWildcards } from './nag';

/** The function the cadence state machine's Tasks call (functions/jobs/cadence-step), */
export const CADENCE_HANDLER = 'cadence-step';
/** but OpenShoe's: the shoe opener (functions/jobs/cadence-open-shoe), the only one that seals (K1). */
export const CADENCE_SHOE_HANDLER = 'cadence-open-shoe';

export interface TableCadenceProps {
  stage: string;
  /** The cadence-step function (a worker of functions/src/workers.ts). */
  step: lambda.IFunction;
  /** The cadence-open-shoe function (a worker too). */
  shoe: lambda.IFunction;
  logRetention: logs.RetentionDays;
  alarmAction: actions.SnsAction;
}

/**
 * Tables that run themselves (docs/architecture.md, "Table cadence"): a Step Functions Standard state
 * machine, one execution per round named after it, whose definition is @pyb/cadence's — the one the
 * local runner runs. Its role may invoke the cadence-step and cadence-open-shoe functions only. An execution that fails
 * (a step past its retries: the table is locked first), times out or is aborted raises the alarm.
 */
export class TableCadence extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly alarm: cloudwatch.Alarm;
  /** Built from its name, not a reference: the step function starts executions of it (no cycle). */
  readonly stateMachineArn: string;

  constructor(scope: Construct, id: string, props: TableCadenceProps) {
    super(scope, id);
    const name = `pyb-${props.stage}-cadence`;
    this.stateMachineArn = `arn:${Aws.PARTITION}:states:${Aws.REGION}:${Aws.ACCOUNT_ID}:stateMachine:${name}`;
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('states.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: `The cadence state machine calls ${CADENCE_HANDLER} and ${CADENCE_SHOE_HANDLER} (${props.stage})`,
    });
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'InvokeCadenceStep',
        actions: ['lambda:InvokeFunction'],
        resources: [props.step.functionArn, props.shoe.functionArn],
      }),
    );
    const logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `/aws/vendedlogs/states/${name}`,
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName: name,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromString(
        Stack.of(this).toJsonString(cadenceDefinition(props.step.functionArn, props.shoe.functionArn)),
      ),
      role,
      tracingEnabled: true,
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
    });
    acknowledgeWildcards(
      role,
      [/Resource::\*/],
      'Step Functions logging (logs:CreateLogDelivery and the other log-delivery actions) and X-Ray ' +
        '(xray:PutTraceSegments, ...) accept Resource "*" only; the role may invoke the cadence-step and cadence-open-shoe functions and nothing else.',
    );

    const metric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/States',
        metricName,
        dimensionsMap: { StateMachineArn: this.stateMachine.stateMachineArn },
        statistic: 'Sum',
        period: Duration.minutes(1),
      });
    this.alarm = alarmOn(this, 'FailedAlarm', {
      action: props.alarmAction,
      description: `Punto y Banca ${props.stage}: a cadence round's execution failed (its table is locked, TABLE_LOCKED source CADENCE), timed out or was aborted`,
      metric: new cloudwatch.MathExpression({
        expression: 'failed + timedOut + aborted',
        usingMetrics: {
          failed: metric('ExecutionsFailed'),
          timedOut: metric('ExecutionsTimedOut'),
          aborted: metric('ExecutionsAborted'),
        },
        period: Duration.minutes(1),
      }),
    });
  }

  /** Lets `fn` start rounds: states:StartExecution on this state machine only, and names it. */
  allowStarting(fn: lambda.Function, role: iam.Role): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'StartCadenceRound',
        actions: ['states:StartExecution'],
        resources: [this.stateMachineArn],
      }),
    );
    fn.addEnvironment('CADENCE_STATE_MACHINE_ARN', this.stateMachineArn);
  }
}
