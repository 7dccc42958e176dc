import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sns from 'aws-cdk-lib/aws-sns';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/src/routes';
import { LOGICAL_TABLES } from '../../packages/store-dynamodb/src/tables';
import { buildApp } from '../src/app';
import { REPO_ROOT } from '../src/bundling';

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

  it('every functions/*/handler.ts is a routes.ts entry (so it is deployed)', () => {
    expect(onDisk.filter((h) => !routed.includes(h))).toEqual([]);
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

describe('statement-signing key rotation', () => {
  const signing = (generation?: number) => {
    const context = generation === undefined ? {} : { signingKeyGeneration: generation };
    const { app, stack } = buildApp({ outdir: outdir(), context }, []);
    app.synth();
    const template = Template.fromStack(stack);
    const keys = template.findResources('AWS::KMS::Key', { Properties: { KeySpec: 'ECC_NIST_P256' } });
    const aliases = template.findResources('AWS::KMS::Alias', {
      Properties: { AliasName: 'alias/pyb-dev-statement-signing' },
    });
    return { keys: Object.keys(keys), aliases: Object.values(aliases), template };
  };

  it('a new generation is a new key; the alias and the outputs move to it', () => {
    const first = signing();
    const second = signing(2);
    expect(first.keys).toHaveLength(1);
    expect(second.keys).toHaveLength(1);
    expect(second.keys[0]).not.toBe(first.keys[0]);
    for (const { keys, aliases, template } of [first, second]) {
      expect(aliases).toHaveLength(1);
      expect(aliases[0]!.Properties.TargetKeyId).toEqual({ 'Fn::GetAtt': [keys[0], 'Arn'] });
      template.hasOutput('SigningKeyArn', { Value: { 'Fn::GetAtt': [keys[0], 'Arn'] } });
      // The key a generation leaves behind stays in the account: statements it signed stay verifiable.
      template.hasResource('AWS::KMS::Key', {
        Properties: { KeySpec: 'ECC_NIST_P256' },
        DeletionPolicy: 'Retain',
      });
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
