import type { DataTable } from '@pyb/functions/routes';
import { Duration, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { DeployConfig } from './config';
import type { DeployedTable } from './data';
import { allowReadingTables, dailyJobSchedule, jobFunction, lockedBucket } from './jobs';
import { acknowledge, acknowledgeWildcards } from './nag';

/** The daily job's bundle: functions/jobs/feed-daily/handler.ts (a scheduler target, not a route). */
export const FEED_JOB_HANDLER = 'jobs/feed-daily';
/** Tables the feed reads: shoes, rounds, positions (game); ledger entries and movements (wallets). */
export const FEED_TABLES: readonly DataTable[] = ['game', 'wallets'];
/** Where the files go: `feed/<operatorId>/<YYYY-MM-DD>/<name>` (core feedFileKey). */
export const FEED_PREFIX = 'feed/';
/** 00:30 UTC: yesterday is over, and its last rounds have had half an hour to settle. */
export const FEED_SCHEDULE = 'cron(30 0 * * ? *)';

export interface RegulatorFeedProps {
  config: DeployConfig;
  tables: Record<DataTable, DeployedTable>;
  /** What every function gets (table names, stage). */
  environment: Record<string, string>;
  /** Where the bucket's server access logs go (the archive's access-log bucket). */
  accessLogs: s3.IBucket;
  alarmTopic: cloudwatch.IAlarmAction;
}

/**
 * The regulator data feed (docs/regulators.md, "Regulator data feed"; docs/deploy.md, *Regulator
 * feed*): a bucket of daily files kept for the retention period (Object Lock, versioned, encrypted,
 * TLS only, no public access, access-logged, no deletes), a daily EventBridge Scheduler schedule
 * invoking the job that writes yesterday's files per operator (retries, then a DLQ and an alarm), and
 * read grants for the API's feed routes.
 */
export class RegulatorFeed extends Construct {
  readonly bucket: s3.Bucket;
  readonly job: NodejsFunction;
  readonly role: iam.Role;
  readonly schedule: scheduler.CfnSchedule;
  readonly deadLetters: sqs.Queue;
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: RegulatorFeedProps) {
    super(scope, id);
    const { config } = props;
    const prefix = `pyb-${config.stage}`;

    this.bucket = lockedBucket(this, 'Files', {
      config,
      accessLogs: props.accessLogs,
      accessLogsPrefix: 'regulator-feed/',
      // Multipart uploads the job could not finish (it aborts them; a killed Lambda cannot).
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    // --- The job ------------------------------------------------------------------------------------
    const job = jobFunction(this, 'Job', {
      functionName: `${prefix}-feed-daily`,
      description: "Writes yesterday's regulator feed files per operator (EventBridge Scheduler, daily)",
      roleDescription: `writes the regulator feed's daily files (${config.stage})`,
      handler: FEED_JOB_HANDLER,
      memorySize: 1024,
      // A day of every operator's rounds, streamed: the longest a Lambda runs.
      timeout: Duration.minutes(15),
      logRetention: config.logRetentionDays as logs.RetentionDays,
      environment: {
        ...props.environment,
        FEED_BUCKET: this.bucket.bucketName,
        FEED_OPERATORS: config.feedOperators.join(','),
      },
    });
    this.job = job.fn;
    this.role = job.role;
    allowReadingTables(this.role, props.tables, FEED_TABLES);
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'WriteFeedFiles',
        // PutObject covers CreateMultipartUpload, UploadPart and CompleteMultipartUpload.
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [this.bucket.arnForObjects(`${FEED_PREFIX}*`)],
      }),
    );
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket));
    acknowledge(
      this.role,
      `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${FEED_PREFIX}*]`,
      'The files are named by operator and day (feed/<operatorId>/<YYYY-MM-DD>/<name>), known only when ' +
        'the job runs: the grant is the feed prefix of one bucket, for PutObject and AbortMultipartUpload ' +
        'only; Object Lock and the bucket policy keep every written version for the retention period.',
    );

    // --- The schedule: daily, retried, then dead letters ------------------------------------------
    const daily = dailyJobSchedule(this, {
      stage: config.stage,
      name: `${prefix}-feed-daily`,
      queueName: `${prefix}-feed-dlq`,
      description: "Yesterday's regulator feed files, per operator",
      expression: FEED_SCHEDULE,
      job: this.job,
      what: 'the regulator feed job',
      dlqAlarmDescription:
        "regulator feed: a day's files could not be written after every retry (see the DLQ and docs/deploy.md)",
      alarmTopic: props.alarmTopic,
    });
    this.schedule = daily.schedule;
    this.deadLetters = daily.deadLetters;

    this.alarms = [
      daily.dlqAlarm,
      alarmOn(this, 'ErrorsAlarm', {
        action: props.alarmTopic,
        description: `regulator feed: the job failed (an operator failed, an uncaught error or a timeout) (${config.stage})`,
        metric: this.job.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      }),
    ];
  }

  /** The API's feed routes: list and read the files (s3:ListBucket on the prefix, s3:GetObject). */
  allowRead(role: iam.Role, fn: lambda.Function): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ReadFeedFiles',
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects(`${FEED_PREFIX}*`)],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ListFeedFiles',
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${FEED_PREFIX}*`] } },
      }),
    );
    fn.addEnvironment('FEED_BUCKET', this.bucket.bucketName);
    // By shape: in a function stack of its own, the bucket's ARN is a parameter of that stack.
    acknowledgeWildcards(
      role,
      [new RegExp(`^Resource::<[A-Za-z0-9]+(\\.Arn)?>/${FEED_PREFIX}\\*$`)],
      'The feed routes read any day of the operator the caller may read (the use case checks tenancy): ' +
        's3:GetObject on the feed prefix of one bucket, nothing else.',
    );
  }
}
