import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '@pyb/functions/routes';
import { WORKERS, workerEntry } from '@pyb/functions/workers';
import { LOGICAL_TABLES } from '@pyb/store-dynamodb/tables';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sns from 'aws-cdk-lib/aws-sns';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { REPO_ROOT } from '../src/bundling';
import { FUNCTION_STACKS, functionStackOf } from '../src/function-stacks';
import { CHECK_HANDLER } from '../src/shoe-deadlines';
import { appResources, resourceCounts } from './app-template';

// Cheap checks: no handler is bundled here (routes = []), so these run in milliseconds and still say
// something useful when a handler is missing and the full synth (stack.test.ts) cannot run.

const outdirs: string[] = [];
const outdir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-cdk-app-'));
  outdirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

describe('routes.ts and functions/ agree', () => {
  const onDisk = readdirSync(join(REPO_ROOT, 'functions'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(REPO_ROOT, 'functions', e.name, 'handler.ts')))
    .map((e) => e.name)
    .sort();
  const routed = ROUTES.map((r) => r.handler).sort();

  it('every routes.ts entry has functions/<handler>/handler.ts', () => {
    expect(routed.filter((h) => !onDisk.includes(h))).toEqual([]);
  });

  it('every functions/*/handler.ts is a routes.ts entry or a function the stack deploys on its own (so it is deployed)', () => {
    // check-shoe-closed is EventBridge Scheduler's target, not an HTTP route (shoe-deadlines.ts).
    expect(onDisk.filter((h) => !routed.includes(h))).toEqual([CHECK_HANDLER]);
  });

  it('every workers.ts entry has functions/jobs/<handler>/handler.ts', () => {
    const missing = WORKERS.map(workerEntry).filter(
      (entry) => !existsSync(join(REPO_ROOT, 'functions', entry, 'handler.ts')),
    );
    expect(missing).toEqual([]);
  });

  it('each handler and each method + path appears once', () => {
    expect(new Set(routed).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
  });

  it('routes.ts grants only tables that tables.ts defines', () => {
    for (const route of ROUTES) {
      for (const table of Object.keys(route.data)) expect(LOGICAL_TABLES).toContain(table);
    }
  });
});

describe('stage', () => {
  it('defaults to dev and names the stack, tables and keys after it', () => {
    const { app, stack } = buildApp({ outdir: outdir() }, []);
    app.synth();
    expect(stack.stackName).toBe('PuntoYBanca-dev');
    const template = Template.fromStack(stack);
    for (const logical of LOGICAL_TABLES) {
      template.hasResourceProperties('AWS::DynamoDB::Table', { TableName: `pyb-dev-${logical}` });
    }
  });

  it('comes from the `stage` context', () => {
    const { app, stack } = buildApp({ outdir: outdir(), context: { stage: 'prod' } }, []);
    app.synth();
    expect(stack.stackName).toBe('PuntoYBanca-prod');
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::DynamoDB::Table', { TableName: 'pyb-prod-wallets' });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-prod-seed-seal' });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/pyb-prod-statement-signing' });
    template.hasOutput('Stage', { Value: 'prod' });
  });

  it('refuses a stage that cannot name resources', () => {
    for (const stage of ['Prod', 'my_stage', '', '1st', 'a-very-long-stage-name-x']) {
      expect(() => buildApp({ outdir: outdir(), context: { stage } }, [])).toThrow(/stage/);
    }
  });

  it('refuses a log retention CloudWatch does not offer', () => {
    expect(() => buildApp({ outdir: outdir(), context: { logRetentionDays: 45 } }, [])).toThrow(
      /logRetentionDays/,
    );
  });

  it('subscribes the alarm e-mail when one is given', () => {
    const { app, stack } = buildApp({ outdir: outdir(), context: { alarmEmail: 'ops@example.com' } }, []);
    app.synth();
    Template.fromStack(stack).hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
  });
});

