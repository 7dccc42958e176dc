import type { DataTable } from '@pyb/functions/routes';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { ArchiveCheck } from './archive-check';
import type { DeployConfig } from './config';
import type { DeployedTable } from './data';
import { allowReadingTables, jobFunction, lockedBucket } from './jobs';
import { acknowledge } from './nag';

/** The archiver's bundle: functions/jobs/archive-shoe/handler.ts (a stream consumer, not a route). */
export const ARCHIVER_HANDLER = 'jobs/archive-shoe';
/** Tables the archiver reads (what the audit export reads). */
export const ARCHIVER_TABLES: readonly DataTable[] = ['game', 'wallets', 'audit'];
/** Where bundles go in the archive bucket: `shoes/<operatorId>/<shoeId>.json` (core archiveKey). */
export const ARCHIVE_PREFIX = 'shoes/';
/** Days Backup may change a COMPLIANCE vault lock after it is set (AWS's minimum grace time). */
export const VAULT_LOCK_GRACE_DAYS = 3;

export interface RetentionProps {
  config: DeployConfig;
  tables: Record<DataTable, DeployedTable>;
  /** Every signing-key generation: the export fetches the key each statement names. */
  verifyKeys: readonly kms.IKey[];
  /** What every function gets (table names, key ids, stage). */
  environment: Record<string, string>;
  alarmTopic: cloudwatch.IAlarmAction;
}

/**
 * Keeps game and audit data for the configured retention period and protects it from deletion
 * (docs/deploy.md, *Retention*):
 *
 * - the retained tables (tables.ts) already have deletion protection, no TTL and 35 days of
 *   point-in-time recovery; here a monthly AWS Backup of each goes to a vault whose lock refuses to
 *   delete any recovery point before the period ends (COMPLIANCE: not even the account root);
 * - every closed shoe's audit bundle (the regulator's export, verifiable offline) is archived once to
 *   an S3 bucket with Object Lock, versioning, encryption, TLS only and no public access, by a Lambda
 *   fed by the game table's stream (filtered to shoe items reaching CLOSED), with a DLQ and alarms;
 * - the bucket's own access logs go to a second bucket kept as long as the logs.
 */
