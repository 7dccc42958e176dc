import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROUTES, type Route } from '@pyb/functions/routes';
import { WORKERS, type Worker } from '@pyb/functions/workers';
import { LOGICAL_TABLES, TABLES } from '@pyb/store-dynamodb/tables';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app';
import { DEFAULT_ROUTE_THROTTLE, MODEL_1000_TABLES, routeThrottles } from '../src/capacity';
import { FUNCTION_STACKS, functionStackOf, STACK_RESOURCE_BUDGET } from '../src/function-stacks';
import { LIVE_PUBLISHERS } from '../src/live';
import { TOKEN_SIGN_SID } from '../src/player-token-key';
import { BATCH_SIZE, MAX_CONCURRENCY, MAX_RECEIVE_COUNT } from '../src/settlement';
import { appTemplate, stackTemplates } from './app-template';

/** Every deployed function: one per route, one per queue consumer. */
const FUNCTIONS: readonly (Route | Worker)[] = [...ROUTES, ...WORKERS];
/** What SqsEventSource grants a consumer on its queue. */
const CONSUME = [
  'sqs:ChangeMessageVisibility',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
  'sqs:ReceiveMessage',
];

// One synth per configuration: the default (generation 1 of the signing key) and a stage that has
// rotated it twice. Bundling every handler with esbuild is the slow part; both synths write to the same
// outdir, so the second reuses the first's bundles (the CDK caches staged assets by outdir and source).

// Written out here rather than imported from src/grants.ts, so the test checks the mapping.
const READ = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'];
/** The audit table: new items only (no update, no delete of what was written). */
const APPEND = [...READ, 'dynamodb:PutItem'].sort();
const WRITE = [
  ...READ,
  'dynamodb:ConditionCheckItem',
  'dynamodb:DeleteItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
].sort();
/** Which keys an action is granted on, for a stage at signing-key generation `n`. */
const KMS_KEYS: Record<string, (n: number) => string[]> = {
  'kms:Encrypt': () => ['key:seal'],
  'kms:Decrypt': () => ['key:seal'],
  // Only the newest generation signs; every generation verifies what it signed.
  'kms:Sign': (n) => [`key:signing-gen${n}`],
  'kms:GetPublicKey': (n) => Array.from({ length: n }, (_, i) => `key:signing-gen${i + 1}`),
  'kms:GenerateRandom': () => ['*'],
};
/** Logical ids of the signing-key generations (app.test.ts pins them to what stacks have deployed). */
const SIGNING_KEY_IDS = [
  'StatementSigningKey1132329E',
  'StatementSigningKeyGen23E1461ED',
  'StatementSigningKeyGen3DB44EDEB',
];

const DEADLINE_SIDS = [
  'ScheduleCloseDeadline',
  'PassCloseDeadlineRole',
  'ScheduleRoundDeadline',
  'PassRoundDeadlineRole',
];

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; [k: string]: unknown }>;

/** Logical id of a `{ Ref }` or `{ Fn::GetAtt: [id, ...] }`. */
const refId = (value: unknown): string | undefined => {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
};

interface Permissions {
  /** resource name -> sorted actions */
  byResource: Record<string, string[]>;
  statements: Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown; Effect: string }>;
  managedPolicies: unknown;
}

/** One synthesised app and the walks over its template that the assertions below share. */
class Synthesis {
  readonly template: Template;
  readonly resources: Resources;
  /** Each template of the stage as synthesised (stackTemplates): the stage's stack and the nested ones. */
  readonly stacks: Record<string, { Resources: Resources }>;
  /** cdk-nag's findings in this synth's validation report. */
  readonly violations: unknown[];

  constructor(
    readonly built: BuiltApp,
    readonly signingGeneration: number,
  ) {
    built.app.synth(); // throws if cdk-nag reports anything unacknowledged
    // Read now: the next synth into the same outdir writes its own report over this one.
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    this.violations = report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations);
    this.template = appTemplate(built.stack);
    this.stacks = stackTemplates(built.stack);
    this.resources = this.template.toJSON().Resources as Resources;
  }

  idsOfType(type: string): string[] {
    return Object.keys(this.resources).filter((id) => this.resources[id]!.Type === type);
  }

  // biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON, walked by the assertions below
  props(id: string): Record<string, any> {
    return this.resources[id]!.Properties as Record<string, unknown>;
  }

  functionId(handler: string): string {
    const id = this.idsOfType('AWS::Lambda::Function').find(
      (f) => this.props(f).FunctionName === `pyb-dev-${handler}`,
    );
    if (!id) throw new Error(`no function for ${handler}`);
    return id;
  }

  /**
   * A friendly name for an IAM resource: `table:game`, `table:game/index/gsi1`, `key:seal`,
   * `key:signing-gen2`, `logs:own`, `*`.
   */
  nameResource(resource: unknown, ownLogGroup: string): string {
    if (resource === '*') return '*';
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    // An ARN written with the pseudo parameters (arn:<AWS::Partition>:iot:<AWS::Region>:…).
    if (join && typeof join[1][0] === 'string') {
      return join[1]
        .map((part) => (typeof part === 'string' ? part : `<${(part as { Ref: string }).Ref}>`))
        .join(join[0]);
    }
    if (join) {
      const [base, ...rest] = join[1];
      return this.nameResource(base, ownLogGroup) + rest.join('');
    }
    const id = refId(resource);
    if (!id) return JSON.stringify(resource);
    const r = this.resources[id]!;
    if (r.Type === 'AWS::DynamoDB::Table')
      return `table:${String(this.props(id).TableName).replace('pyb-dev-', '')}`;
    if (r.Type === 'AWS::KMS::Key') {
      if (this.props(id).KeySpec !== 'ECC_NIST_P256') return 'key:seal';
      if (id.startsWith('PlayerTokenKey')) return 'key:player-tokens';
      const generation = SIGNING_KEY_IDS.indexOf(id) + 1;
      return generation > 0 ? `key:signing-gen${generation}` : `key:signing-unknown:${id}`;
    }
    if (r.Type === 'AWS::Logs::LogGroup') return id === ownLogGroup ? 'logs:own' : `logs:${id}`;
    if (r.Type === 'AWS::S3::Bucket' && id.startsWith('FeedFiles')) return 'bucket:feed';
    if (r.Type === 'AWS::SQS::Queue')
      return `queue:${String(this.props(id).QueueName).replace('pyb-dev-', '')}`;
    return id;
  }

  permissionsOf(handler: string): Permissions {
    const fn = this.functionId(handler);
    const roleId = refId(this.props(fn).Role)!;
    const ownLogGroup = refId(this.props(fn).LoggingConfig.LogGroup)!;
    const policies = this.idsOfType('AWS::IAM::Policy').filter((p) =>
      (this.props(p).Roles as unknown[]).some((r) => refId(r) === roleId),
    );
    // The deadline scheduling grants are asserted on their own (the shoe close and round deadline describes).
    const statements = policies
      .flatMap((p) => this.props(p).PolicyDocument.Statement)
      .filter((s: { Sid?: string }) => !DEADLINE_SIDS.includes(s.Sid ?? ''));
    const byResource: Record<string, Set<string>> = {};
    for (const s of statements) {
      for (const resource of [s.Resource].flat()) {
        const name = this.nameResource(resource, ownLogGroup);
        byResource[name] ??= new Set();
        for (const action of [s.Action].flat()) byResource[name].add(action);
      }
    }
    return {
      byResource: Object.fromEntries(Object.entries(byResource).map(([k, v]) => [k, [...v].sort()])),
      statements,
      managedPolicies: this.props(roleId).ManagedPolicyArns,
    };
  }

  /** Handlers whose role holds `action` on some resource. */
  holders(action: string): string[] {
    return FUNCTIONS.filter((r) =>
      Object.values(this.permissionsOf(r.handler).byResource).flat().includes(action),
    )
      .map((r) => r.handler)
      .sort();
  }

  /** What routes.ts (workers.ts) says the function may do, in the shape of `permissionsOf(...).byResource`. */
  expectedPermissions(route: Route | Worker): Record<string, string[]> {
    const out: Record<string, string[]> = { 'logs:own': ['logs:CreateLogStream', 'logs:PutLogEvents'] };
    for (const [table, access] of Object.entries(route.data)) {
      const actions = access === 'write' ? WRITE : access === 'append' ? APPEND : READ;
      out[`table:${table}`] = actions;
      const def = TABLES[table as keyof typeof TABLES];
      for (const index of [...def.globalIndexes, ...def.localIndexes]) {
        out[`table:${table}/index/${index.name}`] = actions;
      }
    }
    for (const op of route.kms) {
      for (const key of KMS_KEYS[`kms:${op}`]!(this.signingGeneration)) {
        out[key] = [...(out[key] ?? []), `kms:${op}`].sort();
      }
    }
    // Player tokens: verified with the token key's public key; the session functions sign with it.
    if ('tokens' in route && route.tokens) {
      out['key:player-tokens'] =
        route.tokens === 'sign' ? ['kms:GetPublicKey', 'kms:Sign'] : ['kms:GetPublicKey'];
    }
    for (const queue of route.queues ?? []) out[`queue:${queue}`] = ['sqs:SendMessage'];
    // The live events (infra/src/live.ts): the functions that change a table publish to its topics.
    if ((LIVE_PUBLISHERS as readonly string[]).includes(route.handler))
      out[LIVE_TOPICS_ARN] = ['iot:Publish'];
    // The cadence (infra/src/cadence.ts): who starts a round's execution.
    if (route.cadence) out[CADENCE_ARN] = ['states:StartExecution'];
    // The feed's files: read the prefix, list the bucket (only under the prefix: asserted in feed.test.ts).
    if ('buckets' in route && route.buckets?.includes('feed')) {
      out['bucket:feed/feed/*'] = ['s3:GetObject'];
      out['bucket:feed'] = ['s3:ListBucket'];
    }
    if ('consumes' in route) {
      out[`queue:${route.consumes}`] = [
        ...new Set([...(out[`queue:${route.consumes}`] ?? []), ...CONSUME]),
      ].sort();
    }
    return out;
  }

  assetDir(handler: string): string {
    return join(
      outdir,
      `asset.${String(this.props(this.functionId(handler)).Code.S3Key).replace(/\.zip$/, '')}`,
    );
  }
}

