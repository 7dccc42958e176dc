import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '../../functions/src/routes';
import { LOGICAL_TABLES, TABLES } from '../../packages/store-dynamodb/src/tables';
import { type BuiltApp, buildApp } from '../src/app';

// One synth for the whole file: it bundles every handler with esbuild, which is the slow part.

// Written out here rather than imported from src/grants.ts, so the test checks the mapping.
const READ = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'];
const WRITE = [
  ...READ,
  'dynamodb:ConditionCheckItem',
  'dynamodb:DeleteItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
].sort();
const KMS_KEY: Record<string, string> = {
  'kms:Encrypt': 'key:seal',
  'kms:Decrypt': 'key:seal',
  'kms:Sign': 'key:signing',
  'kms:GetPublicKey': 'key:signing',
  'kms:GenerateRandom': '*',
};

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; [k: string]: unknown }>;

let built: BuiltApp;
let outdir: string;
let template: Template;
let resources: Resources;
let synthMs = 0;

/** Logical id of a `{ Ref }` or `{ Fn::GetAtt: [id, ...] }`. */
const refId = (value: unknown): string | undefined => {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
};

const idsOfType = (type: string) => Object.keys(resources).filter((id) => resources[id]!.Type === type);
// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON, walked by the assertions below
const props = (id: string) => resources[id]!.Properties as Record<string, any>;

function functionId(handler: string): string {
  const id = idsOfType('AWS::Lambda::Function').find((f) => props(f).FunctionName === `pyb-dev-${handler}`);
  if (!id) throw new Error(`no function for ${handler}`);
  return id;
}

/** A friendly name for an IAM resource: `table:game`, `table:game/index/gsi1`, `key:seal`, `logs:own`, `*`. */
function nameResource(resource: unknown, ownLogGroup: string): string {
  if (resource === '*') return '*';
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) {
    const [base, ...rest] = join[1];
    return nameResource(base, ownLogGroup) + rest.join('');
  }
  const id = refId(resource);
  if (!id) return JSON.stringify(resource);
  const r = resources[id]!;
  if (r.Type === 'AWS::DynamoDB::Table')
    return `table:${String(props(id).TableName).replace('pyb-dev-', '')}`;
  if (r.Type === 'AWS::KMS::Key') return props(id).KeySpec === 'ECC_NIST_P256' ? 'key:signing' : 'key:seal';
  if (r.Type === 'AWS::Logs::LogGroup') return id === ownLogGroup ? 'logs:own' : `logs:${id}`;
  return id;
}

interface Permissions {
  /** resource name -> sorted actions */
  byResource: Record<string, string[]>;
  statements: Array<{ Action: string | string[]; Resource: unknown; Condition?: unknown; Effect: string }>;
  managedPolicies: unknown;
}

function permissionsOf(handler: string): Permissions {
  const fn = functionId(handler);
  const roleId = refId(props(fn).Role)!;
  const ownLogGroup = refId(props(fn).LoggingConfig.LogGroup)!;
  const policies = idsOfType('AWS::IAM::Policy').filter((p) =>
    (props(p).Roles as unknown[]).some((r) => refId(r) === roleId),
  );
  const statements = policies.flatMap((p) => props(p).PolicyDocument.Statement);
  const byResource: Record<string, Set<string>> = {};
  for (const s of statements) {
    for (const resource of [s.Resource].flat()) {
      const name = nameResource(resource, ownLogGroup);
      byResource[name] ??= new Set();
      for (const action of [s.Action].flat()) byResource[name].add(action);
    }
  }
  return {
    byResource: Object.fromEntries(Object.entries(byResource).map(([k, v]) => [k, [...v].sort()])),
    statements,
    managedPolicies: props(roleId).ManagedPolicyArns,
  };
}