export class AuditRetention extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;
  readonly archive: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  readonly archiver: NodejsFunction;
  readonly deadLetters: sqs.Queue;
  readonly check: ArchiveCheck;
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: RetentionProps) {
    super(scope, id);
    // Server access logs are authorised by a bucket policy on the log bucket, not by a legacy ACL
    // (the log bucket keeps ACLs disabled). Set before any child is created, so it applies to them.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const { config } = props;
    const prefix = `pyb-${config.stage}`;
    const period = Duration.days(config.retentionDays);
    const compliance = config.retentionLockMode === 'COMPLIANCE';

    // --- Backups: monthly, each kept (and locked) for the whole period -----------------------------
    this.vault = new backup.BackupVault(this, 'Vault', {
      backupVaultName: `${prefix}-retention`,
      lockConfiguration: {
        minRetention: period,
        // With a grace time the lock becomes COMPLIANCE when it ends and can never be removed.
        ...(compliance && { changeableFor: Duration.days(VAULT_LOCK_GRACE_DAYS) }),
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupPlanName: `${prefix}-retention`,
      backupVault: this.vault,
      backupPlanRules: [
        new backup.BackupPlanRule({
          ruleName: 'MonthlyForTheRetentionPeriod',
          scheduleExpression: events.Schedule.cron({ day: '1', hour: '3', minute: '0' }),
          startWindow: Duration.hours(1),
          completionWindow: Duration.hours(12),
          deleteAfter: period,
        }),
      ],
    });
    const retained = Object.values(props.tables).filter((t) => t.retained);
    const selection = this.plan.addSelection('RetainedTables', {
      backupSelectionName: 'retained-tables',
      resources: retained.map((t) => backup.BackupResource.fromDynamoDbTable(t.table)),
      allowRestores: false,
    });
    acknowledge(
      selection,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      "The role AWS Backup assumes to back up the retained tables. AWS's service-role policy for Backup is " +
        'the documented way to grant it (it changes with the services Backup supports); the role is ' +
        'assumable by backup.amazonaws.com only and the selection names exactly the retained tables.',
    );

    // --- The archive of closed shoes' bundles -------------------------------------------------------
    const logDays =
      config.logRetentionDays === logs.RetentionDays.INFINITE ? undefined : config.logRetentionDays;
    this.accessLogs = new s3.Bucket(this, 'ArchiveAccessLogs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      ...(logDays !== undefined && {
        lifecycleRules: [
          { expiration: Duration.days(logDays), noncurrentVersionExpiration: Duration.days(1) },
        ],
      }),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.accessLogs,
      'AwsSolutions-S1',
      'This bucket is the destination of the audit archive’s server access logs; logging its own access ' +
        'into itself would loop. It holds only those logs, kept as long as the stage keeps logs.',
    );

    this.archive = lockedBucket(this, 'AuditArchive', {
      config,
      accessLogs: this.accessLogs,
      accessLogsPrefix: 'audit-archive/',
    });

    // --- The archiver: game-table stream -> closed shoe -> bundle, once --------------------------------
    this.deadLetters = new sqs.Queue(this, 'ArchiverDlq', {
      queueName: `${prefix}-archiver-dlq`,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(
      this.deadLetters,
      'AwsSolutions-SQS3',
      'This queue is itself the dead-letter destination of the archiver’s stream mapping (records that ' +
        'failed every retry); it is alarmed on its first message and read by an operator, never by code.',
    );

    const archiver = jobFunction(this, 'Archiver', {
      functionName: `${prefix}-archive-shoe`,
      description: "Archives each closed shoe's audit bundle to the locked S3 archive (game-table stream)",
      roleDescription: `archives closed shoes' audit bundles (${config.stage})`,
      handler: ARCHIVER_HANDLER,
      memorySize: 1024,
      // A whole shoe: every round, position and audit event read and written as one bundle.
      timeout: Duration.minutes(5),
      logRetention: config.logRetentionDays as logs.RetentionDays,
      environment: {
        ...props.environment,
        ARCHIVE_BUCKET: this.archive.bucketName,
        ARCHIVE_LOCK_MODE: config.retentionLockMode,
        RETENTION_DAYS: String(config.retentionDays),
      },
    });
    this.archiver = archiver.fn;
    const role = archiver.role;
    allowReadingTables(role, props.tables, ARCHIVER_TABLES);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'PublicKeys',
        actions: ['kms:GetPublicKey'],
        resources: props.verifyKeys.map((k) => k.keyArn),
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'ArchiveWriteOnce',
        // PutObjectRetention: the object's own lock headers. GetObject: HeadObject on a retry.
        actions: ['s3:PutObject', 's3:PutObjectRetention', 's3:GetObject'],
        resources: [this.archive.arnForObjects(`${ARCHIVE_PREFIX}*`)],
      }),
    );

    this.archiver.addEventSource(
      new DynamoEventSource(props.tables.game.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 10,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(this.deadLetters),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: {
              NewImage: {
                sk: { S: lambda.FilterRule.isEqual('SHOE') },
                status: { S: lambda.FilterRule.isEqual('CLOSED') },
              },
            },
          }),
        ],
      }),
    );
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(this.archive.node.defaultChild as s3.CfnBucket));
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${ARCHIVE_PREFIX}*]`,
      'Objects of the archive are one per closed shoe (shoes/<operatorId>/<shoeId>.json), named by the ' +
        'stream record: the grant is the archive prefix of one bucket, and Object Lock plus the bucket ' +
        "policy's deny of deletes keep every written object unchangeable for the retention period.",
    );
    acknowledge(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      'dynamodb:ListStreams, which the Lambda event source mapping needs to find the game table’s stream, ' +
        'has no resource to scope to; the stream reads themselves (DescribeStream, GetRecords, ' +
        'GetShardIterator) are granted on the game table’s stream ARN only.',
    );

    // --- The daily check that the archiver missed nothing ---------------------------------------------
    this.check = new ArchiveCheck(this, 'Check', {
      config,
      tables: props.tables,
      archive: this.archive,
      prefix: ARCHIVE_PREFIX,
      environment: props.environment,
      alarmTopic: props.alarmTopic,
    });

    this.alarms = [
      ...this.check.alarms,
      alarmOn(this, 'DlqAlarm', {
        action: props.alarmTopic,
        description: `archiver: a closed shoe could not be archived after every retry (see the DLQ and docs/deploy.md) (${config.stage})`,
        metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
      }),
      alarmOn(this, 'ErrorsAlarm', {
        action: props.alarmTopic,
        description: `archiver: the function failed (uncaught error or timeout) (${config.stage})`,
        metric: this.archiver.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      }),
      alarmOn(this, 'IteratorAgeAlarm', {
        action: props.alarmTopic,
        description: `archiver: the game-table stream is more than an hour behind (records expire after 24 hours) (${config.stage})`,
        metric: this.archiver.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: Duration.hours(1).toMilliseconds(),
      }),
    ];
  }
}
