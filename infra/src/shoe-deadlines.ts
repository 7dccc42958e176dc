import { Aws, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { DeployedTable } from './data';
import { jobFunction } from './jobs';
import { acknowledge } from './nag';
import { MEMORY_MB } from './route-function';

/** The function EventBridge Scheduler invokes for each ended shoe (functions/check-shoe-closed). */
export const CHECK_HANDLER = 'check-shoe-closed';
/** What functions/check-shoe-closed emits when a shoe missed its deadline. */
export const NOT_CLOSED_METRIC = { namespace: 'PuntoYBanca', name: 'ShoesNotClosedInTime' } as const;

export interface ShoeCloseDeadlinesProps {
  stage: string;
  deadlineSeconds: number;
  game: DeployedTable;
  /** The common function environment (table names, key ids, stage). */
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  alarmAction: actions.SnsAction;
}

/**
 * An ended shoe must be closed — its seed revealed — within `deadlineSeconds` (docs/provably-fair.md
 * §10). When the cut card ends a shoe, resolve creates a one-time EventBridge Scheduler schedule in
 * this group for the deadline; at that time the scheduler invokes the check function, which emits
 * ShoesNotClosedInTime if the shoe is still not closed, and this alarm fires. AWS's scheduler runs
 * the clock; nothing polls.
 */
export class ShoeCloseDeadlines extends Construct {
  readonly group: scheduler.CfnScheduleGroup;
  readonly check: NodejsFunction;
  readonly invokeRole: iam.Role;
  readonly alarm: cloudwatch.Alarm;
  /** The variables the functions need to schedule a deadline (@pyb/scheduler createCloseDeadlines). */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: ShoeCloseDeadlinesProps) {
    super(scope, id);
    const groupName = `pyb-${props.stage}-close-deadlines`;
    this.group = new scheduler.CfnScheduleGroup(this, 'Group', { name: groupName });

    const check = jobFunction(this, 'Check', {
      functionName: `pyb-${props.stage}-${CHECK_HANDLER}`,
      description: 'Is an ended shoe closed by its deadline? (EventBridge Scheduler target)',
      roleDescription: `checks an ended shoe was closed in time (${props.stage})`,
      handler: CHECK_HANDLER,
      memorySize: MEMORY_MB,
      timeout: Duration.seconds(10),
      logRetention: props.logRetention,
      environment: props.environment,
    });
    this.check = check.fn;
    const role = check.role;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReadShoe',
        actions: ['dynamodb:GetItem'],
        resources: [props.game.tableArn],
      }),
    );
    this.invokeRole = new iam.Role(this, 'InvokeRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: `EventBridge Scheduler invokes ${CHECK_HANDLER} (${props.stage})`,
    });
    this.invokeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.check.functionArn] }),
    );

    this.alarm = alarmOn(this, 'NotClosedAlarm', {
      action: props.alarmAction,
      description: `Punto y Banca ${props.stage}: a shoe ended and was not closed (its seed not revealed) within ${props.deadlineSeconds} s`,
      metric: new cloudwatch.Metric({
        namespace: NOT_CLOSED_METRIC.namespace,
        metricName: NOT_CLOSED_METRIC.name,
        dimensionsMap: { Stage: props.stage },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
    });

    this.environment = {
      CLOSE_DEADLINE_TARGET_ARN: this.check.functionArn,
      CLOSE_DEADLINE_ROLE_ARN: this.invokeRole.roleArn,
      CLOSE_DEADLINE_GROUP: groupName,
      SHOE_CLOSE_DEADLINE_SECONDS: String(props.deadlineSeconds),
    };
  }

  /** Lets `role` (a function that ends shoes: resolve, or void when it burns) create a deadline schedule in the group. */
  allowScheduling(role: iam.Role): void {
    allowCreatingSchedules(role, {
      group: this.group,
      invokeRole: this.invokeRole,
      sids: { schedule: 'ScheduleCloseDeadline', pass: 'PassCloseDeadlineRole' },
      why: 'One schedule per ended shoe, named after the shoe: the names are not known at deploy time.',
    });
  }
}

/**
 * Lets `role` create one-time schedules in `group` that `invokeRole` runs: scheduler:CreateSchedule on
 * the group's schedules, iam:PassRole on that role to the scheduler alone.
 */
export function allowCreatingSchedules(
  role: iam.Role,
  o: {
    group: scheduler.CfnScheduleGroup;
    invokeRole: iam.Role;
    sids: { schedule: string; pass: string };
    why: string;
  },
): void {
  acknowledge(
    role,
    `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${o.group.name}/*]`,
    `${o.why} The wildcard is confined to this stage's ${o.group.name} group, for scheduler:CreateSchedule only.`,
  );
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: o.sids.schedule,
      actions: ['scheduler:CreateSchedule'],
      // The pseudo parameters, not the stack's region and account: those are concrete strings when the
      // CLI knows them, and the acknowledgement above (and the policy) must not depend on that.
      resources: [
        `arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/${o.group.name}/*`,
      ],
    }),
  );
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: o.sids.pass,
      actions: ['iam:PassRole'],
      resources: [o.invokeRole.roleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    }),
  );
}
