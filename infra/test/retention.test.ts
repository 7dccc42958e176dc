import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOGICAL_TABLES, TABLES } from '@pyb/store-dynamodb/tables';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ARCHIVE_CHECK_SCHEDULE } from '../src/archive-check';
import { logRetentionCovering, readConfig, retentionDaysOf } from '../src/config';
import { appTemplate } from './app-template';
import { expectLockedBucket, expectNoDeletesTlsOnly } from './locked-bucket';

// Retention (docs/deploy.md, *Retention*): synthesised without the route functions (routes = []), so
// only the archiver and the archive check are bundled; stack.test.ts covers the whole stack and cdk-nag over it.

const outdirs: string[] = [];
const synth = (context: Record<string, unknown> = {}) => {
  const outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-retention-'));
  outdirs.push(outdir);
  const { app, stack } = buildApp({ outdir, context }, []);
  app.synth(); // throws on any unacknowledged cdk-nag finding
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
  const template = appTemplate(stack);
  // biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
  const resources = template.toJSON().Resources as Record<string, any>;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  return {
    template,
    resources,
    ofType,
    violations: report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations),
  };
};
type Synth = ReturnType<typeof synth>;

let prod: Synth;
let throwaway: Synth;
beforeAll(() => {
  prod = synth();
  throwaway = synth({ stage: 'qa', retentionYears: 1, retentionLockMode: 'governance' });
}, 180_000);
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** The one element of a list (and the test fails if there are more or none). */
const only = <T>(list: T[]): T => {
  expect(list).toHaveLength(1);
  return list[0]!;
};

const refId = (value: unknown): string | undefined => {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
};

describe('the retention period (CDK context)', () => {
  const config = (context: Record<string, unknown>) => readConfig(new App({ context }).node);

  it('defaults to 10 years = 3653 days, COMPLIANCE locks, logs kept as long', () => {
    expect(config({})).toMatchObject({
      retentionYears: 10,
      retentionDays: 3653,
      retentionLockMode: 'COMPLIANCE',
      logRetentionDays: 3653,
    });
    expect(retentionDaysOf(5)).toBe(1827);
    expect(logRetentionCovering(retentionDaysOf(3))).toBe(1096);
    expect(logRetentionCovering(retentionDaysOf(12))).toBe(9999); // beyond CloudWatch's 10 years: never expire
  });

  it('refuses logs kept shorter than the period, and periods or lock modes that make no sense', () => {
    expect(() => config({ logRetentionDays: 90 })).toThrow(/shorter than the retention period/);
    expect(config({ retentionYears: 1, logRetentionDays: 400 }).logRetentionDays).toBe(400);
    expect(() => config({ retentionYears: 0 })).toThrow(/retentionYears/);
    expect(() => config({ retentionYears: 100 })).toThrow(/retentionYears/);
    expect(() => config({ retentionLockMode: 'legal-hold' })).toThrow(/retentionLockMode/);
  });
});

describe('backups of the retained tables', () => {
  it('point-in-time recovery for 35 days on every retained table; the game table streams its new images', () => {
    for (const logical of LOGICAL_TABLES.filter((t) => TABLES[t].retained)) {
      prod.template.hasResourceProperties('AWS::DynamoDB::Table', {
        TableName: `pyb-dev-${logical}`,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 },
        DeletionProtectionEnabled: true,
      });
    }
    prod.template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: 'pyb-dev-game',
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    const streaming = prod.ofType('AWS::DynamoDB::Table').filter(([, t]) => t.Properties.StreamSpecification);
    expect(streaming.map(([, t]) => t.Properties.TableName)).toEqual(['pyb-dev-game']);
  });

  it('a vault locked for the period (COMPLIANCE after 3 days of grace), retained with the stack', () => {
    prod.template.hasResource('AWS::Backup::BackupVault', {
      Properties: {
        BackupVaultName: 'pyb-dev-retention',
        LockConfiguration: { MinRetentionDays: 3653, ChangeableForDays: 3 },
      },
      DeletionPolicy: 'Retain',
    });
    // GOVERNANCE: no grace time, so the lock stays removable by a privileged principal.
    throwaway.template.hasResourceProperties('AWS::Backup::BackupVault', {
      BackupVaultName: 'pyb-qa-retention',
      LockConfiguration: { MinRetentionDays: 366, ChangeableForDays: Match.absent() },
    });
  });

  it('a monthly backup of exactly the retained tables, each kept for the period', () => {
    prod.template.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: {
        BackupPlanRule: [
          Match.objectLike({
            ScheduleExpression: 'cron(0 3 1 * ? *)',
            Lifecycle: { DeleteAfterDays: 3653 },
            TargetBackupVault: {
              'Fn::GetAtt': [Match.stringLikeRegexp('^RetentionVault'), 'BackupVaultName'],
            },
          }),
        ],
      },
    });
    const [, selection] = only(prod.ofType('AWS::Backup::BackupSelection'));
    const tables = selection.Properties.BackupSelection.Resources.map(
      (r: unknown) => prod.resources[refId(r)!].Properties.TableName,
    );
    expect(tables.sort()).toEqual(
      LOGICAL_TABLES.filter((t) => TABLES[t].retained)
        .map((t) => `pyb-dev-${t}`)
        .sort(),
    );
    expect(throwaway.template.toJSON().Resources).toBeDefined();
    throwaway.template.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: { BackupPlanRule: [Match.objectLike({ Lifecycle: { DeleteAfterDays: 366 } })] },
    });
  });
});

