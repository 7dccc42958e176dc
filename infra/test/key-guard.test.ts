import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '@pyb/functions/routes';
import { WORKERS } from '@pyb/functions/workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { SIGNERS_PER_FILTER } from '../src/key-policies';
import type { PuntoYBancaStack } from '../src/stack';
import { appResources } from './app-template';

// The key guard (infra/src/key-policies.ts): who may seal, unseal, draw and sign, in the key policies
// and in the roles, and the CloudTrail alarms on everyone else (issue #24, K1: a seed nobody can
// choose). Synthesised with the functions that call a guarded KMS operation, plus two that call none
// of them (place-bet: no KMS at all; get-signing-key: GetPublicKey only), so only those are bundled;
// stack.test.ts checks every function's grants against routes.ts. The stage name is the longest the
// config accepts, so the filter patterns are measured at their longest.

/** 16 characters: the most config.ts accepts. */
const stage = 'keyguard-stage16';
const role = (handler: string) => `pyb-${stage}-${handler}`;

/**
 * Who calls which guarded KMS operation, read off the code (packages/keys/src/kms.ts maps each
 * KeyService call to one KMS operation; packages/core calls them):
 * - open-shoe: generateSeed (GenerateRandom), sealSeed (Encrypt), signs the statement (Sign);
 * - resolve-round: unseals to deal (Decrypt), signs the round head (Sign);
 * - void-round: unseals for a dealer-error void's burn (Decrypt) — the burn is drawn at the void,
 *   from the seed (pyb-shoe/3: the seed and the void's own beacon round; pyb-shoe/2: the shoe order,
 *   itself from the seed), so no function before the void could have computed it; signs the head;
 * - close-shoe: unseals to reveal the seed (Decrypt), signs the close (Sign);
 * - open-round: signs the contributions' head (Sign); settle-batch: signs the round head it finishes;
 * - close-betting: signs the receipt naming the coup's beacon round (Sign) — it draws nothing;
 * - contribute-seed: signs the contributor's receipt, the head after his seed (Sign, C1);
 * - cadence-step: a cadence table's round (deals: Decrypt, closes the shoe: Decrypt, signs heads);
 * - cadence-open-shoe: the cadence's next shoe, as open-shoe (GenerateRandom, Encrypt, Sign).
 * Written out here, not derived from routes.ts, so a new grant there fails this test until reviewed.
 */
const GUARDED: Record<string, readonly string[]> = {
  'open-shoe': ['Encrypt', 'GenerateRandom', 'Sign'],
  'resolve-round': ['Decrypt', 'Sign'],
  'void-round': ['Decrypt', 'Sign'],
  'close-shoe': ['Decrypt', 'Sign'],
  'open-round': ['Sign'],
  'settle-batch': ['Sign'],
  'close-betting': ['Sign'],
  'contribute-seed': ['Sign'],
  // A cadence table's steps deal and close shoes (unseal) and sign heads; its shoes are opened
  // (sealed) by its own shoe opener, which unseals nothing (K1: no function both seals and unseals).
  'cadence-step': ['Decrypt', 'Sign'],
  'cadence-open-shoe': ['Encrypt', 'GenerateRandom', 'Sign'],
  // Switching a table off calls "no va más" on its open round (the receipt naming the beacon round).
  'set-table-availability': ['Sign'],
  // The interrupted-game policy voids (no burn: nothing drawn) or finishes a settlement, signing the head.
  'round-deadline': ['Sign'],
};
const OPS = ['GenerateRandom', 'Encrypt', 'Decrypt', 'Sign'] as const;
const holdersOf = (op: string) =>
  Object.entries(GUARDED)
    .filter(([, ops]) => ops.includes(op))
    .map(([handler]) => handler)
    .sort();

const FUNCTIONS = [...ROUTES, ...WORKERS];
const SYNTHESISED = new Set([...Object.keys(GUARDED), 'place-bet', 'get-signing-key']);

// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
type Json = any;

interface Synth {
  resources: Record<string, Json>;
}

let outdir = '';
/** Signing-key generation 1 (the default). */
let base: Synth;
/** Generation 3 during its handover: generation 2 still signs (the certificate), generation 1 is retired. */
let handover: Synth;

