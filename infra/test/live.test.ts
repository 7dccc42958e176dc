/**
 * Live events on AWS IoT Core (infra/src/live.ts): the custom authorizer and its Lambda, who may invoke
 * it, its least privilege, iot:Publish on the live topics alone for the publishing functions, alarms.
 * Synthesised with only the publishing routes bundled (stack.test.ts checks every function's grants).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '@pyb/functions/routes';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { readConfig } from '../src/config';
import { LIVE_PUBLISHERS, LIVE_TOPICS } from '../src/live';
import { appTemplate } from './app-template';

// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
type Cfn = Record<string, any>;

let outdir: string;
let resources: Record<string, Cfn>;
const PUBLISHING = ROUTES.filter((r) => (LIVE_PUBLISHERS as readonly string[]).includes(r.handler));
const idsOfType = (type: string) => Object.keys(resources).filter((id) => resources[id]!.Type === type);
const props = (id: string): Cfn => resources[id]!.Properties;
const refId = (value: unknown): string | undefined => {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return v?.Ref ?? v?.['Fn::GetAtt']?.[0];
};
const fn = (name: string) =>
  idsOfType('AWS::Lambda::Function').find((id) => props(id).FunctionName === `pyb-dev-${name}`)!;
const statementsOf = (roleId: string): Cfn[] =>
  idsOfType('AWS::IAM::Policy')
    .filter((p) => (props(p).Roles as unknown[]).some((r) => refId(r) === roleId))
    .flatMap((p) => props(p).PolicyDocument.Statement);
const actionsOf = (statements: Cfn[]) => statements.flatMap((s) => [s.Action].flat()).sort();

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-live-'));
  const built = buildApp({ outdir }, PUBLISHING, []);
  built.app.synth(); // throws on an unacknowledged cdk-nag finding
  resources = appTemplate(built.stack).toJSON().Resources;
}, 300_000);
afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('live events on IoT Core', () => {
  it('one custom authorizer, signing disabled, active, backed by the live-authorizer Lambda', () => {
    const [authorizer] = idsOfType('AWS::IoT::Authorizer');
    expect(idsOfType('AWS::IoT::Authorizer')).toHaveLength(1);
    expect(props(authorizer!)).toMatchObject({
      AuthorizerName: 'pyb-dev-players',
      SigningDisabled: true,
      Status: 'ACTIVE',
    });
    expect(refId(props(authorizer!).AuthorizerFunctionArn)).toBe(fn('live-authorizer'));
  });

  it('only IoT Core may invoke the authorizer, and only through that authorizer', () => {
    const perms = idsOfType('AWS::Lambda::Permission').filter(
      (id) => refId(props(id).FunctionName) === fn('live-authorizer'),
    );
    expect(perms.map((id) => props(id).Principal)).toEqual(['iot.amazonaws.com']);
    expect(refId(props(perms[0]!).SourceArn)).toBe(idsOfType('AWS::IoT::Authorizer')[0]);
  });

  it("the authorizer's role reads sessions and the token key's public half, nothing else", () => {
    const role = refId(props(fn('live-authorizer')).Role)!;
    expect(actionsOf(statementsOf(role))).toEqual([
      'dynamodb:GetItem',
      'kms:GetPublicKey',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
  });

  it('each publishing function may publish to the live topics, and do nothing else of IoT', () => {
    for (const route of PUBLISHING) {
      const role = refId(props(fn(route.handler)).Role)!;
      const iot = statementsOf(role).filter((s) =>
        [s.Action].flat().some((a: string) => a.startsWith('iot:')),
      );
      expect(iot, route.handler).toHaveLength(1);
      expect(iot[0]!.Action).toBe('iot:Publish');
      expect(JSON.stringify(iot[0]!.Resource)).toContain(`:topic/${LIVE_TOPICS}`);
    }
  });

  it("alarms on the authorizer failing or throttled and on every publishing function's refused publishes", () => {
    const descriptions = idsOfType('AWS::CloudWatch::Alarm').map(
      (id) => props(id).AlarmDescription as string,
    );
    expect(descriptions.filter((d) => d.startsWith('live (dev): the IoT authorizer'))).toHaveLength(2);
    for (const route of PUBLISHING)
      expect(
        descriptions.some((d) => d.startsWith(`live (pyb-dev-${route.handler}): IoT Core refused`)),
        route.handler,
      ).toBe(true);
  });
});

describe('liveBrowserUrl (CDK context): where game pages connect', () => {
  const config = (context: Record<string, string>) => readConfig(new App({ context }).node);
  it('is unset by default (sessions then name no push channel); a wss URL or a site path is taken', () => {
    expect(config({}).liveBrowserUrl).toBeUndefined();
    const iot =
      'wss://abc123-ats.iot.eu-west-1.amazonaws.com/mqtt?x-amz-customauthorizer-name=pyb-dev-players';
    expect(config({ liveBrowserUrl: iot }).liveBrowserUrl).toBe(iot);
    expect(config({ liveBrowserUrl: '/mqtt' }).liveBrowserUrl).toBe('/mqtt');
  });
  it('refuses anything else: plain ws, http, a fragment', () => {
    for (const bad of [
      'ws://iot.example/mqtt',
      'https://iot.example/mqtt',
      'wss://iot.example/mqtt#x',
      'mqtt',
    ])
      expect(() => config({ liveBrowserUrl: bad })).toThrow(/liveBrowserUrl/);
  });
});