describe('the archive bucket of closed shoes', () => {
  const archive = (s: Synth) => {
    // The regulator feed's bucket is locked too (feed.test.ts): the archive is Retention's.
    const found = s
      .ofType('AWS::S3::Bucket')
      .filter(([id, b]) => b.Properties.ObjectLockEnabled && id.startsWith('Retention'));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('Object Lock COMPLIANCE for the period, versioned, encrypted, no public access, access-logged, retained', () => {
    const [id, bucket] = archive(prod);
    expectLockedBucket(bucket, 'audit-archive/');
    const logs = prod.resources[refId(bucket.Properties.LoggingConfiguration.DestinationBucketName)!];
    expect(logs.Properties.LifecycleConfiguration.Rules[0].ExpirationInDays).toBe(3653);
    expect(id).toMatch(/^RetentionAuditArchive/);
    expect(archive(throwaway)[1].Properties.ObjectLockConfiguration.Rule.DefaultRetention).toEqual({
      Mode: 'GOVERNANCE',
      Days: 366,
    });
  });

  it('TLS 1.2+ only, and no principal may delete an object or a version', () => {
    const [id] = archive(prod);
    const [, policy] = only(
      prod.ofType('AWS::S3::BucketPolicy').filter(([, p]) => refId(p.Properties.Bucket) === id),
    );
    expectNoDeletesTlsOnly(policy.Properties.PolicyDocument.Statement);
  });
});

describe('the archiver', () => {
  const archiver = () => {
    const [id, fn] = only(
      prod
        .ofType('AWS::Lambda::Function')
        .filter(([, f]) => f.Properties.FunctionName === 'pyb-dev-archive-shoe'),
    );
    return { id, fn: fn.Properties };
  };

  it('Node 22 on arm64, its bundle, the archive and the period in its environment, logs kept the period', () => {
    const { fn } = archiver();
    expect(fn).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: 300,
    });
    expect(fn.Environment.Variables).toMatchObject({
      KEY_SERVICE: 'kms',
      ARCHIVE_LOCK_MODE: 'COMPLIANCE',
      RETENTION_DAYS: '3653',
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(refId(fn.Environment.Variables.ARCHIVE_BUCKET)).toMatch(/^RetentionAuditArchive/);
    expect(prod.resources[refId(fn.LoggingConfig.LogGroup)!].Properties.RetentionInDays).toBe(3653);
  });

  it('fed by the game table stream, only shoe items whose new image is CLOSED; partial failures, bisect, DLQ', () => {
    const { id } = archiver();
    const [, mapping] = only(prod.ofType('AWS::Lambda::EventSourceMapping'));
    expect(refId(mapping.Properties.FunctionName)).toBe(id);
    expect(mapping.Properties.EventSourceArn['Fn::GetAtt'][1]).toBe('StreamArn');
    expect(prod.resources[refId(mapping.Properties.EventSourceArn)!].Properties.TableName).toBe(
      'pyb-dev-game',
    );
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
    });
    expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: { NewImage: { sk: { S: ['SHOE'] }, status: { S: ['CLOSED'] } } },
    });
    const dlq = prod.resources[refId(mapping.Properties.DestinationConfig.OnFailure.Destination)!];
    expect(dlq).toMatchObject({ Type: 'AWS::SQS::Queue', Properties: { SqsManagedSseEnabled: true } });
  });

  it('least privilege: read the three tables, public keys, write-once on the archive prefix, its stream and DLQ', () => {
    const { fn } = archiver();
    const roleId = refId(fn.Role)!;
    const statements = prod
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: unknown) => refId(r) === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((s: { Action: string | string[] }) => [s.Action].flat()).sort();
    expect(actions).toEqual(
      [
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        ...['Game', 'Wallets', 'Audit'].flatMap(() => [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
        ]),
        'kms:GetPublicKey',
        's3:PutObject',
        's3:PutObjectRetention',
        's3:GetObject',
        'sqs:SendMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'dynamodb:ListStreams',
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
      ].sort(),
    );
    // No write to any table, no delete anywhere.
    expect(actions.filter((a: string) => /Delete|PutItem|UpdateItem|BypassGovernance/.test(a))).toEqual([]);
    const s3 = statements.find((s: { Sid?: string }) => s.Sid === 'ArchiveWriteOnce');
    expect(s3.Resource['Fn::Join'][1][1]).toBe('/shoes/*');
    expect(prod.resources[roleId].Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('alarms to the alarm topic: a message in the DLQ, a function error, a stream an hour behind', () => {
    const topic = prod.ofType('AWS::SNS::Topic')[0]![0];
    const alarms = prod
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => String(a.AlarmDescription).startsWith('archiver:'));
    expect(alarms.map((a) => [a.Namespace, a.MetricName, a.Threshold]).sort()).toEqual(
      [
        ['AWS/Lambda', 'Errors', 1],
        ['AWS/Lambda', 'IteratorAge', 3_600_000],
        ['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 1],
      ].sort(),
    );
    for (const a of alarms) expect(a.AlarmActions.map(refId)).toEqual([topic]);
  });
});