/** The live topics and the cadence state machine, as nameResource names them. */
const LIVE_TOPICS_ARN = 'arn:<AWS::Partition>:iot:<AWS::Region>:<AWS::AccountId>:topic/pyb/v1/*';
const CADENCE_ARN = 'arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:stateMachine:pyb-dev-cadence';

let outdir: string;
/** The default configuration: signing-key generation 1. */
let base: Synthesis;
/** `signingKeyGeneration: 3`: generations 1 and 2 retired, 3 current. */
let rotated: Synthesis;

/**
 * Imports a bundle in a fresh Node process with the deployed function's settings (its environment,
 * source maps on, no AWS credentials or network needed to load) and runs `code` with the module as `m`.
 * Returns what `code` wrote after MARK (logs may come before it).
 */
function runInNode(bundle: string, code: string, handler: string): string {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'SILENT' };
  for (const [name, value] of Object.entries(base.props(base.functionId(handler)).Environment.Variables)) {
    env[name] = typeof value === 'string' ? value : `${name}-from-the-stack`;
  }
  env.SEED_KEY_ID = 'arn:aws:kms:us-east-1:123456789012:key/seal';
  env.SIGNING_KEY_ID = 'arn:aws:kms:us-east-1:123456789012:key/signing';
  Object.assign(env, { AWS_REGION: 'us-east-1', AWS_LAMBDA_FUNCTION_NAME: `pyb-dev-${handler}` });
  delete env.NODE_OPTIONS; // passed as a flag below
  const script = `const MARK = '@@'; const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); ${code}`;
  const out = execFileSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env,
  });
  return out.slice(out.lastIndexOf('@@') + 2);
}

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-stack-'));
  let started = performance.now();
  base = new Synthesis(buildApp({ outdir }), 1);
  const baseMs = performance.now() - started;
  started = performance.now();
  rotated = new Synthesis(buildApp({ outdir, context: { signingKeyGeneration: 3 } }), 3);
  const rotatedMs = performance.now() - started;
  console.log(
    `synth with ${ROUTES.length} bundled functions: ${(baseMs / 1000).toFixed(1)} s; ` +
      `again at signing-key generation 3 (bundles reused): ${(rotatedMs / 1000).toFixed(1)} s`,
  );
  // Bundling twenty handlers shares two cores with the rest of the suite in CI: a generous limit.
}, 300_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('tables', () => {
  it.each(LOGICAL_TABLES)('%s: keys and indexes from tables.ts, on demand', (logical) => {
    const def = TABLES[logical];
    const [id, ...others] = base
      .idsOfType('AWS::DynamoDB::Table')
      .filter((t) => base.props(t).TableName === `pyb-dev-${logical}`);
    expect(others).toEqual([]);
    const table = base.props(id!);
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.KeySchema).toEqual([
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' }] : []),
    ]);
    expect((table.GlobalSecondaryIndexes ?? []).map((i: { IndexName: string }) => i.IndexName)).toEqual(
      def.globalIndexes.map((i) => i.name),
    );
    expect((table.LocalSecondaryIndexes ?? []).map((i: { IndexName: string }) => i.IndexName)).toEqual(
      def.localIndexes.map((i) => i.name),
    );
    for (const index of [...(table.GlobalSecondaryIndexes ?? []), ...(table.LocalSecondaryIndexes ?? [])]) {
      expect(index.Projection).toEqual({ ProjectionType: 'ALL' });
    }
    expect(table.TimeToLiveSpecification).toEqual(
      def.ttlAttribute ? { AttributeName: def.ttlAttribute, Enabled: true } : undefined,
    );
  });

  it('money, game, audit and principals: point-in-time recovery, deletion protection, retained', () => {
    const retained = LOGICAL_TABLES.filter((t) => TABLES[t].retained);
    expect(retained).toEqual(expect.arrayContaining(['game', 'wallets', 'audit', 'principals']));
    for (const logical of retained) {
      base.template.hasResource('AWS::DynamoDB::Table', {
        Properties: Match.objectLike({
          TableName: `pyb-dev-${logical}`,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
  });

  it('idempotency records expire by TTL and are disposable (tables.ts: retained = false)', () => {
    base.template.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        TableName: 'pyb-dev-idempotency',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
        DeletionProtectionEnabled: false,
      }),
      DeletionPolicy: 'Delete',
    });
  });
});

describe('KMS keys', () => {
  it('seed sealing: symmetric, rotated yearly, retained', () => {
    base.template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({
        KeySpec: Match.absent(),
        KeyUsage: Match.absent(),
        EnableKeyRotation: true,
        RotationPeriodInDays: 365,
        PendingWindowInDays: 30,
      }),
      DeletionPolicy: 'Retain',
    });
    base.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-dev-seed-seal' });
  });

  it('statement signing: ECC_NIST_P256 for SIGN_VERIFY, retained', () => {
    base.template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({
        KeySpec: 'ECC_NIST_P256',
        KeyUsage: 'SIGN_VERIFY',
        EnableKeyRotation: Match.absent(),
        PendingWindowInDays: 30,
      }),
      DeletionPolicy: 'Retain',
    });
    base.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-dev-statement-signing' });
    base.template.resourceCountIs('AWS::KMS::Key', 3);
  });

  it('player tokens: an ECC_NIST_P256 key of their own; only the session functions may sign with it', () => {
    const [id, ...others] = base.idsOfType('AWS::KMS::Key').filter((k) => k.startsWith('PlayerTokenKey'));
    expect(others).toEqual([]);
    expect(base.props(id!)).toMatchObject({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    base.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-dev-player-tokens' });
    const deny = (base.props(id!).KeyPolicy.Statement as Array<Record<string, unknown>>).find(
      (s) => s.Sid === TOKEN_SIGN_SID,
    );
    expect(deny).toMatchObject({
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:Sign',
      Resource: '*',
    });
    const roles = JSON.stringify((deny!.Condition as Record<string, unknown>).ArnNotEquals);
    const signers = ROUTES.filter((r) => r.tokens === 'sign').map((r) => r.handler);
    expect(signers.sort()).toEqual(['open-session', 'refresh-session']);
    for (const handler of signers) expect(roles).toContain(`role/pyb-dev-${handler}`);
    expect(roles.match(/role\/pyb-dev-/g)).toHaveLength(signers.length);
    for (const route of ROUTES) {
      const env = base.props(base.functionId(route.handler)).Environment.Variables;
      expect(base.nameResource(env.TOKEN_KEY_ID, '')).toBe('key:player-tokens');
      expect(env.LAUNCH_URL).toBe('/play');
    }
  });
});