function synth(context: Record<string, unknown>): Synth {
  const { app, stack } = buildApp(
    { outdir, context: { stage, ...context } },
    ROUTES.filter((r) => SYNTHESISED.has(r.handler)),
    WORKERS.filter((w) => SYNTHESISED.has(w.handler)),
  );
  app.synth(); // throws on any unacknowledged cdk-nag finding
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
  expect(report.pluginReports.flatMap((p: { violations: unknown[] }) => p.violations)).toEqual([]);
  return { resources: appResources(stack as PuntoYBancaStack) };
}

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'pyb-cdk-keys-'));
  base = synth({});
  handover = synth({ signingKeyGeneration: 3, signingKeyHandover: true });
}, 300_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const ofType = (s: Synth, type: string) =>
  Object.entries(s.resources).filter(([, r]) => r.Type === type) as [string, Json][];
const sealKey = (s: Synth) =>
  ofType(s, 'AWS::KMS::Key').find(([, k]) => k.Properties.KeySpec !== 'ECC_NIST_P256')![0];
/** The statement keys' generation, from their description (the player-token key is P-256 too). */
const GENERATION = /generation (\d+)\)$/;
/** Signing-key generations, oldest first (their logical ids: app.test.ts pins them). */
const signingKeys = (s: Synth) =>
  ofType(s, 'AWS::KMS::Key')
    .filter(([, k]) => k.Properties.KeySpec === 'ECC_NIST_P256' && GENERATION.test(k.Properties.Description))
    .map(([id, k]) => [id, Number(GENERATION.exec(k.Properties.Description)![1])] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([id]) => id);
const tokenKey = (s: Synth) =>
  ofType(s, 'AWS::KMS::Key').find(([, k]) => /players' access tokens/.test(k.Properties.Description))![0];
const keyPolicy = (s: Synth, id: string) => s.resources[id].Properties.KeyPolicy.Statement as Json[];

/** A CloudFormation string as text: `<AWS::Partition>`, `<KeyLogicalId>` for what the deploy fills in. */
function text(value: Json, subst: (ref: string) => string = (ref) => `<${ref}>`): string {
  if (typeof value === 'string') return value;
  if (value.Ref) return subst(value.Ref);
  if (value['Fn::GetAtt']) return subst(value['Fn::GetAtt'][0]);
  if (value['Fn::Join'])
    return value['Fn::Join'][1].map((v: Json) => text(v, subst)).join(value['Fn::Join'][0]);
  throw new Error(`not a string: ${JSON.stringify(value)}`);
}
const roleArn = (handler: string) => `arn:<AWS::Partition>:iam::<AWS::AccountId>:role/${role(handler)}`;
/** The roles a Deny exempts (its ArnNotEquals aws:PrincipalArn), or undefined: a Deny to everyone. */
const exempt = (statement: Json): string[] | undefined => {
  if (statement.Condition === undefined) return undefined;
  expect(Object.keys(statement.Condition)).toEqual(['ArnNotEquals']);
  expect(Object.keys(statement.Condition.ArnNotEquals)).toEqual(['aws:PrincipalArn']);
  return [statement.Condition.ArnNotEquals['aws:PrincipalArn']]
    .flat()
    .map((v: Json) => text(v))
    .sort();
};
const denyOf = (s: Synth, key: string, sid: string) => {
  const found = keyPolicy(s, key).filter((x) => x.Sid === sid);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Resource: '*' });
  return found[0];
};