/** What routes.ts says the function may do, in the same shape. */
function expectedPermissions(route: Route): Record<string, string[]> {
  const out: Record<string, string[]> = { 'logs:own': ['logs:CreateLogStream', 'logs:PutLogEvents'] };
  for (const [table, access] of Object.entries(route.data)) {
    const actions = access === 'write' ? WRITE : READ;
    out[`table:${table}`] = actions;
    const def = TABLES[table as keyof typeof TABLES];
    for (const index of [...def.globalIndexes, ...def.localIndexes]) {
      out[`table:${table}/index/${index.name}`] = actions;
    }
  }
  for (const op of route.kms) {
    const key = KMS_KEY[`kms:${op}`]!;
    out[key] = [...(out[key] ?? []), `kms:${op}`].sort();
  }
  return out;
}

function assetDir(handler: string): string {
  return join(outdir, `asset.${String(props(functionId(handler)).Code.S3Key).replace(/\.zip$/, '')}`);
}

/**
 * Imports a bundle in a fresh Node process with the deployed function's settings (its environment,
 * source maps on, no AWS credentials or network needed to load) and runs `code` with the module as `m`.
 * Returns what `code` wrote after MARK (logs may come before it).
 */
function runInNode(bundle: string, code: string, handler: string): string {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'SILENT' };
  for (const [name, value] of Object.entries(props(functionId(handler)).Environment.Variables)) {
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

const kmsHolders = (action: string) =>
  ROUTES.filter((r) => Object.values(permissionsOf(r.handler).byResource).flat().includes(action))
    .map((r) => r.handler)
    .sort();

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-stack-'));
  const started = performance.now();
  built = buildApp({ outdir });
  built.app.synth(); // throws if cdk-nag reports anything unacknowledged
  synthMs = performance.now() - started;
  template = Template.fromStack(built.stack);
  resources = template.toJSON().Resources as Resources;
  console.log(`synth with ${ROUTES.length} bundled functions: ${(synthMs / 1000).toFixed(1)} s`);
  // Bundling twenty handlers shares two cores with the rest of the suite in CI: a generous limit.
}, 300_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('tables', () => {
  it.each(LOGICAL_TABLES)('%s: keys and indexes from tables.ts, on demand', (logical) => {
    const def = TABLES[logical];
    const [id, ...others] = idsOfType('AWS::DynamoDB::Table').filter(
      (t) => props(t).TableName === `pyb-dev-${logical}`,
    );
    expect(others).toEqual([]);
    const table = props(id!);
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
      template.hasResource('AWS::DynamoDB::Table', {
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
    template.hasResource('AWS::DynamoDB::Table', {
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
    template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({
        KeySpec: Match.absent(),
        KeyUsage: Match.absent(),
        EnableKeyRotation: true,
        RotationPeriodInDays: 365,
        PendingWindowInDays: 30,
      }),
      DeletionPolicy: 'Retain',
    });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-dev-seed-seal' });
  });

  it('statement signing: ECC_NIST_P256 for SIGN_VERIFY, retained', () => {
    template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({
        KeySpec: 'ECC_NIST_P256',
        KeyUsage: 'SIGN_VERIFY',
        EnableKeyRotation: Match.absent(),
        PendingWindowInDays: 30,
      }),
      DeletionPolicy: 'Retain',
    });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-dev-statement-signing' });
    template.resourceCountIs('AWS::KMS::Key', 2);
  });
});