describe('a stage at signing-key generation 3', () => {
  const signingKeys = () =>
    rotated
      .idsOfType('AWS::KMS::Key')
      .filter((id) => rotated.props(id).KeySpec === 'ECC_NIST_P256' && !id.startsWith('PlayerTokenKey'));
  const [gen1, , gen3] = SIGNING_KEY_IDS;
  // The routes and the settle-batch worker (it signs the round heads it finishes).
  const VERIFIERS = FUNCTIONS.filter((r) => r.kms.includes('GetPublicKey')).map((r) => r.handler);

  it('three signing keys, all retained; generation 1 keeps its logical id and the properties that would replace it', () => {
    expect(signingKeys().sort()).toEqual([...SIGNING_KEY_IDS].sort());
    for (const id of SIGNING_KEY_IDS) {
      expect(rotated.resources[id]).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
    const { KeySpec, KeyUsage, PendingWindowInDays } = rotated.props(gen1!);
    expect({ KeySpec, KeyUsage, PendingWindowInDays }).toEqual({
      KeySpec: base.props(gen1!).KeySpec,
      KeyUsage: base.props(gen1!).KeyUsage,
      PendingWindowInDays: base.props(gen1!).PendingWindowInDays,
    });
    expect(base.props(gen1!).KeySpec).toBe('ECC_NIST_P256');
  });

  it('generations 1 and 2 are retired: verify only, and their key policy refuses Sign to everyone', () => {
    for (const id of SIGNING_KEY_IDS) {
      const retired = id !== gen3;
      const statements = rotated.props(id).KeyPolicy.Statement as Array<Record<string, unknown>>;
      // The current generation's own deny (Sign only by the signing roles) is asserted in 'least privilege the key policies enforce'.
      const denies = statements.filter((s) => s.Effect === 'Deny' && s.Sid !== 'SignOnlyBySigningFunctions');
      expect(denies).toEqual(
        retired
          ? [
              {
                Sid: 'RetiredVerifyOnly',
                Effect: 'Deny',
                Principal: { AWS: '*' },
                Action: 'kms:Sign',
                Resource: '*',
              },
            ]
          : [],
      );
      expect(String(rotated.props(id).Description).includes('retired: verify only')).toBe(retired);
    }
  });

  it('the alias, SIGNING_KEY_ID of every function and the SigningKeyArn output name generation 3', () => {
    rotated.template.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: 'alias/pyb-dev-statement-signing',
      TargetKeyId: { 'Fn::GetAtt': [gen3, 'Arn'] },
    });
    rotated.template.hasOutput('SigningKeyArn', { Value: { 'Fn::GetAtt': [gen3, 'Arn'] } });
    for (const route of ROUTES) {
      const env = rotated.props(rotated.functionId(route.handler)).Environment.Variables;
      expect(rotated.nameResource(env.SIGNING_KEY_ID, '')).toBe('key:signing-gen3');
    }
  });

  it('the signing functions sign with generation 3 only; nothing may sign with a retired key', () => {
    const signers = [
      'cadence-open-shoe',
      'cadence-step',
      'close-betting',
      'close-shoe',
      'contribute-seed',
      'open-round',
      'open-shoe',
      'resolve-round',
      'round-deadline',
      'set-table-availability',
      'settle-batch',
      'void-round',
    ];
    // The session functions sign player tokens, with the token key only (KMS keys, 'player tokens').
    expect(rotated.holders('kms:Sign')).toEqual([...signers, 'open-session', 'refresh-session'].sort());
    for (const handler of ['open-session', 'refresh-session']) {
      const signable = Object.entries(rotated.permissionsOf(handler).byResource)
        .filter(([, actions]) => actions.includes('kms:Sign'))
        .map(([resource]) => resource);
      expect(signable).toEqual(['key:player-tokens']);
    }
    for (const handler of signers) {
      const signable = Object.entries(rotated.permissionsOf(handler).byResource)
        .filter(([, actions]) => actions.includes('kms:Sign'))
        .map(([resource]) => resource);
      expect(signable).toEqual(['key:signing-gen3']);
    }
  });

  it('every function with GetPublicKey in routes.ts reads the public key of all three generations', () => {
    expect(VERIFIERS).toEqual(
      expect.arrayContaining(['replay-round', 'player-rounds', 'get-signing-key', 'open-shoe', 'close-shoe']),
    );
    // Those that verify player tokens read the token key's public key (KMS keys, 'player tokens').
    const tokenReaders = ROUTES.filter((r) => r.tokens).map((r) => r.handler);
    expect(rotated.holders('kms:GetPublicKey')).toEqual([...new Set([...VERIFIERS, ...tokenReaders])].sort());
    for (const handler of VERIFIERS) {
      const readable = Object.entries(rotated.permissionsOf(handler).byResource)
        .filter(([, actions]) => actions.includes('kms:GetPublicKey'))
        .map(([resource]) => resource)
        .filter((resource) => resource !== 'key:player-tokens')
        .sort();
      expect(readable).toEqual(['key:signing-gen1', 'key:signing-gen2', 'key:signing-gen3']);
    }
  });
});

