/**
 * Seamless wallets on AWS (infra/src/seamless.ts): the outbox queue and its dead letters, the alarms,
 * one signing secret per seamless operator of the deploy config, the delivery function's and the
 * reconciliation job's least privilege, and the daily schedule. Synthesised with only the seamless
 * workers bundled (stack.test.ts checks the whole stack's grants the same way for every function).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '@pyb/functions/routes';
import { WORKERS } from '@pyb/functions/workers';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { parseOperatorIds } from '../src/config';
import {
  OUTBOX_BATCH_SIZE,
  OUTBOX_MAX_AGE,
  OUTBOX_MAX_CONCURRENCY,
  OUTBOX_MAX_RECEIVE_COUNT,
  RECONCILIATION_SCHEDULE,
  UNRESOLVED_METRIC,
} from '../src/seamless';
import { appTemplate } from './app-template';

// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON, walked by the assertions below
type Cfn = Record<string, any>;

const OPERATORS = ['casino-b', 'acme'];
const SEAMLESS_WORKERS = WORKERS.filter((w) =>
  ['deliver-seamless', 'reconcile-seamless'].includes(w.handler),
);
/** The routes that call a seamless operator's wallet (stack.test.ts has every route's grants). */
const BET = ROUTES.filter((r) => r.operatorWallets);

let outdir: string;
let template: Template;
let resources: Record<string, Cfn>;
/** The same app without seamless operators (and no functions): what a hosted-only stage deploys. */
let hostedOnly: Template;

const idsOfType = (type: string) => Object.keys(resources).filter((id) => resources[id]!.Type === type);
const props = (id: string): Cfn => resources[id]!.Properties;
const refId = (value: unknown): string | undefined => {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
};
const queue = (name: string) =>
  idsOfType('AWS::SQS::Queue').find((id) => props(id).QueueName === `pyb-dev-${name}`)!;
const fn = (handler: string) =>
  idsOfType('AWS::Lambda::Function').find((id) => props(id).FunctionName === `pyb-dev-${handler}`)!;
const secret = (operatorId: string) =>
  idsOfType('AWS::SecretsManager::Secret').find((id) => props(id).Name === `pyb-dev/seamless/${operatorId}`)!;
const statementsOf = (roleId: string): Cfn[] =>
  idsOfType('AWS::IAM::Policy')
    .filter((p) => (props(p).Roles as unknown[]).some((r) => refId(r) === roleId))
    .flatMap((p) => props(p).PolicyDocument.Statement);
const alarms = () => idsOfType('AWS::CloudWatch::Alarm').map(props);

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-seamless-'));
  const built = buildApp(
    { outdir, context: { seamlessOperators: OPERATORS.join(',') } },
    BET,
    SEAMLESS_WORKERS,
  );
  built.app.synth(); // throws on an unacknowledged cdk-nag finding
  template = appTemplate(built.stack);
  resources = template.toJSON().Resources;
  const plain = buildApp({ outdir: join(outdir, 'hosted') }, [], []);
  plain.app.synth();
  hostedOnly = appTemplate(plain.stack);
}, 120_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('deploy config: seamlessOperators', () => {
  it('a comma list or a JSON list of operator ids, sorted, each once; anything else refused', () => {
    expect(parseOperatorIds('seamlessOperators', undefined)).toEqual([]);
    expect(parseOperatorIds('seamlessOperators', '')).toEqual([]);
    expect(parseOperatorIds('seamlessOperators', 'casino-b, acme,acme')).toEqual(['acme', 'casino-b']);
    expect(parseOperatorIds('seamlessOperators', ['zeta', 'acme'])).toEqual(['acme', 'zeta']);
    for (const bad of ['Acme', 'a', '-acme', 'acme_1', 'acme/x']) {
      expect(() => parseOperatorIds('seamlessOperators', bad), bad).toThrow(/seamlessOperators/);
    }
  });
});