describe('functions', () => {
  it('one function per routes.ts entry, nothing else', () => {
    expect(
      idsOfType('AWS::Lambda::Function')
        .map((f) => props(f).FunctionName)
        .sort(),
    ).toEqual(ROUTES.map((r) => `pyb-dev-${r.handler}`).sort());
  });

  it.each(ROUTES.map((r) => r.handler))('%s: Node 22 on arm64, 1 GB, ESM bundle, env', (handler) => {
    const fn = props(functionId(handler));
    expect(fn.Runtime).toBe('nodejs22.x');
    expect(fn.Architectures).toEqual(['arm64']);
    expect(fn.MemorySize).toBe(1024);
    expect(fn.Handler).toBe('index.handler');
    expect(fn.Timeout).toBe(['resolve-round', 'void-round', 'close-shoe'].includes(handler) ? 28 : 10);
    const env = fn.Environment.Variables;
    expect(env).toMatchObject({
      STAGE: 'dev',
      NODE_ENV: 'production',
      KEY_SERVICE: 'kms',
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(nameResource(env.SEED_KEY_ID, '')).toBe('key:seal');
    expect(nameResource(env.SIGNING_KEY_ID, '')).toBe('key:signing');
    for (const logical of LOGICAL_TABLES) {
      expect(nameResource(env[`TABLE_${logical.toUpperCase()}`], '')).toBe(`table:${logical}`);
    }
  });

  it.each(ROUTES.map((r) => r.handler))('%s: the deployed bundle is self-contained ESM', (handler) => {
    const dir = assetDir(handler);
    expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code).toMatch(/export\s*\{[^}]*\bas handler\s*\}|export\s*\{\s*handler\s*\}/);
    // Every import left in the bundle (static, dynamic or require, as esbuild parses it) is a Node
    // built-in: the AWS SDK and everything else is inside.
    const { metafile } = buildSync({
      entryPoints: [join(dir, 'index.mjs')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      external: ['*'],
      logLevel: 'silent',
    });
    const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    const builtins = new Set(builtinModules);
    expect(imports.filter((s) => !s.startsWith('node:') && !builtins.has(s))).toEqual([]);
  });

  it.each(ROUTES.map((r) => r.handler))(
    '%s: the bundle loads in a fresh Node and exports handler',
    (handler) => {
      const out = runInNode(
        join(assetDir(handler), 'index.mjs'),
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
      join(assetDir('get-openapi'), 'index.mjs'),
      `const r = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'req-1', functionName: 'pyb-dev-get-openapi', ` +
        "functionVersion: '$LATEST', invokedFunctionArn: 'arn', memoryLimitInMB: '1024', " +
        'getRemainingTimeInMillis: () => 10000 }); process.stdout.write(MARK + JSON.stringify(r))',
      'get-openapi',
    );
    const result = JSON.parse(out);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).openapi).toMatch(/^3\.1\./);
  });

  it('each function logs to its own group with the retention', () => {
    for (const route of ROUTES) {
      const group = refId(props(functionId(route.handler)).LoggingConfig.LogGroup)!;
      expect(props(group).RetentionInDays).toBe(90);
    }
    for (const id of idsOfType('AWS::Logs::LogGroup')) expect(props(id).RetentionInDays).toBe(90);
  });
});

describe('least privilege (IAM per function)', () => {
  it.each(ROUTES.map((r) => [r.handler, r] as const))('%s: exactly the grants of routes.ts', (_, route) => {
    const perms = permissionsOf(route.handler);
    expect(perms.byResource).toEqual(expectedPermissions(route));
    expect(perms.managedPolicies).toBeUndefined();
  });

  it('no wildcard actions; Resource "*" only for kms:GenerateRandom', () => {
    for (const route of ROUTES) {
      for (const s of permissionsOf(route.handler).statements) {
        expect(s.Effect).toBe('Allow');
        for (const action of [s.Action].flat()) expect(action).not.toContain('*');
        if ([s.Resource].flat().includes('*')) expect(s.Action).toBe('kms:GenerateRandom');
      }
    }
  });

  it('only resolve-round and close-shoe can decrypt seeds; place-bet has no KMS access at all', () => {
    expect(kmsHolders('kms:Decrypt')).toEqual(['close-shoe', 'resolve-round']);
    const placeBet = Object.values(permissionsOf('place-bet').byResource).flat();
    expect(placeBet.filter((a) => a.startsWith('kms:'))).toEqual([]);
  });

  it('only open-shoe and close-shoe can sign, and only with ECDSA_SHA_256', () => {
    expect(kmsHolders('kms:Sign')).toEqual(['close-shoe', 'open-shoe']);
    for (const route of ROUTES) {
      for (const s of permissionsOf(route.handler).statements) {
        if ([s.Action].flat().includes('kms:Sign')) {
          expect(s.Action).toBe('kms:Sign');
          expect(s.Condition).toEqual({ StringEquals: { 'kms:SigningAlgorithm': 'ECDSA_SHA_256' } });
        } else {
          expect(s.Condition).toBeUndefined();
        }
      }
    }
  });

  it('only open-shoe seals seeds', () => {
    expect(kmsHolders('kms:Encrypt')).toEqual(['open-shoe']);
  });

  it('reading functions cannot write', () => {
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      const actions = Object.values(permissionsOf(route.handler).byResource).flat();
      expect(actions.filter((a) => a.startsWith('dynamodb:') && !READ.includes(a))).toEqual([]);
    }
  });
});