describe('who calls a guarded KMS operation', () => {
  it('routes.ts and workers.ts give GenerateRandom, Encrypt, Decrypt and Sign to exactly these functions (void-round keeps Decrypt: its burn is drawn at the void)', () => {
    const declared = Object.fromEntries(
      FUNCTIONS.map((f) => [f.handler, OPS.filter((op) => f.kms.includes(op)).sort()] as const).filter(
        ([, ops]) => ops.length > 0,
      ),
    );
    expect(declared).toEqual(
      Object.fromEntries(Object.entries(GUARDED).map(([h, ops]) => [h, [...ops].sort()])),
    );
  });

  it.each(Object.keys(GUARDED).concat('place-bet', 'get-signing-key'))(
    "%s's role holds only the KMS actions it calls, each on its key alone",
    (handler) => {
      const roleId = ofType(base, 'AWS::IAM::Role').find(
        ([, r]) => r.Properties.RoleName === role(handler),
      )![0];
      const statements = ofType(base, 'AWS::IAM::Policy')
        .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[]);
      const onKeys: Record<string, string[]> = {};
      for (const s of statements) {
        const kmsActions = [s.Action].flat().filter((a: string) => a.startsWith('kms:'));
        if (kmsActions.length === 0) continue;
        expect(s.Effect).toBe('Allow');
        // Each statement grants KMS actions only, and names its keys (or "*" for GenerateRandom alone).
        expect(kmsActions).toEqual([s.Action].flat());
        for (const resource of [s.Resource].flat()) {
          const name = resource === '*' ? '*' : text(resource);
          onKeys[name] = [...(onKeys[name] ?? []), ...kmsActions].sort();
        }
      }
      const [gen1] = signingKeys(base);
      const ops = GUARDED[handler] ?? [];
      const expected: Record<string, string[]> = {};
      const add = (key: string, action: string) => {
        expected[key] = [...(expected[key] ?? []), action].sort();
      };
      if (ops.includes('GenerateRandom')) add('*', 'kms:GenerateRandom');
      if (ops.includes('Encrypt')) add(`<${sealKey(base)}>`, 'kms:Encrypt');
      if (ops.includes('Decrypt')) add(`<${sealKey(base)}>`, 'kms:Decrypt');
      if (ops.includes('Sign')) add(`<${gen1}>`, 'kms:Sign');
      if (handler !== 'place-bet') add(`<${gen1}>`, 'kms:GetPublicKey');
      // Player tokens (their own key, not a seed's nor a statement's): verified, or signed too.
      const found = FUNCTIONS.find((f) => f.handler === handler);
      const tokens = found && 'tokens' in found ? found.tokens : undefined;
      if (tokens) add(`<${tokenKey(base)}>`, 'kms:GetPublicKey');
      if (tokens === 'sign') add(`<${tokenKey(base)}>`, 'kms:Sign');
      expect(onKeys).toEqual(expected);
    },
  );
});

describe('the seal key: a seed nobody can choose, and nobody else can read', () => {
  it('denies kms:Encrypt to every principal but the shoe openers (open-shoe, cadence-open-shoe)', () => {
    const deny = denyOf(base, sealKey(base), 'EncryptOnlyByShoeOpener');
    expect(deny.Action).toBe('kms:Encrypt');
    expect(holdersOf('Encrypt')).toEqual(['cadence-open-shoe', 'open-shoe']);
    expect(exempt(deny)).toEqual(holdersOf('Encrypt').map(roleArn).sort());
  });

  it('no function both seals and unseals a seed (K1)', () => {
    const sealers = [...holdersOf('Encrypt'), ...holdersOf('GenerateRandom')];
    expect(holdersOf('Decrypt').filter((h) => sealers.includes(h))).toEqual([]);
  });

  it('denies kms:GenerateDataKey* and kms:ReEncrypt* to every principal (no function uses them)', () => {
    const deny = denyOf(base, sealKey(base), 'NoDataKeysNoReEncrypt');
    expect(deny.Action).toEqual(['kms:GenerateDataKey*', 'kms:ReEncrypt*']);
    expect(exempt(deny)).toBeUndefined();
  });

  it('denies kms:Decrypt to every principal but the resolve-round, void-round and close-shoe roles', () => {
    const deny = denyOf(base, sealKey(base), 'DecryptOnlyToDealAndReveal');
    expect(deny.Action).toBe('kms:Decrypt');
    expect(exempt(deny)).toEqual(holdersOf('Decrypt').map(roleArn).sort());
  });

  it("denies crypto actions only: the account's administration of every key (kms:* to the root) stays", () => {
    const crypto = new Set([
      'kms:Encrypt',
      'kms:Decrypt',
      'kms:GenerateDataKey*',
      'kms:ReEncrypt*',
      'kms:Sign',
    ]);
    for (const s of [base, handover]) {
      for (const [id] of ofType(s, 'AWS::KMS::Key')) {
        const statements = keyPolicy(s, id);
        expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 'kms:*', Resource: '*' });
        expect(text(statements[0].Principal.AWS)).toBe('arn:<AWS::Partition>:iam::<AWS::AccountId>:root');
        for (const deny of statements.filter((x) => x.Effect === 'Deny')) {
          for (const action of [deny.Action].flat()) expect(crypto.has(action), action).toBe(true);
        }
      }
    }
  });
});

