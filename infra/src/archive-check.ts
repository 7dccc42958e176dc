import type { DataTable } from '@pyb/functions/routes';
import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { DeployConfig } from './config';
import type { DeployedTable } from './data';
import { TABLE_READ_ACTIONS } from './grants';
import { jobFunction } from './jobs';
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
    for (const name of ARCHIVE_CHECK_TABLES) {
      const table = props.tables[name];
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: `Read${name[0]!.toUpperCase()}${name.slice(1)}`,
          actions: [...TABLE_READ_ACTIONS],
          resources: [table.tableArn, ...table.indexNames.map((i) => `${table.tableArn}/index/${i}`)],
        }),
      );
    }
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

    this.deadLetters = new sqs.Queue(this, 'ScheduleDlq', {
      queueName: `${prefix}-check-archive-dlq`,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(
      this.deadLetters,
      'AwsSolutions-SQS3',
      'This queue is itself the dead-letter destination of the daily archive check (runs that failed every ' +
        'retry); it is alarmed on its first message and read by an operator, never by code.',
    );
    const invokeRole = new iam.Role(this, 'ScheduleRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: `EventBridge Scheduler invokes the archive check (${config.stage})`,
    });
    invokeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.job.functionArn] }),
    );
    invokeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetters.queueArn] }),
    );
    this.schedule = new scheduler.CfnSchedule(this, 'Daily', {
      name: `${prefix}-check-archive`,
      description: "Yesterday's closed shoes, each looked up in the audit archive",
      scheduleExpression: ARCHIVE_CHECK_SCHEDULE,
      scheduleExpressionTimezone: 'UTC',
      flexibleTimeWindow: { mode: 'OFF' },
      target: {
        arn: this.job.functionArn,
        roleArn: invokeRole.roleArn,
        input: JSON.stringify({}),
        retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 6 * 3600 },
        deadLetterConfig: { arn: this.deadLetters.queueArn },
      },
    });

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
      alarmOn(this, 'DlqAlarm', {
        action: props.alarmTopic,
        description: `audit archive check: a day's check could not run after every retry (${config.stage})`,
        metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
      }),
    ];
  }
}