describe('statement-signing key generations', () => {
  // The logical ids deployed stacks have: a different one would make CloudFormation create a new key.
  const LOGICAL_IDS = [
    'StatementSigningKey1132329E',
    'StatementSigningKeyGen23E1461ED',
    'StatementSigningKeyGen3DB44EDEB',
  ];
  const ROOT = {
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root']],
  };
  const ADMIN = { Action: 'kms:*', Effect: 'Allow', Principal: { AWS: ROOT }, Resource: '*' };
  const DENY_SIGN = {
    Action: 'kms:Sign',
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Resource: '*',
    Sid: 'RetiredVerifyOnly',
  };
  // key-policies.ts: a key that may sign denies Sign to all but the signing roles (none: no routes here).
  const SIGNERS_ONLY = { ...DENY_SIGN, Sid: 'SignOnlyBySigningFunctions' };
  // Changing any of these replaces a KMS key (a new key, a new public key): they never change.
  const REPLACING = { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' };

  const signing = (generation?: number) => {
    const context = generation === undefined ? {} : { signingKeyGeneration: generation };
    const { app, stack } = buildApp({ outdir: outdir(), context }, []);
    app.synth();
    const template = Template.fromStack(stack);
    // biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
    const keys: Record<string, any> = Object.fromEntries(
      Object.entries(template.findResources('AWS::KMS::Key', { Properties: { KeySpec: 'ECC_NIST_P256' } }))
        // The player-token key is no statement-signing key (stack.test.ts, 'player tokens').
        .filter(([id]) => !id.startsWith('PlayerTokenKey')),
    );
    const aliases = template.findResources('AWS::KMS::Alias', {
      Properties: { AliasName: 'alias/pyb-dev-statement-signing' },
    });
    return { keys, aliases: Object.values(aliases), template };
  };

  it('generation 1 (the default) is the key deployed stacks have: same logical id, same resource', () => {
    const { keys } = signing();
    expect(keys).toEqual({
      StatementSigningKey1132329E: {
        Type: 'AWS::KMS::Key',
        Properties: {
          Description:
            'Punto y Banca dev: signs shoe statements and audit chain heads (ECDSA P-256, generation 1)',
          KeyPolicy: { Statement: [ADMIN, SIGNERS_ONLY], Version: '2012-10-17' },
          ...REPLACING,
          PendingWindowInDays: 30,
        },
        UpdateReplacePolicy: 'Retain',
        DeletionPolicy: 'Retain',
      },
    });
  });

  it.each([1, 2, 3])(
    'generation %i: keys 1..n, all retained; the alias and SigningKeyArn on the newest',
    (n) => {
      const { keys, aliases, template } = signing(n);
      const ids = LOGICAL_IDS.slice(0, n);
      expect(Object.keys(keys).sort()).toEqual([...ids].sort());
      const current = ids.at(-1)!;
      expect(aliases).toHaveLength(1);
      expect(aliases[0]!.Properties.TargetKeyId).toEqual({ 'Fn::GetAtt': [current, 'Arn'] });
      template.hasOutput('SigningKeyArn', { Value: { 'Fn::GetAtt': [current, 'Arn'] } });
      template.hasOutput('SigningKeyArns', {
        Value:
          n === 1
            ? { 'Fn::GetAtt': [current, 'Arn'] }
            : { 'Fn::Join': [',', ids.map((id) => ({ 'Fn::GetAtt': [id, 'Arn'] }))] },
      });
      ids.forEach((id, i) => {
        const key = keys[id];
        const generation = i + 1;
        expect(key).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
        expect(key.Properties).toMatchObject({ ...REPLACING, PendingWindowInDays: 30 });
        if (id === current) {
          expect(key.Properties.Description).toBe(
            `Punto y Banca dev: signs shoe statements and audit chain heads (ECDSA P-256, generation ${generation})`,
          );
          expect(key.Properties.KeyPolicy.Statement).toEqual([ADMIN, SIGNERS_ONLY]);
        } else {
          expect(key.Properties.Description).toMatch(/^Punto y Banca dev: retired: verify only\. /);
          expect(key.Properties.Description).toContain(`(ECDSA P-256, generation ${generation})`);
          // The explicit deny outranks any Allow in IAM, the account admin's kms:* included.
          expect(key.Properties.KeyPolicy.Statement).toEqual([ADMIN, DENY_SIGN]);
        }
      });
    },
  );

  it('a handover deploy: the previous generation may still sign (to certify the newest), the ones before are retired', () => {
    const { app, stack } = buildApp(
      { outdir: outdir(), context: { signingKeyGeneration: 3, signingKeyHandover: 'true' } },
      [],
    );
    app.synth();
    const keys = Template.fromStack(stack).findResources('AWS::KMS::Key', {
      Properties: { KeySpec: 'ECC_NIST_P256' },
    });
    const statements = (id: string) => keys[id]!.Properties.KeyPolicy.Statement;
    expect(statements(LOGICAL_IDS[0]!)).toEqual([ADMIN, DENY_SIGN]);
    expect(statements(LOGICAL_IDS[1]!)).toEqual([ADMIN, SIGNERS_ONLY]);
    expect(statements(LOGICAL_IDS[2]!)).toEqual([ADMIN, SIGNERS_ONLY]);
    expect(keys[LOGICAL_IDS[1]!]!.Properties.Description).not.toMatch(/retired/);
  });

  it('refuses a generation below 1', () => {
    for (const signingKeyGeneration of [0, -1, 1.5, 'two']) {
      expect(() => buildApp({ outdir: outdir(), context: { signingKeyGeneration } }, [])).toThrow(
        /signingKeyGeneration/,
      );
    }
  });
});

describe('cdk-nag', () => {
  it('fails the synth on a finding nobody acknowledged (so a clean synth means clean)', () => {
    const { app, stack } = buildApp({ outdir: outdir() }, []);
    new sns.Topic(stack, 'Unacknowledged'); // AwsSolutions-SNS3: no SSL enforcement
    expect(() => app.synth()).toThrow(/AwsSolutions-SNS3/);
  });

  it('fails the synth on a warning-level finding too', () => {
    const { app, stack } = buildApp({ outdir: outdir() }, []);
    // AwsSolutions-DDB3 (no point-in-time recovery) is a warning, not an error.
    new dynamodb.Table(stack, 'NoPitr', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
    });
    expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
  });
});