describe('HTTP API', () => {
  it('one route per routes.ts entry, to its own function, authorised in the handler', () => {
    const routeIds = idsOfType('AWS::ApiGatewayV2::Route');
    expect(routeIds.map((r) => props(r).RouteKey).sort()).toEqual(
      ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    );
    for (const route of ROUTES) {
      const id = routeIds.find((r) => props(r).RouteKey === `${route.method} ${route.path}`)!;
      expect(props(id).AuthorizationType).toBe('NONE');
      const target = props(id).Target['Fn::Join'][1];
      const integration = props(refId(target[1])!);
      expect(integration.IntegrationType).toBe('AWS_PROXY');
      expect(integration.PayloadFormatVersion).toBe('2.0');
      expect(refId(integration.IntegrationUri)).toBe(functionId(route.handler));
    }
  });

  it('one auto-deployed $default stage with access logs and throttling', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 },
    });
  });
});

describe('alarms', () => {
  const alarmsOn = (metric: string) =>
    idsOfType('AWS::CloudWatch::Alarm')
      .map((id) => props(id))
      .filter((a) => a.MetricName === metric);

  it.each(['Errors', 'Throttles'])('%s alarm on every function, notifying the alarm topic', (metric) => {
    const alarms = alarmsOn(metric);
    const topic = idsOfType('AWS::SNS::Topic')[0];
    expect(
      alarms.map((a) => refId(a.Dimensions.find((d: { Name: string }) => d.Name === 'FunctionName').Value)),
    ).toEqual(expect.arrayContaining(ROUTES.map((r) => functionId(r.handler))));
    expect(alarms).toHaveLength(ROUTES.length);
    for (const alarm of alarms) {
      expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1 });
      expect(alarm.AlarmActions.map(refId)).toEqual([topic]);
    }
  });

  it('API 5xx alarm', () => {
    const [alarm, ...others] = alarmsOn('5xx');
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({ Namespace: 'AWS/ApiGateway', Statistic: 'Sum', Threshold: 1 });
    expect(alarm!.AlarmActions).toHaveLength(1);
  });

  it('the alarm topic requires TLS', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  it('the synth passed validation: no findings, no CDK errors or warnings', () => {
    // CDK writes the report on every synth; a clean one has no plugin findings.
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations)).toEqual([]);
    const annotations = Annotations.fromStack(built.stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges only the expected findings, each with its reason', () => {
    const acknowledged: string[] = [];
    for (const node of built.stack.node.findAll()) {
      for (const entry of node.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [rule, reason] of Object.entries(entry.data as Record<string, string>)) {
          expect(reason.length).toBeGreaterThan(60);
          acknowledged.push(`${rule.replace(/^Annotation::/, '')} ${node.node.path.split('/')[1]}`);
        }
      }
    }
    const expected = [
      ...ROUTES.map(() => 'AwsSolutions-APIG4 Api'),
      ...ROUTES.map((r) => `AwsSolutions-L1 ${pascal(r.handler)}`),
      // kms:GenerateRandom cannot be scoped to a key: one acknowledgement per role that has it.
      ...ROUTES.filter((r) => r.kms.includes('GenerateRandom')).map(
        (r) => `AwsSolutions-IAM5[Resource::*] ${pascal(r.handler)}`,
      ),
      'AwsSolutions-DDB3 Data',
    ];
    expect(acknowledged.sort()).toEqual(expected.sort());
  });
});

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
