import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cadenceDefinition } from '@pyb/cadence';
import { ROUTES } from '@pyb/functions/routes';
import { WORKERS } from '@pyb/functions/workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { appTemplate } from './app-template';

// Table cadence (infra/src/cadence.ts): synthesised with the cadence's route and its two functions
// (cadence-step, cadence-open-shoe) only; stack.test.ts covers the whole stack.

const CADENCE_ROUTES = ROUTES.filter((r) => r.cadence);
const CADENCE_WORKERS = WORKERS.filter((w) => w.cadence || w.handler === 'cadence-open-shoe');
let outdir = '';
// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
let resources: Record<string, any> = {};
let violations: unknown[] = [];

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-cadence-'));
  const { app, stack } = buildApp({ outdir }, CADENCE_ROUTES, CADENCE_WORKERS);
  app.synth(); // throws on any unacknowledged cdk-nag finding
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
  violations = report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations);
  resources = appTemplate(stack).toJSON().Resources;
}, 180_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const statementsOf = (roleId: string) =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
const functionNamed = (suffix: string) => {
  const found = ofType('AWS::Lambda::Function').filter(([, f]) =>
    String(f.Properties.FunctionName).endsWith(`-${suffix}`),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};
/** The definition string with each function's ARN (its Fn::GetAtt) put back as a marker. */
const definitionOf = (
  machine: { Properties: { DefinitionString: unknown } },
  stepId: string,
  shoeId: string,
): unknown => {
  const text = JSON.stringify(machine.Properties.DefinitionString);
  const parts = (machine.Properties.DefinitionString as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  expect(text).toContain(stepId);
  expect(text).toContain(shoeId);
  const marker = (p: unknown) => {
    const ref = JSON.stringify(p);
    return ref.includes(stepId) ? 'STEP_FUNCTION_ARN' : ref.includes(shoeId) ? 'SHOE_FUNCTION_ARN' : ref;
  };
  return JSON.parse(parts.map((p) => (typeof p === 'string' ? p : marker(p))).join(''));
};

describe('the cadence state machine', () => {
  it('one Standard state machine, its definition the one @pyb/cadence gives the local runner', () => {
    const machines = ofType('AWS::StepFunctions::StateMachine');
    expect(machines).toHaveLength(1);
    const [, machine] = machines[0]!;
    expect(machine.Properties.StateMachineName).toBe('pyb-dev-cadence');
    expect(machine.Properties.StateMachineType).toBe('STANDARD');
    expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
    expect(machine.Properties.LoggingConfiguration.Level).toBe('ALL');
    const [stepId] = functionNamed('cadence-step');
    const [shoeId] = functionNamed('cadence-open-shoe');
    expect(definitionOf(machine, stepId, shoeId)).toEqual(
      cadenceDefinition('STEP_FUNCTION_ARN', 'SHOE_FUNCTION_ARN'),
    );
  });

  it('its role invokes the cadence-step and cadence-open-shoe functions and nothing else (logging and X-Ray apart)', () => {
    const [, machine] = ofType('AWS::StepFunctions::StateMachine')[0]!;
    const roleId = machine.Properties.RoleArn['Fn::GetAtt'][0];
    const [stepId] = functionNamed('cadence-step');
    const [shoeId] = functionNamed('cadence-open-shoe');
    const statements = statementsOf(roleId);
    const invoke = statements.filter((s: { Action: unknown }) =>
      JSON.stringify(s.Action).includes('lambda:'),
    );
    expect(invoke).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Resource: [{ 'Fn::GetAtt': [stepId, 'Arn'] }, { 'Fn::GetAtt': [shoeId, 'Arn'] }],
      }),
    ]);
    for (const s of statements) {
      for (const action of [s.Action].flat()) expect(String(action)).toMatch(/^(lambda|logs|xray):/);
    }
  });

  it('control-cadence and cadence-step may start executions of it only, and are told its ARN', () => {
    for (const handler of ['control-cadence', 'cadence-step']) {
      const [, fn] = functionNamed(handler);
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const starts = statementsOf(roleId).filter((s: { Action: unknown }) =>
        JSON.stringify(s.Action).includes('states:'),
      );
      expect(starts).toHaveLength(1);
      expect(starts[0].Action).toBe('states:StartExecution');
      expect(JSON.stringify(starts[0].Resource)).toContain(':stateMachine:pyb-dev-cadence');
      expect(JSON.stringify(fn.Properties.Environment.Variables.CADENCE_STATE_MACHINE_ARN)).toContain(
        ':stateMachine:pyb-dev-cadence',
      );
    }
    // The deal never sleeps in the function for its beacon round: the state's Retry waits.
    expect(functionNamed('cadence-step')[1].Properties.Environment.Variables.BEACON_WAIT_MS).toBe('0');
  });

  it("cadence-open-shoe starts no execution and holds exactly the shoe opener's KMS actions", () => {
    const [, fn] = functionNamed('cadence-open-shoe');
    const statements = statementsOf(fn.Properties.Role['Fn::GetAtt'][0]);
    expect(
      statements.filter((s: { Action: unknown }) => JSON.stringify(s.Action).includes('states:')),
    ).toEqual([]);
    const kms = statements.flatMap((s: { Action: unknown }) =>
      [s.Action].flat().filter((a) => String(a).startsWith('kms:')),
    );
    expect([...new Set(kms)].sort()).toEqual([
      'kms:Encrypt',
      'kms:GenerateRandom',
      'kms:GetPublicKey',
      'kms:Sign',
    ]);
  });

  it('an execution failed, timed out or aborted raises an alarm to the alarm topic', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('CadenceFailedAlarm'));
    expect(alarms).toHaveLength(1);
    const [, alarm] = alarms[0]!;
    const metrics = alarm.Properties.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat);
    expect(
      metrics
        .map((m: { MetricStat: { Metric: { MetricName: string } } }) => m.MetricStat.Metric.MetricName)
        .sort(),
    ).toEqual(['ExecutionsAborted', 'ExecutionsFailed', 'ExecutionsTimedOut']);
    expect(alarm.Properties.Threshold).toBe(1);
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });

  it('the synth passed cdk-nag: no findings', () => {
    expect(violations).toEqual([]);
  });
});
