import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '@pyb/functions/routes';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { parseOperatorIds, readConfig } from '../src/config';
import { FEED_SCHEDULE } from '../src/feed';
import { appTemplate } from './app-template';
import { expectLockedBucket, expectNoDeletesTlsOnly } from './locked-bucket';

// The regulator feed (infra/src/feed.ts): synthesised with the feed's routes only, so only they, the
// job and the archiver are bundled; stack.test.ts covers the whole stack.

const FEED_ROUTES = ROUTES.filter((r) => r.buckets?.includes('feed') || r.handler === 'export-feed');
let outdir = '';
// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
let resources: Record<string, any> = {};
let template: Template;
let violations: unknown[] = [];

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-feed-'));
  const { app, stack } = buildApp({ outdir, context: { feedOperators: 'acme,globex' } }, FEED_ROUTES, []);
  app.synth(); // throws on any unacknowledged cdk-nag finding
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
  violations = report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations);
  template = appTemplate(stack);
  resources = template.toJSON().Resources;
}, 180_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const only = <T>(list: T[]): T => {
  expect(list).toHaveLength(1);
  return list[0]!;
};
const logicalId = (prefix: string, type: string) =>
  only(ofType(type).filter(([id]) => id.startsWith(prefix)))[0];
const statementsOf = (roleId: string) =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
const feedBucket = () => logicalId('FeedFiles', 'AWS::S3::Bucket');

describe('feedOperators (CDK context)', () => {
  it('is a list of operator ids, none by default; anything else is refused', () => {
    expect(readConfig(new App().node).feedOperators).toEqual([]);
    expect(parseOperatorIds('feedOperators', 'acme, globex,acme')).toEqual(['acme', 'globex']);
    expect(() => parseOperatorIds('feedOperators', 'acme,Not An Id')).toThrow(/not an operator id/);
  });
});

describe('the regulator feed bucket', () => {
  it('Object Lock COMPLIANCE for the retention period, versioned, encrypted, no public access, logged, retained', () => {
    expectLockedBucket(resources[feedBucket()], 'regulator-feed/');
  });

  it('refuses deletes to every principal, plain HTTP and TLS below 1.2', () => {
    const policy = only(
      ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === feedBucket()),
    )[1];
    expectNoDeletesTlsOnly(policy.Properties.PolicyDocument.Statement);
  });
});

describe('the daily job', () => {
  const job = () =>
    only(ofType('AWS::Lambda::Function').filter(([, f]) => /feed-daily$/.test(f.Properties.FunctionName)));

  it('is invoked daily at 00:30 UTC by EventBridge Scheduler, retried, then dead-lettered', () => {
    const [jobId] = job();
    const schedule = only(
      ofType('AWS::Scheduler::Schedule').filter(([, s]) => s.Properties.Name === 'pyb-dev-feed-daily'),
    )[1].Properties;
    expect(schedule).toMatchObject({
      ScheduleExpression: FEED_SCHEDULE,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: { 'Fn::GetAtt': [jobId, 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 3 },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId('FeedScheduleDlq', 'AWS::SQS::Queue'), 'Arn'] } },
      },
    });
    const invokeRole = schedule.Target.RoleArn['Fn::GetAtt'][0];
    expect(
      statementsOf(invokeRole)
        .map((s: { Action: string }) => s.Action)
        .sort(),
    ).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
  });

  it('Node 22 on arm64 for up to 15 minutes, the bucket and the operators in its environment', () => {
    const fn = job()[1].Properties;
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 900 });
    expect(fn.Environment.Variables).toMatchObject({
      FEED_BUCKET: { Ref: feedBucket() },
      FEED_OPERATORS: 'acme,globex',
    });
  });

  it('least privilege: its logs, read the game and wallets tables, write (never read or delete) the feed prefix', () => {
    const roleId = job()[1].Properties.Role['Fn::GetAtt'][0];
    const statements = statementsOf(roleId);
    expect(statements.map((s: { Sid: string }) => s.Sid).sort()).toEqual([
      'Logs',
      'ReadGame',
      'ReadWallets',
      'WriteFeedFiles',
    ]);
    const write = statements.find((s: { Sid: string }) => s.Sid === 'WriteFeedFiles');
    expect(write.Action).toEqual(['s3:PutObject', 's3:AbortMultipartUpload']);
    expect(write.Resource).toEqual({
      'Fn::Join': ['', [{ 'Fn::GetAtt': [feedBucket(), 'Arn'] }, '/feed/*']],
    });
    for (const s of statements) expect(JSON.stringify(s.Action)).not.toMatch(/Write|Put(Item)|Delete|Update/);
  });

  it('alarms on its dead letters and its errors', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('Feed'));
    expect(alarms.map(([, a]) => a.Properties.AlarmDescription).sort()).toEqual([
      expect.stringMatching(/^regulator feed: a day's files could not be written/),
      expect.stringMatching(/^regulator feed: the job failed/),
    ]);
    for (const [, a] of alarms) expect(a.Properties.AlarmActions).toHaveLength(1);
  });
});

describe('the feed routes', () => {
  it('the file routes list and read the feed prefix only; the range export reads tables, no bucket', () => {
    const roleOf = (handler: string) =>
      only(
        ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties.FunctionName === `pyb-dev-${handler}`),
      )[1].Properties.Role['Fn::GetAtt'][0];
    for (const handler of ['list-feed-files', 'get-feed-file']) {
      const statements = statementsOf(roleOf(handler));
      expect(statements.find((s: { Sid: string }) => s.Sid === 'ReadFeedFiles')).toMatchObject({
        Action: 's3:GetObject',
      });
      expect(statements.find((s: { Sid: string }) => s.Sid === 'ListFeedFiles')).toMatchObject({
        Action: 's3:ListBucket',
        Condition: { StringLike: { 's3:prefix': ['feed/*'] } },
      });
      expect(JSON.stringify(statements)).not.toMatch(/s3:PutObject|s3:Delete/);
    }
    expect(JSON.stringify(statementsOf(roleOf('export-feed')))).not.toMatch(/s3:/);
  });

  it('cdk-nag (AwsSolutions) finds nothing unacknowledged', () => {
    expect(violations).toEqual([]);
    // The feed's daily run and the archive's daily check (retention.test.ts).
    template.resourceCountIs('AWS::Scheduler::Schedule', 2);
  });
});