describe('the daily archive check', () => {
  const check = () => {
    const [id, fn] = only(
      prod
        .ofType('AWS::Lambda::Function')
        .filter(([, f]) => f.Properties.FunctionName === 'pyb-dev-check-archive'),
    );
    return { id, fn: fn.Properties };
  };

  it('its bundle on Node 22, the archive and the operators in its environment, run daily by the scheduler with retries and a DLQ', () => {
    const { id, fn } = check();
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 300 });
    expect(refId(fn.Environment.Variables.ARCHIVE_BUCKET)).toMatch(/^RetentionAuditArchive/);
    expect(fn.Environment.Variables).toHaveProperty('FEED_OPERATORS');
    const [, schedule] = only(
      prod
        .ofType('AWS::Scheduler::Schedule')
        .filter(([, s]) => s.Properties.Name === 'pyb-dev-check-archive'),
    );
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: ARCHIVE_CHECK_SCHEDULE,
      ScheduleExpressionTimezone: 'UTC',
      Target: { RetryPolicy: { MaximumRetryAttempts: 3 } },
    });
    expect(refId(schedule.Properties.Target.Arn)).toBe(id);
    expect(prod.resources[refId(schedule.Properties.Target.DeadLetterConfig.Arn)!].Type).toBe(
      'AWS::SQS::Queue',
    );
  });

  it('least privilege: reads the game table and heads the archive prefix; writes and deletes nothing', () => {
    const roleId = refId(check().fn.Role)!;
    const statements = prod
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: unknown) => refId(r) === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((s: { Action: string | string[] }) => [s.Action].flat()).sort();
    expect(actions).toEqual(
      [
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        's3:GetObject',
      ].sort(),
    );
    const head = statements.find((s: { Sid?: string }) => s.Sid === 'HeadArchivedBundles');
    expect(refId(head.Resource['Fn::Join'][1][0])).toMatch(/^RetentionAuditArchive/);
    expect(head.Resource['Fn::Join'][1][1]).toBe('/shoes/*');
  });

  it('alarms to the alarm topic on a missing bundle (ShoesMissingFromArchive of its stage) and on a run that failed every retry', () => {
    const topic = prod.ofType('AWS::SNS::Topic')[0]![0];
    const alarms = prod
      .ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => String(a.AlarmDescription).startsWith('audit archive'));
    expect(alarms.map((a) => [a.Namespace, a.MetricName, a.Threshold]).sort()).toEqual(
      [
        ['PuntoYBanca', 'ShoesMissingFromArchive', 1],
        ['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 1],
      ].sort(),
    );
    const missing = alarms.find((a) => a.MetricName === 'ShoesMissingFromArchive');
    expect(missing.Dimensions).toEqual([{ Name: 'Stage', Value: 'dev' }]);
    for (const a of alarms) expect(a.AlarmActions.map(refId)).toEqual([topic]);
  });
});

describe('cdk-nag over the retention constructs', () => {
  it('no finding is left unacknowledged (the synth would have thrown) and the report is clean', () => {
    expect(prod.violations).toEqual([]);
    expect(throwaway.violations).toEqual([]);
  });

  it('outputs the archive bucket, the vault, the DLQ and the period', () => {
    for (const name of ['AuditArchiveBucket', 'BackupVaultName', 'ArchiverDlqUrl']) {
      expect(prod.template.findOutputs(name)).not.toEqual({});
    }
    prod.template.hasOutput('RetentionDays', { Value: '3653' });
  });
});