describe('outbox queue', () => {
  it('a standard queue, encrypted, TLS only, dead-lettered after OUTBOX_MAX_RECEIVE_COUNT receives', () => {
    const main = props(queue('outbox'));
    expect(main.FifoQueue).toBeUndefined();
    expect(main.SqsManagedSseEnabled).toBe(true);
    expect(main.VisibilityTimeout).toBe(60);
    expect(main.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [queue('outbox-dlq'), 'Arn'] },
      maxReceiveCount: OUTBOX_MAX_RECEIVE_COUNT,
    });
    const dlq = props(queue('outbox-dlq'));
    expect(dlq).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    expect(resources[queue('outbox-dlq')]!.DeletionPolicy).toBe('Retain');
    // Redrive back (a message move task) is allowed from the outbox only.
    expect(dlq.RedriveAllowPolicy.redrivePermission).toBe('byQueue');
    expect(JSON.stringify(dlq.RedriveAllowPolicy.sourceQueueArns)).toContain(':pyb-dev-outbox"');
    for (const name of ['outbox', 'outbox-dlq']) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue(name) }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('consumed by deliver-seamless only, failures reported per message, concurrency bounded', () => {
    const mappings = idsOfType('AWS::Lambda::EventSourceMapping').filter(
      (id) => refId(props(id).EventSourceArn) === queue('outbox'),
    );
    expect(mappings).toHaveLength(1);
    expect(props(mappings[0]!)).toMatchObject({
      FunctionName: { Ref: fn('deliver-seamless') },
      BatchSize: OUTBOX_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: OUTBOX_MAX_CONCURRENCY },
    });
  });

  it('alarms: anything dead-lettered, a delivery waiting past OUTBOX_MAX_AGE; both notify the alarm topic', () => {
    const dlq = alarms().find(
      (a) =>
        a.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        refId(a.Dimensions[0].Value) === queue('outbox-dlq'),
    );
    expect(dlq).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    const age = alarms().find(
      (a) =>
        a.MetricName === 'ApproximateAgeOfOldestMessage' && refId(a.Dimensions[0].Value) === queue('outbox'),
    );
    expect(age).toMatchObject({
      Threshold: OUTBOX_MAX_AGE.toSeconds(),
      ComparisonOperator: 'GreaterThanThreshold',
    });
    const topic = idsOfType('AWS::SNS::Topic')[0]!;
    for (const alarm of [dlq, age]) expect(alarm!.AlarmActions).toEqual([{ Ref: topic }]);
  });

  it('every function knows the queue URL (a name, not a permission)', () => {
    for (const handler of ['deliver-seamless', 'reconcile-seamless']) {
      expect(refId(props(fn(handler)).Environment.Variables.OUTBOX_QUEUE_URL)).toBe(queue('outbox'));
    }
    template.hasOutput('OutboxQueueUrl', { Value: { Ref: queue('outbox') } });
  });
});

describe('operator secrets', () => {
  it('one generated secret per seamless operator, named for its record, retained; none for a hosted-only stage', () => {
    expect(
      idsOfType('AWS::SecretsManager::Secret')
        .map((id) => props(id).Name)
        .sort(),
    ).toEqual(['pyb-dev/seamless/acme', 'pyb-dev/seamless/casino-b']);
    for (const operatorId of OPERATORS) {
      const id = secret(operatorId);
      expect(props(id).GenerateSecretString).toEqual({
        PasswordLength: 48,
        ExcludePunctuation: true,
        IncludeSpace: false,
      });
      expect(resources[id]!.DeletionPolicy).toBe('Retain');
      template.hasOutput(`SeamlessSecret${operatorId === 'acme' ? 'Acme' : 'CasinoB'}`, {
        Value: `pyb-dev/seamless/${operatorId}`,
      });
    }
    expect(Object.keys(hostedOnly.findResources('AWS::SecretsManager::Secret'))).toEqual([]);
    // A hosted-only stage still has the outbox (idle) so that switching an operator needs no new queue.
    hostedOnly.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'pyb-dev-outbox' });
  });

  it('only the functions that call operators’ wallets read the secrets, and only these secrets', () => {
    const readers = idsOfType('AWS::Lambda::Function').filter((f) =>
      statementsOf(refId(props(f).Role)!).some((s) =>
        [s.Action].flat().includes('secretsmanager:GetSecretValue'),
      ),
    );
    // The bet (its debit), reduce and cancel (their refund, tried in the request), leave (the
    // balance) and the delivery (credits, rollbacks); not the reconciliation job.
    const callers = ['cancel-bets', 'deliver-seamless', 'leave-table', 'place-bet', 'reduce-bets'];
    expect(readers.map((f) => props(f).FunctionName).sort()).toEqual(callers.map((h) => `pyb-dev-${h}`));
    for (const handler of callers) {
      const statement = statementsOf(refId(props(fn(handler)).Role)!).find(
        (s) => s.Sid === 'OperatorWalletSecrets',
      )!;
      expect(statement.Action).toBe('secretsmanager:GetSecretValue');
      expect(statement.Resource.map(refId).sort()).toEqual(OPERATORS.map(secret).sort());
    }
  });
});