describe('functions', () => {
  it('one function per routes.ts and workers.ts entry, the archiver and the archive check (retention.test.ts), the feed job (feed.test.ts) and the CDK handler that uploads the web app, nothing else', () => {
    const ids = base.idsOfType('AWS::Lambda::Function');
    const upload = ids.filter((f) => f.startsWith('CustomCDKBucketDeployment'));
    expect(upload).toHaveLength(1);
    expect(
      ids
        .filter((f) => !upload.includes(f))
        .map((f) => base.props(f).FunctionName)
        .sort(),
    ).toEqual(
      [
        ...FUNCTIONS.map((r) => `pyb-dev-${r.handler}`),
        'pyb-dev-archive-shoe',
        'pyb-dev-check-archive',
        'pyb-dev-check-shoe-closed',
        'pyb-dev-feed-daily',
        'pyb-dev-live-authorizer',
      ].sort(),
    );
  });

  it.each(FUNCTIONS.map((r) => r.handler))('%s: Node 22 on arm64, 1 GB, ESM bundle, env', (handler) => {
    const fn = base.props(base.functionId(handler));
    expect(fn.Runtime).toBe('nodejs22.x');
    expect(fn.Architectures).toEqual(['arm64']);
    expect(fn.MemorySize).toBe(1024);
    expect(fn.Handler).toBe('index.handler');
    const own = WORKERS.find((w) => w.handler === handler)?.timeoutSeconds;
    expect(fn.Timeout).toBe(
      own ?? (['resolve-round', 'void-round', 'close-shoe', 'settle-batch'].includes(handler) ? 28 : 10),
    );
    const env = fn.Environment.Variables;
    expect(env).toMatchObject({
      STAGE: 'dev',
      NODE_ENV: 'production',
      KEY_SERVICE: 'kms',
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(base.nameResource(env.SEED_KEY_ID, '')).toBe('key:seal');
    expect(base.nameResource(env.SIGNING_KEY_ID, '')).toBe('key:signing-gen1');
    expect(base.nameResource(env.SETTLEMENT_QUEUE_URL, '')).toBe('queue:settlement');
    expect(base.nameResource(env.OUTBOX_QUEUE_URL, '')).toBe('queue:outbox');
    for (const logical of LOGICAL_TABLES) {
      expect(base.nameResource(env[`TABLE_${logical.toUpperCase()}`], '')).toBe(`table:${logical}`);
    }
  });

  it.each(FUNCTIONS.map((r) => r.handler))('%s: the deployed bundle is self-contained ESM', (handler) => {
    const dir = base.assetDir(handler);
    expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code).toMatch(/export\s*\{[^}]*\bas handler\s*\}|export\s*\{\s*handler\s*\}/);
    // Every import left in the bundle and its chunks (static, dynamic or require, as esbuild parses
    // it) is a Node built-in or a chunk of the same asset: the AWS SDK and everything else is inside.
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
    const builtins = new Set(builtinModules);
    for (const file of files) {
      const { metafile } = buildSync({
        entryPoints: [join(dir, file)],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'node',
        format: 'esm',
        external: ['*'],
        logLevel: 'silent',
      });
      const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
      const outside = imports.filter(
        (s) =>
          !s.startsWith('node:') &&
          !builtins.has(s) &&
          !(s.startsWith('./') && files.includes(join(dirname(file), s))),
      );
      expect(outside, file).toEqual([]);
    }
  });

  it.each(FUNCTIONS.map((r) => r.handler))(
    '%s: the bundle loads in a fresh Node and exports handler',
    (handler) => {
      const out = runInNode(
        join(base.assetDir(handler), 'index.mjs'),
        'process.stdout.write(MARK + typeof m.handler)',
        handler,
      );
      expect(out).toBe('function');
    },
  );

  it('the get-openapi bundle answers an API Gateway v2 event with the OpenAPI document', () => {
    const path = '/v1/openapi.json';
    const event = {
      version: '2.0',
      routeKey: `GET ${path}`,
      rawPath: path,
      rawQueryString: '',
      headers: { accept: 'application/json' },
      requestContext: {
        accountId: '123456789012',
        apiId: 'api',
        domainName: 'api.example.com',
        domainPrefix: 'api',
        http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'infra-test' },
        requestId: 'req-1',
        routeKey: `GET ${path}`,
        stage: '$default',
        time: '29/Nov/2026:00:00:00 +0000',
        timeEpoch: 0,
      },
      isBase64Encoded: false,
    };
    const out = runInNode(
      join(base.assetDir('get-openapi'), 'index.mjs'),
      `const r = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'req-1', functionName: 'pyb-dev-get-openapi', ` +
        "functionVersion: '$LATEST', invokedFunctionArn: 'arn', memoryLimitInMB: '1024', " +
        'getRemainingTimeInMillis: () => 10000 }); process.stdout.write(MARK + JSON.stringify(r))',
      'get-openapi',
    );
    const result = JSON.parse(out);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).openapi).toMatch(/^3\.1\./);
  });

  it('each function logs to its own group, kept the retention period (10 years by default)', () => {
    for (const route of FUNCTIONS) {
      const group = refId(base.props(base.functionId(route.handler)).LoggingConfig.LogGroup)!;
      expect(base.props(group).RetentionInDays).toBe(3653);
    }
    for (const id of base.idsOfType('AWS::Logs::LogGroup')) expect(base.props(id).RetentionInDays).toBe(3653);
  });
});

describe.each([
  ['signing-key generation 1', () => base],
  ['signing-key generation 3', () => rotated],
] as const)('least privilege (IAM per function), %s', (_, synthesis) => {
  it.each(FUNCTIONS.map((r) => [r.handler, r] as const))(
    '%s: exactly the grants of routes.ts / workers.ts',
    (__, route) => {
      const perms = synthesis().permissionsOf(route.handler);
      expect(perms.byResource).toEqual(synthesis().expectedPermissions(route));
      expect(perms.managedPolicies).toBeUndefined();
    },
  );

  it('no wildcard actions; Resource "*" only for kms:GenerateRandom', () => {
    for (const route of FUNCTIONS) {
      for (const s of synthesis().permissionsOf(route.handler).statements) {
        expect(s.Effect).toBe('Allow');
        for (const action of [s.Action].flat()) expect(action).not.toContain('*');
        if ([s.Resource].flat().includes('*')) expect(s.Action).toBe('kms:GenerateRandom');
      }
    }
  });

  it('only resolve-round, void-round (a dealer-error void burns the coup cards), close-shoe and cadence-step can decrypt seeds; place-bet has no KMS access but the player-token public key', () => {
    expect(synthesis().holders('kms:Decrypt')).toEqual([
      'cadence-step',
      'close-shoe',
      'resolve-round',
      'void-round',
    ]);
    const { byResource } = synthesis().permissionsOf('place-bet');
    const kmsOf = Object.entries(byResource).filter(([, actions]) =>
      actions.some((a) => a.startsWith('kms:')),
    );
    expect(kmsOf).toEqual([['key:player-tokens', ['kms:GetPublicKey']]]);
  });

  it('only the functions that sign statements, heads and closes (and player tokens) can sign, and only with ECDSA_SHA_256', () => {
    expect(synthesis().holders('kms:Sign')).toEqual([
      'cadence-open-shoe',
      'cadence-step',
      'close-betting',
      'close-shoe',
      'contribute-seed',
      'open-round',
      'open-session',
      'open-shoe',
      'refresh-session',
      'resolve-round',
      'round-deadline',
      'set-table-availability',
      'settle-batch',
      'void-round',
    ]);
    for (const route of FUNCTIONS) {
      for (const s of synthesis().permissionsOf(route.handler).statements) {
        if ([s.Action].flat().includes('kms:Sign')) {
          expect(s.Action).toBe('kms:Sign');
          expect(s.Condition).toEqual({ StringEquals: { 'kms:SigningAlgorithm': 'ECDSA_SHA_256' } });
        } else if (s.Action === 's3:ListBucket') {
          // Listing the feed bucket is confined to its prefix.
          expect(s.Condition).toEqual({ StringLike: { 's3:prefix': ['feed/*'] } });
        } else {
          expect(s.Condition).toBeUndefined();
        }
      }
    }
  });

  it('only the shoe openers (open-shoe, cadence-open-shoe) seal seeds', () => {
    expect(synthesis().holders('kms:Encrypt')).toEqual(['cadence-open-shoe', 'open-shoe']);
  });

  it('the settle function: game, wallets, audit appended, its queue, Sign with the current key only; no principals, no idempotency', () => {
    const byResource = synthesis().permissionsOf('settle-batch').byResource;
    const gen = synthesis().signingGeneration;
    expect(byResource).toEqual({
      'logs:own': ['logs:CreateLogStream', 'logs:PutLogEvents'],
      'table:game': WRITE,
      'table:game/index/gsi1': WRITE,
      'table:wallets': WRITE,
      'table:audit': APPEND,
      'queue:settlement': [...CONSUME, 'sqs:SendMessage'].sort(),
      // A seamless position's payout or refund: a credit handed to the outbox.
      'queue:outbox': ['sqs:SendMessage'],
      // The batch that finishes a round tells the table's watchers and each player his payout (live events).
      [LIVE_TOPICS_ARN]: ['iot:Publish'],
      // The batch that finishes a round signs its head: Sign with the current generation, GetPublicKey of all.
      ...Object.fromEntries(
        Array.from({ length: gen }, (_, i) => [
          `key:signing-gen${i + 1}`,
          i + 1 === gen ? ['kms:GetPublicKey', 'kms:Sign'] : ['kms:GetPublicKey'],
        ]),
      ),
    });
    // Only resolve, void, the cadence's deal, the interrupted-game check and the settle function may hand
    // batches to the settlement queue (the reconciliation job re-sends stuck seamless transactions to
    // the outbox); nothing reads a DLQ.
    const senders = (queue: string) =>
      FUNCTIONS.filter((r) =>
        synthesis().permissionsOf(r.handler).byResource[`queue:${queue}`]?.includes('sqs:SendMessage'),
      )
        .map((r) => r.handler)
        .sort();
    expect(senders('settlement')).toEqual([
      'cadence-step',
      'resolve-round',
      'round-deadline',
      'settle-batch',
      'void-round',
    ]);
    expect(senders('outbox')).toEqual(
      FUNCTIONS.filter((r) => r.queues?.includes('outbox'))
        .map((r) => r.handler)
        .sort(),
    );
    expect(senders('outbox')).toContain('reconcile-seamless');
    expect(synthesis().holders('sqs:ReceiveMessage')).toEqual(['deliver-seamless', 'settle-batch']);
  });

  it('the bet path: no KMS but the player-token public key, no audit table, no HTTP idempotency table (the outbox: a seamless rollback or refund)', () => {
    for (const handler of ['place-bet', 'reduce-bets', 'cancel-bets']) {
      expect(synthesis().permissionsOf(handler).byResource['key:player-tokens']).toEqual([
        'kms:GetPublicKey',
      ]);
      expect(Object.keys(synthesis().permissionsOf(handler).byResource).sort()).toEqual(
        [
          'key:player-tokens',
          'table:sessions',
          'logs:own',
          'table:game',
          'table:game/index/gsi1',
          'table:principals',
          'table:wallets',
          'queue:outbox',
          // a bet is told to its player alone, the staked totals to the table (live events)
          ...((LIVE_PUBLISHERS as readonly string[]).includes(handler) ? [LIVE_TOPICS_ARN] : []),
        ].sort(),
      );
    }
  });

  it('reading functions cannot write', () => {
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      const actions = Object.values(synthesis().permissionsOf(route.handler).byResource).flat();
      expect(actions.filter((a) => a.startsWith('dynamodb:') && !READ.includes(a))).toEqual([]);
    }
  });
});

