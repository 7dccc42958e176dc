import { Aws, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { allowCreatingSchedules } from './shoe-deadlines';

/** The worker EventBridge Scheduler invokes for each round deadline (functions/jobs/round-deadline). */
export const ROUND_DEADLINE_HANDLER = 'round-deadline';
/** The functions that schedule a round's check: those that open rounds, and the check (it reschedules). */
export const ROUND_DEADLINE_SCHEDULERS = ['open-round', 'cadence-step', ROUND_DEADLINE_HANDLER] as const;
/** What functions/jobs/round-deadline emits when the policy acted on a round. */
export const INTERRUPTED_METRIC = { namespace: 'PuntoYBanca', name: 'RoundsInterrupted' } as const;

export interface RoundDeadlinesProps {
  stage: string;
  alarmAction: actions.SnsAction;
}

/**
 * Interrupted games (docs/rules.md): when a round opens, open-round (or the cadence step) creates a
 * one-time EventBridge Scheduler schedule in this group for its betting deadline; at that time the
 * scheduler invokes the round-deadline worker, which acts on a round still stuck (void with refunds,
 * or finish the settlement) — emitting RoundsInterrupted, which this alarm watches — or schedules the
 * deadline of the state the round is in now. AWS's scheduler runs the clock; nothing polls.
 */
export class RoundDeadlines extends Construct {
  readonly group: scheduler.CfnScheduleGroup;
  readonly invokeRole: iam.Role;
  readonly alarm: cloudwatch.Alarm;
  /** The variables a function needs to schedule a round's check (@pyb/scheduler createRoundDeadlines). */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: RoundDeadlinesProps) {
    super(scope, id);
    const groupName = `pyb-${props.stage}-round-deadlines`;
    this.group = new scheduler.CfnScheduleGroup(this, 'Group', { name: groupName });
    // By name (the worker is created with the other workers, in a nested stack): no reference back.
    const targetArn = `arn:${Aws.PARTITION}:lambda:${Aws.REGION}:${Aws.ACCOUNT_ID}:function:pyb-${props.stage}-${ROUND_DEADLINE_HANDLER}`;
    this.invokeRole = new iam.Role(this, 'InvokeRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: `EventBridge Scheduler invokes ${ROUND_DEADLINE_HANDLER} (${props.stage})`,
    });
    this.invokeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [targetArn] }),
    );
    this.alarm = alarmOn(this, 'InterruptedAlarm', {
      action: props.alarmAction,
      description: `Punto y Banca ${props.stage}: a round stayed past its deadline (taking bets, not dealt, or settling) and the interrupted-game policy acted on it`,
      metric: new cloudwatch.Metric({
        namespace: INTERRUPTED_METRIC.namespace,
        metricName: INTERRUPTED_METRIC.name,
        dimensionsMap: { Stage: props.stage },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
    });
    this.environment = {
      ROUND_DEADLINE_TARGET_ARN: targetArn,
      ROUND_DEADLINE_ROLE_ARN: this.invokeRole.roleArn,
      ROUND_DEADLINE_GROUP: groupName,
    };
  }

  /** Lets `role` (a function that opens rounds, or the check) create a round's deadline schedule in the group. */
  allowScheduling(role: iam.Role): void {
    allowCreatingSchedules(role, {
      group: this.group,
      invokeRole: this.invokeRole,
      sids: { schedule: 'ScheduleRoundDeadline', pass: 'PassRoundDeadlineRole' },
      why: 'One schedule per round deadline, named after the round and its second: the names are not known at deploy time.',
    });
  }
}