describe('the signing keys', () => {
  it.each([
    ['generation 1', () => base, [1]],
    ['the handover to generation 3', () => handover, [2, 3]],
  ] as const)(
    '%s: each key that signs denies kms:Sign to every principal but the signing roles',
    (_, s, signers) => {
      const keys = signingKeys(s());
      for (const generation of signers) {
        const deny = denyOf(s(), keys[generation - 1]!, 'SignOnlyBySigningFunctions');
        expect(deny.Action).toBe('kms:Sign');
        expect(exempt(deny)).toEqual(holdersOf('Sign').map(roleArn).sort());
      }
    },
  );
});

describe('CloudTrail alarms on a guarded call by anyone outside its roles', () => {
  const trailLogGroup = (s: Synth) => {
    const [trail, ...others] = ofType(s, 'AWS::CloudTrail::Trail');
    expect(others).toEqual([]);
    return trail![1].Properties.CloudWatchLogsLogGroupArn['Fn::GetAtt'][0] as string;
  };
  /** Metric filters by metric name (with the stage), their patterns as text. */
  const filtersOf = (s: Synth, metric: string) =>
    ofType(s, 'AWS::Logs::MetricFilter')
      .map(([, f]) => f.Properties)
      .filter((f) => f.MetricTransformations[0].MetricName === `${metric}-${stage}`)
      .map((f) => {
        expect(f.LogGroupName.Ref).toBe(trailLogGroup(s));
        expect(f.MetricTransformations).toEqual([
          { MetricName: `${metric}-${stage}`, MetricNamespace: 'PuntoYBanca', MetricValue: '1' },
        ]);
        return text(f.FilterPattern);
      });

  // The filter patterns, written out: what each one must match.
  const issuer = '$.userIdentity.sessionContext.sessionIssuer';
  const outside = (handlers: string[]) =>
    ` && (($.userIdentity.type != "AssumedRole") || (${issuer}.accountId != "<AWS::AccountId>") || (${handlers
      .map((h) => `${issuer}.userName != "${role(h)}"`)
      .join(' && ')}))`;
  const kms = '{ ($.eventSource = "kms.amazonaws.com") && ';
  const on = (key: string, slots = 1) =>
    ` && (${Array.from({ length: slots }, (_, i) => `($.resources[${i}].ARN = "<${key}>")`).join(' || ')})`;

  it('the trail logs every management event, reads included (KMS logs its crypto calls as reads), to CloudWatch Logs', () => {
    const [[, trail]] = ofType(base, 'AWS::CloudTrail::Trail') as [[string, Json]];
    expect(trail.Properties).toMatchObject({ IsLogging: true, EnableLogFileValidation: true });
    expect(trail.Properties.EventSelectors).toEqual([
      { IncludeManagementEvents: true, ReadWriteType: 'All' },
    ]);
    expect(trailLogGroup(base)).toBeDefined();
  });

  it('GenerateRandom by anyone but the shoe openers (open-shoe, cadence-open-shoe)', () => {
    expect(holdersOf('GenerateRandom')).toEqual(['cadence-open-shoe', 'open-shoe']);
    expect(filtersOf(base, 'ForeignGenerateRandom')).toEqual([
      `${kms}(($.eventName = "GenerateRandom"))${outside(holdersOf('GenerateRandom'))} }`,
    ]);
  });

  it('a seal (Encrypt, GenerateDataKey*, ReEncrypt from or to the seal key) by anyone but the shoe openers', () => {
    const events = [
      'Encrypt',
      'GenerateDataKey',
      'GenerateDataKeyWithoutPlaintext',
      'GenerateDataKeyPair',
      'GenerateDataKeyPairWithoutPlaintext',
      'ReEncrypt',
    ];
    expect(filtersOf(base, 'SeedKeyForeignSeal')).toEqual([
      `${kms}(${events.map((e) => `($.eventName = "${e}")`).join(' || ')})${on(sealKey(base), 2)}${outside(holdersOf('Encrypt'))} }`,
    ]);
  });

  it('Decrypt of the seal key by anyone but resolve-round, void-round and close-shoe', () => {
    expect(filtersOf(base, 'SeedKeyForeignDecrypt')).toEqual([
      `${kms}(($.eventName = "Decrypt"))${on(sealKey(base))}${outside(holdersOf('Decrypt'))} }`,
    ]);
  });

  it.each([
    ['generation 1', () => base, [1]],
    ['the handover to generation 3', () => handover, [2, 3]],
  ] as const)(
    "%s: every Sign with a signing key counted, and the signing roles' own with a key that signs, a few roles a filter",
    (_, s, signers) => {
      const keys = signingKeys(s());
      expect(filtersOf(s(), 'SigningKeyForeignSign-calls')).toEqual(
        keys.map((key) => `${kms}(($.eventName = "Sign"))${on(key)} }`),
      );
      const holders = holdersOf('Sign');
      const groups = Array.from({ length: Math.ceil(holders.length / SIGNERS_PER_FILTER) }, (_, j) =>
        holders.slice(j * SIGNERS_PER_FILTER, (j + 1) * SIGNERS_PER_FILTER),
      );
      expect(filtersOf(s(), 'SigningKeyForeignSign-signers')).toEqual(
        keys
          .filter((_, i) => (signers as readonly number[]).includes(i + 1))
          .flatMap((key) =>
            groups.map(
              (group) =>
                `${kms}($.eventName = "Sign") && ($.resources[0].ARN = "<${key}>") && ($.userIdentity.type = "AssumedRole") && (${issuer}.accountId = "<AWS::AccountId>") && (${group.map((h) => `${issuer}.userName = "${role(h)}"`).join(' || ')}) }`,
            ),
          ),
      );
      // each signing role in exactly one group: a call of his is subtracted once
      expect(groups.flat().sort()).toEqual([...holders].sort());
    },
  );

  it("the Sign alarm: the calls less the signers' own, at the first foreign one in 5 minutes, to the alarm topic", () => {
    const topics = ofType(base, 'AWS::SNS::Topic').map(([id]) => id);
    const alarms = ofType(base, 'AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => String(a.AlarmDescription).includes('retired key'));
    expect(alarms).toHaveLength(1);
    const alarm = alarms[0]!;
    expect(alarm).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const metrics = alarm.Metrics as Json[];
    expect(metrics.find((m) => m.Expression)).toMatchObject({
      Expression: 'FILL(calls, 0) - FILL(signers, 0)',
    });
    for (const [id, name] of [
      ['calls', 'SigningKeyForeignSign-calls'],
      ['signers', 'SigningKeyForeignSign-signers'],
    ] as const) {
      expect(metrics.find((m) => m.Id === id)!.MetricStat).toMatchObject({
        Metric: { Namespace: 'PuntoYBanca', MetricName: `${name}-${stage}` },
        Period: 300,
        Stat: 'Sum',
      });
    }
    expect(alarm.AlarmActions).toEqual([{ Ref: topics[0] }]);
  });

  it('each pattern fits CloudWatch Logs (1,024 characters) with the longest partition, Region and stage', () => {
    const longest = (ref: string) =>
      ref === 'AWS::Partition'
        ? 'aws-us-gov'
        : ref === 'AWS::AccountId'
          ? '123456789012'
          : `arn:aws-us-gov:kms:ap-southeast-3:123456789012:key/${'0'.repeat(36)}`;
    for (const s of [base, handover]) {
      for (const [, f] of ofType(s, 'AWS::Logs::MetricFilter')) {
        expect(text(f.Properties.FilterPattern, longest).length).toBeLessThanOrEqual(1024);
      }
    }
  });

  it.each([
    ['ForeignGenerateRandom', 'shoe opener'],
    ['SeedKeyForeignSeal', 'seed somebody could choose'],
    ['SeedKeyForeignDecrypt', 'void'],
  ])('%s: an alarm at the first call in 5 minutes, to the alarm topic', (metric, says) => {
    const topics = ofType(base, 'AWS::SNS::Topic').map(([id]) => id);
    expect(topics).toHaveLength(1);
    const alarms = ofType(base, 'AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => a.MetricName === `${metric}-${stage}`);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      Namespace: 'PuntoYBanca',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarms[0].AlarmActions).toEqual([{ Ref: topics[0] }]);
    expect(alarms[0].AlarmDescription).toContain(says);
  });
});