describe('least privilege of the seamless functions', () => {
  const byAction = (handler: string) => {
    const out: Record<string, string[]> = {};
    for (const s of statementsOf(refId(props(fn(handler)).Role)!)) {
      for (const action of [s.Action].flat()) {
        out[action] = [
          ...(out[action] ?? []),
          ...[s.Resource].flat().map((r) => refId(r) ?? JSON.stringify(r)),
        ];
      }
    }
    return out;
  };

  it('deliver-seamless: its log group, the game table, its queue’s consumption, the secrets; no KMS, no send', () => {
    const actions = byAction('deliver-seamless');
    expect(Object.keys(actions).sort()).toEqual(
      [
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'secretsmanager:GetSecretValue',
      ].sort(),
    );
    for (const action of Object.keys(actions).filter((a) => a.startsWith('sqs:'))) {
      expect(actions[action]).toEqual([queue('outbox')]);
    }
    const game = idsOfType('AWS::DynamoDB::Table').find((id) => props(id).TableName === 'pyb-dev-game')!;
    expect(actions['dynamodb:UpdateItem']!.filter((r) => r === game)).toHaveLength(1);
  });

  it('reconcile-seamless: the game table, sends to the outbox; no secrets (it calls no wallet), 5 minutes', () => {
    const actions = byAction('reconcile-seamless');
    expect(actions['sqs:SendMessage']).toEqual([queue('outbox')]);
    expect(actions['secretsmanager:GetSecretValue']).toBeUndefined();
    expect(Object.keys(actions).filter((a) => a.startsWith('kms:'))).toEqual([]);
    expect(props(fn('reconcile-seamless')).Timeout).toBe(300);
  });
});

describe('daily reconciliation', () => {
  it('one schedule per seamless operator at 00:30 UTC in the stage’s group, invoking the job with { operatorId }', () => {
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'pyb-dev-seamless' });
    // The stage's other schedules (the regulator feed's) live in their own groups.
    const schedules = idsOfType('AWS::Scheduler::Schedule')
      .map(props)
      .filter((s) => s.GroupName === 'pyb-dev-seamless');
    expect(schedules.map((s) => s.Name).sort()).toEqual(['acme', 'casino-b']);
    for (const s of schedules) {
      expect(s).toMatchObject({
        GroupName: 'pyb-dev-seamless',
        ScheduleExpression: RECONCILIATION_SCHEDULE,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
      });
      expect(refId(s.Target.Arn)).toBe(fn('reconcile-seamless'));
      expect(JSON.parse(s.Target.Input)).toEqual({ operatorId: s.Name });
      expect(s.Target.RetryPolicy.MaximumRetryAttempts).toBe(3);
    }
    expect(
      Object.keys(
        hostedOnly.findResources('AWS::Scheduler::Schedule', {
          Properties: { GroupName: 'pyb-dev-seamless' },
        }),
      ),
    ).toEqual([]);
  });

  it('the scheduler’s role (this account only) may invoke the job and nothing else', () => {
    const roleId = refId(
      idsOfType('AWS::Scheduler::Schedule')
        .map(props)
        .find((s) => s.GroupName === 'pyb-dev-seamless')!.Target.RoleArn,
    )!;
    expect(props(roleId).AssumeRolePolicyDocument.Statement[0]).toMatchObject({
      Principal: { Service: 'scheduler.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': expect.anything() } },
    });
    const statements = statementsOf(roleId);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Action: 'lambda:InvokeFunction', Effect: 'Allow' });
    expect(refId(statements[0]!.Resource)).toBe(fn('reconcile-seamless'));
  });

  it('an alarm per operator on the job’s unresolved metric, notifying the alarm topic', () => {
    const unresolved = alarms().filter((a) => a.MetricName === UNRESOLVED_METRIC.name);
    expect(unresolved.map((a) => a.Dimensions.find((d: Cfn) => d.Name === 'Operator').Value).sort()).toEqual([
      'acme',
      'casino-b',
    ]);
    for (const alarm of unresolved) {
      expect(alarm).toMatchObject({
        Namespace: UNRESOLVED_METRIC.namespace,
        Threshold: 1,
        Period: 86400,
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.AlarmActions).toHaveLength(1);
    }
  });
});