describe('function stacks (function-stacks.ts)', () => {
  it('every route and worker has a stack of its concern, and every stack holds some', () => {
    const used = new Set([...ROUTES, ...WORKERS].map(functionStackOf));
    expect([...used].sort()).toEqual([...FUNCTION_STACKS].sort());
    expect(functionStackOf(ROUTES.find((r) => r.handler === 'place-bet')!)).toBe('Rounds');
    expect(functionStackOf(WORKERS.find((w) => w.handler === 'settle-batch')!)).toBe('Rounds');
  });

  it('refuses a route under a path segment no stack was chosen for', () => {
    const route = { ...ROUTES[0]!, path: '/v1/tournaments/{id}', handler: 'get-tournament' };
    expect(() => functionStackOf(route)).toThrow(/STACK_OF_SEGMENT/);
  });

  it('-c withoutFunctions=true: the stage without its functions and routes (the first step of the move)', () => {
    const { app, stack } = buildApp({ outdir: outdir(), context: { withoutFunctions: 'true' } });
    app.synth();
    expect(stack.functionStacks).toEqual({});
    const types = Object.values(appResources(stack)).map((r) => r.Type);
    expect(types).not.toContain('AWS::ApiGatewayV2::Route');
    expect(types).toContain('AWS::ApiGatewayV2::Api');
    expect(types.filter((t) => t === 'AWS::DynamoDB::Table')).toHaveLength(LOGICAL_TABLES.length);
  });
});

describe('cdk-nag in any Region and account', () => {
  // The findings that named the Region or the account once: the close-deadline grant (resolve-round),
  // the feed prefix (a feed route, in its nested stack), the CDK assets bucket (the site's upload).
  const routes = ROUTES.filter((r) => ['resolve-round', 'list-feed-files'].includes(r.handler));
  // One outdir for the three: the second and third synth reuse the first one's bundles.
  let dir = '';
  it.each([
    ['a Region and an account the stack never names', { account: '123456789012', region: 'eu-west-3' }],
    ['a Region only', { region: 'ap-southeast-2' }],
    ['neither', {}],
  ])(
    '%s: the synth passes cdk-nag',
    (_, env) => {
      dir ||= outdir();
      const { app, stack } = buildApp({ outdir: dir }, routes, [], env);
      expect(() => app.synth()).not.toThrow();
      const report = JSON.parse(readFileSync(join(dir, 'validation-report.json'), 'utf8'));
      expect(report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations)).toEqual([]);
      expect(Object.keys(resourceCounts(stack)).length).toBe(3); // the stage, Rounds, Operators
    },
    120_000,
  );
});
