import type { DataTable } from '@pyb/functions/routes';
import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { DeployConfig } from './config';
import type { DeployedTable } from './data';
import { allowReadingTables, dailyJobSchedule, jobFunction } from './jobs';
import { acknowledge } from './nag';

/** The check's bundle: functions/jobs/check-archive/handler.ts (a scheduler target, not a route). */
export const ARCHIVE_CHECK_HANDLER = 'jobs/check-archive';
/** The check reads the tables → shoes walk of the game table only. */
export const ARCHIVE_CHECK_TABLES: readonly DataTable[] = ['game'];
/** 01:15 UTC: yesterday's last shoes have had over an hour to be archived (the stream alarms at one hour). */
export const ARCHIVE_CHECK_SCHEDULE = 'cron(15 1 * * ? *)';
/** What functions/src/archive-check-job.ts emits: played shoes closed yesterday with no archived bundle. */
export const MISSING_METRIC = { namespace: 'PuntoYBanca', name: 'ShoesMissingFromArchive' } as const;

export interface ArchiveCheckProps {
  config: DeployConfig;
  tables: Record<DataTable, DeployedTable>;
  archive: s3.IBucket;
  /** The archive's object prefix (`shoes/`). */
  prefix: string;
  environment: Record<string, string>;
  alarmTopic: cloudwatch.IAlarmAction;
}

/**
 * Every closed shoe is in the archive (docs/deploy.md, *Retention*): once a day EventBridge Scheduler
 * runs the check over yesterday's closed shoes of each operator (`feedOperators`); a played shoe
 * without its bundle raises ShoesMissingFromArchive and this alarm. The job reads the game table and
 * heads the archive's objects (s3:GetObject, which HeadObject needs) — it writes nothing.
 */
export class ArchiveCheck extends Construct {
  readonly job: NodejsFunction;
  readonly role: iam.Role;
  readonly schedule: scheduler.CfnSchedule;
  readonly deadLetters: sqs.Queue;
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: ArchiveCheckProps) {
    super(scope, id);
    const { config } = props;
    const prefix = `pyb-${config.stage}`;
    const job = jobFunction(this, 'Job', {
      functionName: `${prefix}-check-archive`,
      description: 'Is every shoe closed yesterday in the audit archive? (EventBridge Scheduler, daily)',
      roleDescription: `checks closed shoes are archived (${config.stage})`,
      handler: ARCHIVE_CHECK_HANDLER,
      memorySize: 512,
      // A day of an operator's shoes, one HeadObject each.
      timeout: Duration.minutes(5),
      logRetention: config.logRetentionDays as logs.RetentionDays,
      environment: {
        ...props.environment,
        ARCHIVE_BUCKET: props.archive.bucketName,
        ARCHIVE_LOCK_MODE: config.retentionLockMode,
        RETENTION_DAYS: String(config.retentionDays),
        FEED_OPERATORS: config.feedOperators.join(','),
      },
    });
    this.job = job.fn;
    this.role = job.role;
    allowReadingTables(this.role, props.tables, ARCHIVE_CHECK_TABLES);
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'HeadArchivedBundles',
        actions: ['s3:GetObject'],
        resources: [props.archive.arnForObjects(`${props.prefix}*`)],
      }),
    );
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(props.archive.node.defaultChild as s3.CfnBucket));
    acknowledge(
      this.role,
      `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${props.prefix}*]`,
      'One object per closed shoe (shoes/<operatorId>/<shoeId>.json), named only when the check runs: the ' +
        'grant is s3:GetObject (which HeadObject needs) on the archive prefix of one bucket; it writes nothing.',
    );

    const daily = dailyJobSchedule(this, {
      stage: config.stage,
      name: `${prefix}-check-archive`,
      queueName: `${prefix}-check-archive-dlq`,
      description: "Yesterday's closed shoes, each looked up in the audit archive",
      expression: ARCHIVE_CHECK_SCHEDULE,
      job: this.job,
      what: 'the archive check',
      dlqAlarmDescription: "audit archive check: a day's check could not run after every retry",
      alarmTopic: props.alarmTopic,
    });
    this.schedule = daily.schedule;
    this.deadLetters = daily.deadLetters;

    this.alarms = [
      alarmOn(this, 'MissingAlarm', {
        action: props.alarmTopic,
        description: `audit archive: a closed shoe's bundle is missing from the archive (see the check's log, docs/deploy.md *Retention*) (${config.stage})`,
        metric: new cloudwatch.Metric({
          namespace: MISSING_METRIC.namespace,
          metricName: MISSING_METRIC.name,
          dimensionsMap: { Stage: config.stage },
          statistic: 'Maximum',
          period: Duration.hours(1),
        }),
      }),
      daily.dlqAlarm,
    ];
  }
}