describe('HTTP API', () => {
  it('one route per routes.ts entry, to its own function, authorised in the handler', () => {
    const routeIds = base.idsOfType('AWS::ApiGatewayV2::Route');
    expect(routeIds.map((r) => base.props(r).RouteKey).sort()).toEqual(
      ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    );
    for (const route of ROUTES) {
      const id = routeIds.find((r) => base.props(r).RouteKey === `${route.method} ${route.path}`)!;
      expect(base.props(id).AuthorizationType).toBe('NONE');
      const target = base.props(id).Target['Fn::Join'][1];
      const integration = base.props(refId(target[1])!);
      expect(integration.IntegrationType).toBe('AWS_PROXY');
      expect(integration.PayloadFormatVersion).toBe('2.0');
      expect(refId(integration.IntegrationUri)).toBe(base.functionId(route.handler));
    }
  });

  it('one auto-deployed $default stage with access logs and throttling', () => {
    base.template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    base.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_ROUTE_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_ROUTE_THROTTLE.burstLimit,
      },
    });
  });

  it('per-route throttles from the capacity model of 1,000 tables', () => {
    const [stage] = base.idsOfType('AWS::ApiGatewayV2::Stage');
    const settings = base.props(stage!).RouteSettings as Record<string, Record<string, number>>;
    const model = routeThrottles(MODEL_1000_TABLES);
    const keyOf = (handler: string) => {
      const r = ROUTES.find((x) => x.handler === handler)!;
      return `${r.method} ${r.path}`;
    };
    expect(Object.keys(settings).sort()).toEqual(Object.keys(model).map(keyOf).sort());
    for (const [handler, t] of Object.entries(model)) {
      expect(settings[keyOf(handler)]).toEqual({
        ThrottlingRateLimit: t.rateLimit,
        ThrottlingBurstLimit: t.burstLimit,
      });
    }
    // The model's figures: 1,000 tables, 50 positions x 1.5 calls per 15 s betting window, x1.5.
    expect(settings['POST /v1/rounds/{roundId}/bets']).toEqual({
      ThrottlingRateLimit: 7_500,
      ThrottlingBurstLimit: 5_000,
    });
    expect(settings['POST /v1/rounds/{roundId}/resolve']!.ThrottlingRateLimit).toBe(100);
  });
});

const queue = (name: string) => {
  const id = base.idsOfType('AWS::SQS::Queue').find((q) => base.props(q).QueueName === `pyb-dev-${name}`);
  if (!id) throw new Error(`no queue ${name}`);
  return id;
};

describe('settlement queue', () => {
  it('a standard queue, encrypted, with a dead-letter queue after a few receives', () => {
    const main = base.props(queue('settlement'));
    expect(main.FifoQueue).toBeUndefined();
    expect(main.SqsManagedSseEnabled).toBe(true);
    expect(main.VisibilityTimeout).toBe(28 * 6);
    expect(main.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [queue('settlement-dlq'), 'Arn'] },
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    expect(base.props(queue('settlement-dlq'))).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    expect(base.resources[queue('settlement-dlq')]!.DeletionPolicy).toBe('Retain');
  });

  it('both queues refuse requests without TLS', () => {
    for (const name of ['settlement', 'settlement-dlq']) {
      base.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue(name) }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('consumed by the settle function, reporting failures per message, concurrency bounded', () => {
    // The queue's one consumer (the other mapping is the archiver's, on the game table's stream:
    // retention.test.ts).
    const [mapping, ...others] = base
      .idsOfType('AWS::Lambda::EventSourceMapping')
      .filter((id) => refId(base.props(id).EventSourceArn) === queue('settlement'));
    expect(others).toEqual([]);
    expect(base.props(mapping!)).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queue('settlement'), 'Arn'] },
      FunctionName: { Ref: base.functionId('settle-batch') },
      BatchSize: BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: MAX_CONCURRENCY },
    });
  });

  it('every function knows the queue (a name, not a permission: see the grants)', () => {
    for (const fn of FUNCTIONS) {
      const env = base.props(base.functionId(fn.handler)).Environment.Variables;
      expect(refId(env.SETTLEMENT_QUEUE_URL)).toBe(queue('settlement'));
    }
  });
});

