import type { DataTable } from '@pyb/functions/routes';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { bundledHandlerCode, LAMBDA_HANDLER } from './bundling';
import type { DeployConfig } from './config';
import type { DeployedTable } from './data';
import { TABLE_READ_ACTIONS } from './grants';
import { acknowledge } from './nag';
import { RUNTIME } from './route-function';

/**
 * The parts every background job of the stack (not an API route) is made of, made one way. The
 * resources are created directly in `scope` under the ids the jobs always had (`<name>Logs`,
 * `<name>Role`, `<name>`), so their CloudFormation logical ids — and a deployed stage — do not change.
 */
export interface JobFunctionProps {
  functionName: string;
  description: string;
  /** What the role is for, in the IAM console. */
  roleDescription: string;
  handler: string;
  memorySize: number;
  timeout: Duration;
  logRetention: logs.RetentionDays;
  environment: Record<string, string>;
}

export interface JobFunction {
  fn: NodejsFunction;
  /** Its own role: it may write its logs and nothing else until the caller grants more. */
  role: iam.Role;
  logGroup: logs.LogGroup;
}

export function jobFunction(scope: Construct, name: string, props: JobFunctionProps): JobFunction {
  const logGroup = new logs.LogGroup(scope, `${name}Logs`, {
    retention: props.logRetention,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const role = new iam.Role(scope, `${name}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: props.roleDescription,
  });
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      sid: 'Logs',
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }),
  );
  const fn = new NodejsFunction(scope, name, {
    functionName: props.functionName,
    description: props.description,
    code: bundledHandlerCode(props.handler),
    handler: LAMBDA_HANDLER,
    runtime: RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    role,
    logGroup,
    environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
  });
  acknowledge(
    fn,
    'AwsSolutions-L1',
    'Pinned to Node.js 22 like every function of the stack: the bundles are built for node22 ' +
      '(infra/src/esbuild-options.ts); a runtime upgrade is a deliberate change, not a synth drift.',
  );
  return { fn, role, logGroup };
}

/** A job reads these tables (and their indexes): one statement per table, `Read<Table>`. */
export function allowReadingTables(
  role: iam.Role,
  tables: Record<DataTable, DeployedTable>,
  names: readonly DataTable[],
): void {
  for (const name of names) {
    const table = tables[name];
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: `Read${name[0]!.toUpperCase()}${name.slice(1)}`,
        actions: [...TABLE_READ_ACTIONS],
        resources: [table.tableArn, ...table.indexNames.map((i) => `${table.tableArn}/index/${i}`)],
      }),
    );
  }
}

export interface DailyJobScheduleProps {
  stage: string;
  /** The schedule's name (`pyb-<stage>-feed-daily`) and its dead-letter queue's. */
  name: string;
  queueName: string;
  description: string;
  /** `cron(…)` in UTC. */
  expression: string;
  job: lambda.IFunction;
  /** What the job is, in the roles' and the alarm's descriptions ("the regulator feed job"). */
  what: string;
  /** The DLQ alarm's description (what a message there means, where to look). */
  dlqAlarmDescription: string;
  alarmTopic: cloudwatch.IAlarmAction;
}

export interface DailyJobSchedule {
  schedule: scheduler.CfnSchedule;
  deadLetters: sqs.Queue;
  dlqAlarm: cloudwatch.Alarm;
}

/**
 * A job run once a day by EventBridge Scheduler, made one way: retried 3 times within 6 hours, then
 * its invocation goes to a dead-letter queue that is alarmed on its first message. Created in `scope`
 * under the ids the jobs always had (`ScheduleDlq`, `ScheduleRole`, `Daily`, `DlqAlarm`), so their
 * logical ids — and a deployed stage — do not change.
 */
export function dailyJobSchedule(scope: Construct, props: DailyJobScheduleProps): DailyJobSchedule {
  const deadLetters = new sqs.Queue(scope, 'ScheduleDlq', {
    queueName: props.queueName,
    retentionPeriod: Duration.days(14),
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  acknowledge(
    deadLetters,
    'AwsSolutions-SQS3',
    `This queue is itself the dead-letter destination of ${props.what}'s daily schedule (runs that failed ` +
      'every retry); it is alarmed on its first message and read by an operator, never by code.',
  );
  const invokeRole = new iam.Role(scope, 'ScheduleRole', {
    assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
    description: `EventBridge Scheduler invokes ${props.what} (${props.stage})`,
  });
  invokeRole.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.job.functionArn] }),
  );
  invokeRole.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [deadLetters.queueArn] }),
  );
  const schedule = new scheduler.CfnSchedule(scope, 'Daily', {
    name: props.name,
    description: props.description,
    scheduleExpression: props.expression,
    scheduleExpressionTimezone: 'UTC',
    flexibleTimeWindow: { mode: 'OFF' },
    target: {
      arn: props.job.functionArn,
      roleArn: invokeRole.roleArn,
      input: JSON.stringify({}),
      retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 6 * 3600 },
      deadLetterConfig: { arn: deadLetters.queueArn },
    },
  });
  const dlqAlarm = alarmOn(scope, 'DlqAlarm', {
    action: props.alarmTopic,
    description: `${props.dlqAlarmDescription} (${props.stage})`,
    metric: deadLetters.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    }),
  });
  return { schedule, deadLetters, dlqAlarm };
}

export interface LockedBucketProps {
  config: Pick<DeployConfig, 'retentionDays' | 'retentionLockMode'>;
  accessLogs: s3.IBucket;
  accessLogsPrefix: string;
  lifecycleRules?: s3.LifecycleRule[];
}

/**
 * A bucket whose objects are kept for the retention period: Object Lock (COMPLIANCE or GOVERNANCE
 * by the stage's setting), versioned, TLS 1.2 only, private, access-logged, retained when the stack
 * goes. Object Lock already refuses to delete or overwrite a locked version; the `NoDeletes` policy
 * also refuses the delete markers that would hide one, to every principal.
 */
export function lockedBucket(scope: Construct, id: string, props: LockedBucketProps): s3.Bucket {
  const { retentionDays, retentionLockMode } = props.config;
  const period = Duration.days(retentionDays);
  const bucket = new s3.Bucket(scope, id, {
    objectLockEnabled: true,
    objectLockDefaultRetention:
      retentionLockMode === 'COMPLIANCE'
        ? s3.ObjectLockRetention.compliance(period)
        : s3.ObjectLockRetention.governance(period),
    versioned: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    serverAccessLogsBucket: props.accessLogs,
    serverAccessLogsPrefix: props.accessLogsPrefix,
    ...(props.lifecycleRules && { lifecycleRules: props.lifecycleRules }),
    removalPolicy: RemovalPolicy.RETAIN,
  });
  bucket.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'NoDeletes',
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
      resources: [bucket.arnForObjects('*')],
    }),
  );
  return bucket;
}