describe('alarms', () => {
  const alarmsOn = (metric: string) =>
    base
      .idsOfType('AWS::CloudWatch::Alarm')
      .map((id) => base.props(id))
      .filter((a) => a.MetricName === metric);

  it('an Errors alarm on every function, notifying the alarm topic', () => {
    const alarms = alarmsOn('Errors');
    const topic = base.idsOfType('AWS::SNS::Topic')[0];
    expect(
      alarms.map((a) => refId(a.Dimensions.find((d: { Name: string }) => d.Name === 'FunctionName').Value)),
    ).toEqual(expect.arrayContaining(FUNCTIONS.map((r) => base.functionId(r.handler))));
    // Plus the Errors alarms of the archiver (retention.test.ts), the feed job (feed.test.ts) and the
    // live events' authorizer (live.test.ts).
    expect(alarms).toHaveLength(FUNCTIONS.length + 3);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1 });
      expect(alarm.AlarmActions.map(refId)).toEqual([topic]);
    }
  });

  it('one Throttles alarm on the Region (no function has reserved concurrency), notifying the alarm topic', () => {
    // The live authorizer's own Throttles alarm is live.test.ts's.
    const alarms = alarmsOn('Throttles').filter((a) => a.Dimensions === undefined);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1 });
    expect(alarms[0]!.Dimensions).toBeUndefined();
    expect(alarms[0]!.AlarmActions.map(refId)).toEqual([base.idsOfType('AWS::SNS::Topic')[0]]);
    const functions = base.idsOfType('AWS::Lambda::Function').map((id) => base.props(id));
    expect(functions.filter((f) => f.ReservedConcurrentExecutions !== undefined)).toEqual([]);
  });

  // CloudFormation refuses a template of more than 500 resources: the stage is split so that none holds
  // more than 300 ('room to grow' below); all of them together are what this file's assertions read.
  it('the stage as a whole: more than one template could hold, so it is split', () => {
    expect(Object.keys(base.resources).length).toBeGreaterThan(STACK_RESOURCE_BUDGET);
    expect(Object.keys(base.stacks)).toHaveLength(1 + FUNCTION_STACKS.length);
  });

  const topic = () => base.idsOfType('AWS::SNS::Topic')[0];

  it('p99 latency of every route (its own EMF Latency metric), notifying the alarm topic', () => {
    const alarms = alarmsOn('Latency');
    expect(alarms).toHaveLength(ROUTES.length);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({ Namespace: 'PuntoYBanca', ExtendedStatistic: 'p99' });
      expect(alarm.AlarmActions.map(refId)).toEqual([topic()]);
    }
    const bets = alarms.find((a) =>
      a.Dimensions.some(
        (d: { Name: string; Value: string }) => d.Name === 'route' && d.Value === 'place-bet',
      ),
    );
    expect(bets?.Threshold).toBe(500);
  });

  it('a table lock-out (the TablesLocked EMF metric of open-shoe, resolve-round and close-shoe) pages at the first one', () => {
    const alarms = alarmsOn('TablesLocked');
    expect(
      alarms.map((a) => a.Dimensions.find((d: { Name: string }) => d.Name === 'route').Value).sort(),
    ).toEqual(['close-shoe', 'open-shoe', 'resolve-round']);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({ Namespace: 'PuntoYBanca', Statistic: 'Sum', Threshold: 1 });
      expect(alarm.AlarmActions.map(refId)).toEqual([topic()]);
    }
    // close-shoe's: a broken audit chain found at close (the table locked, source AUDIT).
    const broken = alarms.find((a) =>
      a.Dimensions.some((d: { Name: string; Value: string }) => d.Value === 'close-shoe'),
    );
    expect(broken?.AlarmDescription).toContain('audit chain broken');
  });

  it('a discard after the beacon (the DiscardsAfterBeacon EMF metric of void-round and close-shoe) pages at the first one', () => {
    const alarms = alarmsOn('DiscardsAfterBeacon');
    expect(
      alarms.map((a) => a.Dimensions.find((d: { Name: string }) => d.Name === 'route').Value).sort(),
    ).toEqual(['close-shoe', 'void-round']);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({
        Namespace: 'PuntoYBanca',
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.AlarmActions.map(refId)).toEqual([topic()]);
      expect(alarm.AlarmDescription).toContain('after the beacon round');
    }
  });

  it('DynamoDB throttling on every table', () => {
    const alarms = base
      .idsOfType('AWS::CloudWatch::Alarm')
      .map((id) => base.props(id))
      .filter((a) => String(a.AlarmDescription).startsWith('DynamoDB '));
    expect(alarms).toHaveLength(LOGICAL_TABLES.length);
    for (const alarm of alarms) {
      const names = alarm.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).map(
        (m: { MetricStat: { Metric: { MetricName: string } } }) => m.MetricStat.Metric.MetricName,
      );
      expect(names.sort()).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
      expect(alarm).toMatchObject({ Threshold: 1 });
      expect(alarm.AlarmActions.map(refId)).toEqual([topic()]);
    }
  });

  it('the dead-letter queue and the settlement backlog', () => {
    // The settlement DLQ's (the archiver's dead letters have their own: retention.test.ts).
    const dlq = alarmsOn('ApproximateNumberOfMessagesVisible').filter((a) =>
      a.Dimensions.some(
        (d: { Name: string; Value: unknown }) =>
          d.Name === 'QueueName' && refId(d.Value) === queue('settlement-dlq'),
      ),
    );
    expect(dlq).toHaveLength(1);
    expect(dlq[0]).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, Statistic: 'Maximum' });
    expect(dlq[0]!.AlarmActions.map(refId)).toEqual([topic()]);
    // One backlog alarm per queue: settlement, and the seamless outbox (its own tests: seamless.test.ts).
    const age = alarmsOn('ApproximateAgeOfOldestMessage');
    expect(age.map((a) => base.nameResource(a.Dimensions[0].Value, '')).sort()).toEqual([
      'queue:outbox',
      'queue:settlement',
    ]);
    for (const alarm of age) expect(alarm.AlarmActions.map(refId)).toEqual([topic()]);
  });

  it('one dashboard: bets, settled positions, latency, DynamoDB, the queue', () => {
    const [dashboard, ...others] = base.idsOfType('AWS::CloudWatch::Dashboard');
    expect(others).toEqual([]);
    const body = JSON.stringify(base.props(dashboard!).DashboardBody);
    for (const metric of [
      'BetCalls',
      'SettledPositions',
      'Latency',
      'ConsumedWriteCapacityUnits',
      'WriteThrottleEvents',
      'ApproximateNumberOfMessagesVisible',
      'ApproximateAgeOfOldestMessage',
    ]) {
      expect(body).toContain(metric);
    }
  });

  it('API 5xx alarm', () => {
    const [alarm, ...others] = alarmsOn('5xx');
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({ Namespace: 'AWS/ApiGateway', Statistic: 'Sum', Threshold: 1 });
    expect(alarm!.AlarmActions).toHaveLength(1);
  });

  it('the alarm topic requires TLS', () => {
    base.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe.each([
  ['signing-key generation 1', () => base],
  ['signing-key generation 3', () => rotated],
] as const)('cdk-nag (AwsSolutions), %s', (_, synthesis) => {
  it('the synth passed validation: no findings, no CDK errors or warnings', () => {
    // CDK writes the report on every synth; a clean one has no plugin findings.
    expect(synthesis().violations).toEqual([]);
    const annotations = Annotations.fromStack(synthesis().built.stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges only the expected findings, each with its reason', () => {
    const acknowledged: string[] = [];
    for (const node of synthesis().built.stack.node.findAll()) {
      for (const entry of node.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [rule, reason] of Object.entries(entry.data as Record<string, string>)) {
          expect(reason.length).toBeGreaterThan(60);
          // Where: the construct under the stack, or under its nested function stack (function-stacks.ts).
          const [, first, second] = node.node.path.split('/');
          const where = first?.endsWith('Functions') ? second : first;
          // A resource of another stack is a parameter of a nested stack: named by what it is here.
          const finding = rule
            .replace(/^Annotation::/, '')
            .replace(/<referenceto[A-Za-z0-9]*FeedFiles[A-Za-z0-9]*>/, `<${feedBucket()}.Arn>`);
          acknowledged.push(`${finding} ${where}`);
        }
      }
    }
    const expected = [
      ...ROUTES.map((r) => `AwsSolutions-APIG4 ${pascal(r.handler)}Route`),
      ...FUNCTIONS.map((r) => `AwsSolutions-L1 ${pascal(r.handler)}`),
      // kms:GenerateRandom cannot be scoped to a key: one acknowledgement per role that has it.
      ...FUNCTIONS.filter((r) => r.kms.includes('GenerateRandom')).map(
        (r) => `AwsSolutions-IAM5[Resource::*] ${pascal(r.handler)}`,
      ),
      // infra/src/cadence.ts: the state machine's log delivery and X-Ray have no resource to scope to.
      'AwsSolutions-IAM5[Resource::*] Cadence',
      // infra/src/live.ts: iot:Publish on the live topics' prefix, per publishing function; the authorizer's runtime.
      ...LIVE_PUBLISHERS.filter((h) => FUNCTIONS.some((r) => r.handler === h)).map(
        (h) => `AwsSolutions-IAM5[Resource::${LIVE_TOPICS_ARN}] ${pascal(h)}`,
      ),
      'AwsSolutions-L1 Live',
      // The two tables of short-lived records that expire by TTL: idempotency, sessions.
      'AwsSolutions-DDB3 Data',
      'AwsSolutions-DDB3 Data',
      // infra/src/retention.ts: Backup's service role, the access-log bucket, the DLQ, the archiver.
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup] Retention',
      'AwsSolutions-S1 Retention',
      'AwsSolutions-SQS3 Retention',
      'AwsSolutions-L1 Retention',
      'AwsSolutions-IAM5[Resource::<RetentionAuditArchiveCD33B004.Arn>/shoes/*] Retention',
      // the archive check (retention.test.ts): its schedule's DLQ, its runtime, HeadObject on shoes/*
      'AwsSolutions-SQS3 Retention',
      'AwsSolutions-L1 Retention',
      'AwsSolutions-IAM5[Resource::<RetentionAuditArchiveCD33B004.Arn>/shoes/*] Retention',
      'AwsSolutions-IAM5[Resource::*] Retention',
      // infra/src/feed.ts: the job's DLQ, runtime and prefix grant; the file routes' read of the prefix.
      'AwsSolutions-SQS3 Feed',
      'AwsSolutions-L1 Feed',
      `AwsSolutions-IAM5[Resource::<${feedBucket()}.Arn>/feed/*] Feed`,
      ...ROUTES.filter((r) => r.buckets?.includes('feed')).map(
        (r) => `AwsSolutions-IAM5[Resource::<${feedBucket()}.Arn>/feed/*] ${pascal(r.handler)}`,
      ),
      // The web app (infra/src/site.ts): its log bucket, CloudFront defaults, the CDK's upload handler.
      'AwsSolutions-S1 Web',
      'AwsSolutions-CFR1 Web',
      'AwsSolutions-CFR2 Web',
      'AwsSolutions-CFR4 Web',
      // aws-cdk-lib's own: the access-log bucket gets the LogDeliveryWrite ACL (cfn-lint W3045: AccessControl).
      'CloudFormation-Validate::W3045 Web',
      ...[
        'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'IAM5[Action::s3:GetObject*]',
        'IAM5[Action::s3:GetBucket*]',
        'IAM5[Action::s3:List*]',
        'IAM5[Action::s3:DeleteObject*]',
        'IAM5[Action::s3:Abort*]',
        'IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
        'IAM5[Resource::<WebBucketE51352C0.Arn>/*]',
        'IAM5[Resource::*]',
        'L1',
      ].map((rule) => `AwsSolutions-${rule} ${uploadHandler()}`),
      // The CloudTrail bucket (key-policies.ts), the close-deadline check function, and the one
      // schedule per shoe resolve or the cadence step (a deal) or void (a dealer-error burn) may
      // create (shoe-deadlines.ts); the one schedule per round deadline of the functions that open
      // rounds and of the check itself (round-deadlines.ts).
      'AwsSolutions-S1 KeyGuard',
      'AwsSolutions-L1 CloseDeadlines',
      ...['ResolveRound', 'VoidRound', 'CadenceStep'].map(
        (fn) =>
          `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/pyb-dev-close-deadlines/*] ${fn}`,
      ),
      ...['OpenRound', 'CadenceStep', 'RoundDeadline'].map(
        (fn) =>
          `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/pyb-dev-round-deadlines/*] ${fn}`,
      ),
    ];
    expect(acknowledged.sort()).toEqual(expected.sort());
  });
});

/** The logical id of the regulator feed's bucket. */
function feedBucket(): string {
  return base.idsOfType('AWS::S3::Bucket').find((id) => id.startsWith('FeedFiles'))!;
}

/** The id of the CDK's BucketDeployment singleton (a child of the stack, named by a hash of its settings). */
function uploadHandler(): string {
  const handler = base.built.stack.node.children.find((c) =>
    c.node.id.startsWith('Custom::CDKBucketDeployment'),
  );
  return handler!.node.id;
}

// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON, walked by the assertions below
type Cfn = Record<string, any>;

/** The role names in a Deny's `ArnNotEquals aws:PrincipalArn` (each `arn:<partition>:iam::<account>:role/<name>`). */
function exemptRoles(statement: Cfn): string[] {
  return [statement.Condition.ArnNotEquals['aws:PrincipalArn']].flat().map((arn: unknown) => {
    const parts = (arn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    expect(parts.slice(0, 4)).toEqual([
      'arn:',
      { Ref: 'AWS::Partition' },
      ':iam::',
      { Ref: 'AWS::AccountId' },
    ]);
    expect(parts).toHaveLength(5);
    return String(parts[4]).replace(/^:role\//, '');
  });
}

// key-guard.test.ts asserts the key guard statement by statement and alarm by alarm; here, on the
// whole app, that its exemptions are the roles routes.ts and workers.ts give each operation.
describe('least privilege the key policies enforce (key-policies.ts), on the whole app', () => {
  const roleOf = (handler: string, s: Synthesis = base) =>
    s.props(refId(s.props(s.functionId(handler)).Role)!).RoleName as string;
  const rolesWith = (op: string, s: Synthesis = base) =>
    FUNCTIONS.filter((r) => (r.kms as readonly string[]).includes(op))
      .map((r) => roleOf(r.handler, s))
      .sort();
  const sealKey = () =>
    base.idsOfType('AWS::KMS::Key').find((id) => base.props(id).KeySpec !== 'ECC_NIST_P256')!;
  const deny = (s: Synthesis, key: string, sid: string) =>
    (s.props(key).KeyPolicy.Statement as Cfn[]).find((x) => x.Sid === sid)!;

  it('the seal key: Encrypt only by the shoe openers, Decrypt only by resolve, void (a burn), close and cadence-step', () => {
    expect(exemptRoles(deny(base, sealKey(), 'EncryptOnlyByShoeOpener'))).toEqual(rolesWith('Encrypt'));
    expect(rolesWith('Encrypt')).toEqual(['pyb-dev-cadence-open-shoe', 'pyb-dev-open-shoe']);
    expect(exemptRoles(deny(base, sealKey(), 'DecryptOnlyToDealAndReveal'))).toEqual(rolesWith('Decrypt'));
    expect(rolesWith('Decrypt')).toEqual([
      'pyb-dev-cadence-step',
      'pyb-dev-close-shoe',
      'pyb-dev-resolve-round',
      'pyb-dev-void-round',
    ]);
  });

  it.each([
    ['generation 1', () => base, 0],
    ['generation 3', () => rotated, 2],
  ] as const)(
    'the signing key that signs (%s) denies Sign to every principal but the signing roles',
    (_, synthesis, n) => {
      const s = synthesis();
      expect(exemptRoles(deny(s, SIGNING_KEY_IDS[n]!, 'SignOnlyBySigningFunctions'))).toEqual(
        rolesWith('Sign', s),
      );
    },
  );

  it('the alarms name the same roles', () => {
    const patterns = base
      .idsOfType('AWS::Logs::MetricFilter')
      .map((id) => base.props(id))
      .map(
        (f) => [f.MetricTransformations[0].MetricName as string, JSON.stringify(f.FilterPattern)] as const,
      );
    for (const [metric, op] of [
      ['ForeignGenerateRandom-dev', 'GenerateRandom'],
      ['SeedKeyForeignSeal-dev', 'Encrypt'],
      ['SeedKeyForeignDecrypt-dev', 'Decrypt'],
    ] as const) {
      const [pattern, ...others] = patterns.filter(([m]) => m === metric).map(([, p]) => p);
      expect(others).toEqual([]);
      const named = [...pattern!.matchAll(/userName != \\"([a-z0-9-]+)\\"/g)].map((m) => m[1]).sort();
      expect(named).toEqual(rolesWith(op));
    }
    // Sign: the signers' own calls, counted in groups (key-policies.ts): together exactly the signing roles.
    const signers = patterns
      .filter(([m]) => m === 'SigningKeyForeignSign-signers-dev')
      .flatMap(([, p]) => [...p.matchAll(/userName = \\"([a-z0-9-]+)\\"/g)].map((m) => m[1]))
      .sort();
    expect(signers).toEqual(rolesWith('Sign'));
  });
});

describe('the audit table', () => {
  it('the audit table: every writer may only put new items (no UpdateItem, no DeleteItem)', () => {
    const writers = ROUTES.filter((r) => r.data.audit !== undefined && r.data.audit !== 'read');
    expect(writers.length).toBeGreaterThan(5);
    for (const route of ROUTES) {
      const onAudit = base.permissionsOf(route.handler).byResource['table:audit'] ?? [];
      expect(onAudit, route.handler).not.toContain('dynamodb:UpdateItem');
      expect(onAudit, route.handler).not.toContain('dynamodb:DeleteItem');
      if (writers.includes(route)) expect(onAudit).toContain('dynamodb:PutItem');
    }
  });
});

/** The statements of the IAM policies attached to `handler`'s role (generation-1 synthesis). */
const policyOf = (handler: string) =>
  base
    .idsOfType('AWS::IAM::Policy')
    .filter((p) =>
      (base.props(p).Roles as unknown[]).some(
        (r) => refId(r) === refId(base.props(base.functionId(handler)).Role),
      ),
    )
    .flatMap((p) => base.props(p).PolicyDocument.Statement as Cfn[]);

describe('shoe close deadlines (shoe-deadlines.ts)', () => {
  it('a schedule group, the check function EventBridge Scheduler may invoke, and the alarm on its metric', () => {
    base.template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'pyb-dev-close-deadlines' });
    const check = base.props(base.functionId('check-shoe-closed'));
    expect(check.Runtime).toBe('nodejs22.x');
    const alarm = base
      .idsOfType('AWS::CloudWatch::Alarm')
      .map((id) => base.props(id))
      .find((a) => a.MetricName === 'ShoesNotClosedInTime')!;
    expect(alarm).toMatchObject({
      Namespace: 'PuntoYBanca',
      Dimensions: [{ Name: 'Stage', Value: 'dev' }],
      Threshold: 1,
    });
    const env = base.props(base.functionId('resolve-round')).Environment.Variables;
    expect(env).toMatchObject({
      CLOSE_DEADLINE_GROUP: 'pyb-dev-close-deadlines',
      SHOE_CLOSE_DEADLINE_SECONDS: '3600',
      BEACON: 'drand',
    });
    expect(env.CODE_VERSION).toMatch(/^git:[0-9a-f]{40}(\+dirty)?$|^unknown$/);
  });

  const holdersOf = (sid: string) =>
    [...ROUTES, ...WORKERS]
      .filter((r) => policyOf(r.handler).some((s) => s.Sid === sid))
      .map((r) => r.handler);

  it('only resolve-round, void-round (a burn can end the shoe) and the cadence step (it deals) may create a close-deadline schedule, confined to the group, and pass the invoke role to the scheduler only', () => {
    expect(holdersOf('ScheduleCloseDeadline')).toEqual(['resolve-round', 'void-round', 'cadence-step']);
    const statements = policyOf('void-round');
    expect(statements.find((s) => s.Sid === 'ScheduleCloseDeadline')!.Action).toBe(
      'scheduler:CreateSchedule',
    );
    // From the pseudo parameters: the same policy (and cdk-nag acknowledgement) in any Region and account.
    expect(statements.find((s) => s.Sid === 'ScheduleCloseDeadline')!.Resource).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':scheduler:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':schedule/pyb-dev-close-deadlines/*',
        ],
      ],
    });
    expect(statements.find((s) => s.Sid === 'PassCloseDeadlineRole')).toMatchObject({
      Action: 'iam:PassRole',
      Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    });
  });
});

describe('interrupted games: round deadlines on EventBridge Scheduler (round-deadlines.ts)', () => {
  it('a schedule group, the round-deadline worker it invokes (by its name), the alarm on RoundsInterrupted', () => {
    base.template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'pyb-dev-round-deadlines' });
    expect(base.props(base.functionId('round-deadline')).FunctionName).toBe('pyb-dev-round-deadline');
    const alarm = base
      .idsOfType('AWS::CloudWatch::Alarm')
      .map((id) => base.props(id))
      .find((a) => a.MetricName === 'RoundsInterrupted')!;
    expect(alarm).toMatchObject({
      Namespace: 'PuntoYBanca',
      Dimensions: [{ Name: 'Stage', Value: 'dev' }],
      Threshold: 1,
    });
    const env = base.props(base.functionId('open-round')).Environment.Variables;
    expect(env.ROUND_DEADLINE_GROUP).toBe('pyb-dev-round-deadlines');
    expect(JSON.stringify(env.ROUND_DEADLINE_TARGET_ARN)).toContain(':function:pyb-dev-round-deadline');
    // The scheduler's role may invoke that function and nothing else.
    const invoke = base
      .idsOfType('AWS::IAM::Policy')
      .flatMap((p) => base.props(p).PolicyDocument.Statement as Cfn[])
      .filter(
        (st) =>
          st.Action === 'lambda:InvokeFunction' && JSON.stringify(st.Resource).includes('round-deadline'),
      );
    expect(invoke).toHaveLength(1);
  });

  it('only the functions that open rounds and the check itself may create a round-deadline schedule, in its group only', () => {
    const holders = [...ROUTES, ...WORKERS]
      .filter((r) => policyOf(r.handler).some((st) => st.Sid === 'ScheduleRoundDeadline'))
      .map((r) => r.handler);
    expect(holders).toEqual(['open-round', 'cadence-step', 'round-deadline']);
    const statement = policyOf('open-round').find((st) => st.Sid === 'ScheduleRoundDeadline')!;
    expect(statement.Action).toBe('scheduler:CreateSchedule');
    expect(JSON.stringify(statement.Resource)).toContain(':schedule/pyb-dev-round-deadlines/*');
    expect(policyOf('open-round').find((st) => st.Sid === 'PassRoundDeadlineRole')).toMatchObject({
      Action: 'iam:PassRole',
      Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    });
  });

  it('the check deals nothing: it may sign heads but never unseal a seed', () => {
    const actions = policyOf('round-deadline').flatMap((st) => [st.Action].flat() as string[]);
    expect(actions).toContain('kms:Sign');
    expect(actions).not.toContain('kms:Decrypt');
  });
});

describe('room to grow: the stacks (function-stacks.ts)', () => {
  it.each([
    ['signing-key generation 1', () => base],
    ['signing-key generation 3', () => rotated],
  ] as const)('%s: the stage stack and each nested stack hold at most 300 resources', (_, synthesis) => {
    const counts = Object.fromEntries(
      Object.entries(synthesis().stacks).map(([name, t]) => [name, Object.keys(t.Resources).length]),
    );
    expect(Object.keys(counts).sort()).toEqual(
      ['PuntoYBanca-dev', ...FUNCTION_STACKS.map((n) => `${n}Functions`)].sort(),
    );
    for (const [stack, count] of Object.entries(counts)) {
      expect(count, stack).toBeLessThanOrEqual(STACK_RESOURCE_BUDGET);
    }
    // The budget is 60% of CloudFormation's limit: room for the next features in every stack.
    expect(STACK_RESOURCE_BUDGET).toBe(300);
  });

  it('each function, its role, log group and alarm, and its route are in the nested stack of its concern', () => {
    for (const entry of FUNCTIONS) {
      const resources = base.stacks[`${functionStackOf(entry)}Functions`]!.Resources;
      const names = Object.values(resources).map((r) => r.Properties?.FunctionName);
      expect(names, entry.handler).toContain(`pyb-dev-${entry.handler}`);
      if ('path' in entry) {
        const keys = Object.values(resources)
          .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
          .map((r) => r.Properties?.RouteKey);
        expect(keys, entry.handler).toContain(`${entry.method} ${entry.path}`);
      }
    }
  });

  it('the stage stack keeps what holds data or keys, under the logical ids deployed stages have (nothing replaced)', () => {
    const parent = base.stacks['PuntoYBanca-dev']!.Resources;
    const ids = (type: string) =>
      Object.keys(parent)
        .filter((id) => parent[id]!.Type === type)
        .sort();
    expect(ids('AWS::DynamoDB::Table')).toEqual([
      'DataAuditE4D9F575',
      'DataGameCC964D50',
      'DataIdempotency4AE02808',
      'DataPrincipalsB2545A33',
      expect.stringMatching(/^DataSessions[0-9A-F]{8}$/),
      'DataWallets799A57E4',
    ]);
    expect(ids('AWS::KMS::Key')).toEqual([
      expect.stringMatching(/^PlayerTokenKey[0-9A-F]{8}$/),
      'SeedSealKeyD3B5559E',
      SIGNING_KEY_IDS[0]!,
    ]);
    expect(ids('AWS::ApiGatewayV2::Api')).toHaveLength(1);
    expect(ids('AWS::ApiGatewayV2::Stage')).toHaveLength(1);
    expect(ids('AWS::Lambda::Function').map((id) => parent[id]!.Properties?.FunctionName)).not.toContain(
      'pyb-dev-place-bet',
    );
    // The stage's route settings name the routes: it waits for the stacks that create them.
    const [stageId] = ids('AWS::ApiGatewayV2::Stage');
    const nestedIds = ids('AWS::CloudFormation::Stack');
    expect(nestedIds).toHaveLength(FUNCTION_STACKS.length);
    expect([parent[stageId!]!.DependsOn].flat()).toEqual(expect.arrayContaining(nestedIds));
  });
});

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
