import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { acknowledge } from './nag';

/** The KMS operations the guard watches: each one only by the roles routes.ts (workers.ts) gives it. */
export type GuardedOperation = 'GenerateRandom' | 'Encrypt' | 'Decrypt' | 'Sign';
export const GUARDED_OPERATIONS: readonly GuardedOperation[] = [
  'GenerateRandom',
  'Encrypt',
  'Decrypt',
  'Sign',
];

/** Key-policy statement ids (the tests and docs/deploy.md name them). */
export const SEAL_ENCRYPT_SID = 'EncryptOnlyByShoeOpener';
export const SEAL_DECRYPT_SID = 'DecryptOnlyToDealAndReveal';
export const SEAL_NO_DATA_KEYS_SID = 'NoDataKeysNoReEncrypt';
export const SIGN_SID = 'SignOnlyBySigningFunctions';

/** The seal key's actions nobody may call: each would give a ciphertext of the seal key (or take one out). */
export const SEAL_DENIED_TO_ALL = ['kms:GenerateDataKey*', 'kms:ReEncrypt*'] as const;

/** CloudTrail's eventName of each call that makes a ciphertext of the seal key (the "seal" alarm). */
export const SEALING_EVENTS = [
  'Encrypt',
  'GenerateDataKey',
  'GenerateDataKeyWithoutPlaintext',
  'GenerateDataKeyPair',
  'GenerateDataKeyPairWithoutPlaintext',
  'ReEncrypt',
] as const;

/** The metric (namespace PuntoYBanca, `-<stage>` appended) each guarded operation's alarm watches. */
export const FOREIGN_CALL_METRICS: Record<GuardedOperation, string> = {
  GenerateRandom: 'ForeignGenerateRandom',
  Encrypt: 'SeedKeyForeignSeal',
  Decrypt: 'SeedKeyForeignDecrypt',
  Sign: 'SigningKeyForeignSign',
};

export interface KeyGuardProps {
  stage: string;
  sealKey: kms.Key;
  /** The signing keys that may sign now: the current generation (and the previous one during a handover). */
  signingKeys: readonly kms.Key[];
  /** Every signing-key generation: a Sign with a retired one alarms whoever calls it. */
  allSigningKeys: readonly kms.Key[];
  /**
   * Names of the roles (in this account) that may call each operation: open-shoe draws (GenerateRandom)
   * and seals (Encrypt); resolve, void and close decrypt; the signing functions sign.
   */
  roles: Readonly<Record<GuardedOperation, readonly string[]>>;
  logRetention: logs.RetentionDays;
  alarmAction: actions.SnsAction;
}

/** A role of this account by its name (the same ARN in every Region). */
const roleArn = (name: string) => `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${name}`;

/** A Deny of `actions` to every principal but the roles named (to every principal when none is). */
function denyAllBut(
  sid: string,
  actions: readonly string[],
  roleNames: readonly string[],
): iam.PolicyStatement {
  return new iam.PolicyStatement({
    sid,
    effect: iam.Effect.DENY,
    principals: [new iam.AnyPrincipal()],
    actions: [...actions],
    resources: ['*'],
    ...(roleNames.length > 0 && {
      conditions: { ArnNotEquals: { 'aws:PrincipalArn': roleNames.map(roleArn) } },
    }),
  });
}

/**
 * The caller is none of `roleNames`: a call by a Lambda role is logged as an AssumedRole session
 * whose issuer is the role; any other identity type (a user, the root, a federated session, another
 * account's role) is foreign by definition. The role's name, not its ARN: a filter pattern holds at
 * most 1,024 characters, and six signing roles by ARN would not leave room for the key.
 */
function callerOutside(roleNames: readonly string[]): string | undefined {
  if (roleNames.length === 0) return undefined;
  const issuer = '$.userIdentity.sessionContext.sessionIssuer';
  return [
    '($.userIdentity.type != "AssumedRole")',
    `(${issuer}.accountId != "${Aws.ACCOUNT_ID}")`,
    `(${roleNames.map((name) => `${issuer}.userName != "${name}"`).join(' && ')})`,
  ].join(' || ');
}

/** Signing roles named in one filter: each name costs ~90 characters of the 1,024 a pattern may hold. */
export const SIGNERS_PER_FILTER = 4;

const chunks = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** A Sign with `key` by one of `roleNames` (a Lambda role of this account): the signers' own calls. */
export function signerCallPattern(key: string, roleNames: readonly string[]): string {
  const issuer = '$.userIdentity.sessionContext.sessionIssuer';
  return `{ ${[
    '($.eventSource = "kms.amazonaws.com")',
    '($.eventName = "Sign")',
    `($.resources[0].ARN = "${key}")`,
    '($.userIdentity.type = "AssumedRole")',
    `(${issuer}.accountId = "${Aws.ACCOUNT_ID}")`,
    `(${roleNames.map((name) => `${issuer}.userName = "${name}"`).join(' || ')})`,
  ].join(' && ')} }`;
}

/** A CloudTrail event of KMS, one of `events`, on one of `keys` (any key when none), by a caller outside `roleNames`. */
export function foreignCallPattern(
  events: readonly string[],
  keys: readonly string[],
  roleNames: readonly string[],
  resourceSlots = 1,
): string {
  const any = (terms: string[]) => `(${terms.join(' || ')})`;
  const slots = Array.from({ length: resourceSlots }, (_, i) => i);
  const terms = [
    '($.eventSource = "kms.amazonaws.com")',
    any(events.map((e) => `($.eventName = "${e}")`)),
    ...(keys.length > 0
      ? [any(keys.flatMap((k) => slots.map((i) => `($.resources[${i}].ARN = "${k}")`)))]
      : []),
  ];
  const outside = callerOutside(roleNames);
  if (outside) terms.push(`(${outside})`);
  return `{ ${terms.join(' && ')} }`;
}

/**
 * Least privilege the key policies enforce (docs/deploy.md, "Least privilege: who may do what";
 * docs/provably-fair.md §9), not only the IAM policies: CDK's default key policy hands every decision
 * to IAM, so any principal of the account with kms:* could unseal an open shoe's seed, seal a seed of
 * his own, or sign a statement. Here:
 *
 * - the seal key's policy denies kms:Encrypt to every principal but the shoe opener's role (a
 *   ciphertext of the seal key made by anyone else would be a seed he chose and knows, stored as the
 *   shoe's); kms:Decrypt to every principal but the roles that deal (resolve), void and reveal
 *   (close) — void keeps it because a dealer-error void burns cards drawn at the void itself
 *   (pyb-shoe/2: from the shoe order; pyb-shoe/3: from the seed and the void's beacon round), both
 *   from the unsealed seed; and kms:GenerateDataKey* and kms:ReEncrypt* to all, since no function
 *   uses them and each would make a ciphertext of the seal key around the first rule (a data key's
 *   plaintext is returned beside it; ReEncrypt moves a ciphertext in, or a seed out to a key its
 *   caller may decrypt);
 * - each signing key that may sign denies kms:Sign to every principal but the signing roles;
 * - a CloudTrail trail sends the account's management events (KMS calls among them) to CloudWatch
 *   Logs, and alarms fire on any GenerateRandom, seal (Encrypt and the calls above), Decrypt or Sign
 *   on these keys by a principal outside the roles of that operation, allowed or denied, and on any
 *   change to these keys' policies or state.
 *
 * An explicit Deny in a key policy cannot be overridden by any IAM policy or grant; only a change to
 * the key policy itself lifts it, and that change raises the key-change alarm. The Denies name crypto
 * actions only: the account's administration of the key (PutKeyPolicy and the rest, CDK's default
 * statement) is untouched, so the stack can always update the policy. GenerateRandom acts on no key,
 * so no key policy can refuse it: IAM grants it to open-shoe only, and the alarm watches the rest.
 */
export class KeyGuard extends Construct {
  readonly trail: cloudtrail.Trail;
  /** One alarm per guarded operation: a call by a principal outside its roles. */
  readonly foreignCallAlarms: Record<GuardedOperation, cloudwatch.Alarm>;
  readonly keyChangeAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: KeyGuardProps) {
    super(scope, id);
    const { sealKey, roles, stage } = props;

    sealKey.addToResourcePolicy(denyAllBut(SEAL_ENCRYPT_SID, ['kms:Encrypt'], roles.Encrypt));
    // Nobody at all when no function may (a stack without routes).
    sealKey.addToResourcePolicy(denyAllBut(SEAL_DECRYPT_SID, ['kms:Decrypt'], roles.Decrypt));
    sealKey.addToResourcePolicy(denyAllBut(SEAL_NO_DATA_KEYS_SID, SEAL_DENIED_TO_ALL, []));
    for (const key of props.signingKeys) {
      key.addToResourcePolicy(denyAllBut(SIGN_SID, ['kms:Sign'], roles.Sign));
    }

    // CloudTrail -> CloudWatch Logs. The bucket keeps the trail's files (encrypted, TLS only, versioned).
    const bucket = new s3.Bucket(this, 'TrailBucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      bucket,
      'AwsSolutions-S1',
      'This bucket only receives CloudTrail log files; CloudTrail itself records every access to it as data ' +
        'events would, and a second access-log bucket would only log the logging.',
    );
    const trailLogs = new logs.LogGroup(this, 'TrailLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Management events, read ones included: KMS logs Encrypt, Decrypt, GenerateRandom and Sign as reads.
    this.trail = new cloudtrail.Trail(this, 'Trail', {
      trailName: `pyb-${stage}-keys`,
      bucket,
      sendToCloudWatchLogs: true,
      cloudWatchLogGroup: trailLogs,
      includeGlobalServiceEvents: true,
      isMultiRegionTrail: false,
      enableFileValidation: true,
      managementEvents: cloudtrail.ReadWriteType.ALL,
    });

    const namespace = 'PuntoYBanca';
    const signs = new Set(props.signingKeys);
    // Per operation: its alarm, and the metric filters that feed its metric. Sign is counted apart
    // (below): its signers are too many for one pattern's list of names.
    const watched: Record<
      Exclude<GuardedOperation, 'Sign'>,
      { alarm: string; what: string; filters: [string, string][] }
    > = {
      GenerateRandom: {
        alarm: 'ForeignGenerateRandomAlarm',
        what: 'a KMS GenerateRandom by a principal other than the shoe openers',
        filters: [
          ['ForeignGenerateRandom', foreignCallPattern(['GenerateRandom'], [], roles.GenerateRandom)],
        ],
      },
      Encrypt: {
        alarm: 'ForeignSealAlarm',
        what:
          'an Encrypt, GenerateDataKey* or ReEncrypt with the seed-sealing key by a principal other than ' +
          'the shoe openers: a seed somebody could choose',
        // ReEncrypt names two keys (source and destination): the seal key may be either.
        filters: [['ForeignSeal', foreignCallPattern(SEALING_EVENTS, [sealKey.keyArn], roles.Encrypt, 2)]],
      },
      Decrypt: {
        alarm: 'ForeignDecryptAlarm',
        what:
          'a Decrypt of the seed-sealing key by a principal other than the dealing, voiding and revealing ' +
          'functions',
        filters: [['ForeignDecrypt', foreignCallPattern(['Decrypt'], [sealKey.keyArn], roles.Decrypt)]],
      },
    };
    const metricFilter = (filterId: string, metricName: string, pattern: string) =>
      new logs.MetricFilter(this, filterId, {
        logGroup: trailLogs,
        metricNamespace: namespace,
        metricName,
        metricValue: '1',
        filterPattern: logs.FilterPattern.literal(pattern),
      });
    const sum = (metricName: string) =>
      new cloudwatch.Metric({ namespace, metricName, statistic: 'Sum', period: Duration.minutes(5) });
    const alarms: Partial<Record<GuardedOperation, cloudwatch.Alarm>> = {};
    for (const op of ['GenerateRandom', 'Encrypt', 'Decrypt'] as const) {
      const { alarm, what, filters } = watched[op];
      const metricName = `${FOREIGN_CALL_METRICS[op]}-${stage}`;
      for (const [filterId, pattern] of filters) metricFilter(filterId, metricName, pattern);
      alarms[op] = alarmOn(this, alarm, {
        action: props.alarmAction,
        description: `Punto y Banca ${stage}: ${what} (allowed or denied)`,
        metric: sum(metricName),
      });
    }

    // Sign: every Sign with a statement-signing key is counted, and the signing roles' own Signs with a
    // key that signs are counted apart, a few roles a filter (each call matches one filter at most);
    // the alarm is on the difference, so a Sign by anyone else, or with a retired key, raises it.
    const signCalls = `${FOREIGN_CALL_METRICS.Sign}-calls-${stage}`;
    const bySigners = `${FOREIGN_CALL_METRICS.Sign}-signers-${stage}`;
    props.allSigningKeys.forEach((key, i) => {
      metricFilter(`SignCallsGen${i + 1}`, signCalls, foreignCallPattern(['Sign'], [key.keyArn], []));
      if (!signs.has(key)) return;
      chunks(roles.Sign, SIGNERS_PER_FILTER).forEach((group, j) => {
        metricFilter(
          `SignBySignersGen${i + 1}Group${j + 1}`,
          bySigners,
          signerCallPattern(key.keyArn, group),
        );
      });
    });
    alarms.Sign = alarmOn(this, 'ForeignSignAlarm', {
      action: props.alarmAction,
      description:
        `Punto y Banca ${stage}: a Sign with a statement-signing key by a principal other than the ` +
        'signing functions, or with a retired key by anyone (allowed or denied)',
      metric: new cloudwatch.MathExpression({
        expression: 'FILL(calls, 0) - FILL(signers, 0)',
        usingMetrics: { calls: sum(signCalls), signers: sum(bySigners) },
        label: `${FOREIGN_CALL_METRICS.Sign}-${stage}`,
        period: Duration.minutes(5),
      }),
    });
    this.foreignCallAlarms = alarms as Record<GuardedOperation, cloudwatch.Alarm>;

    const guarded = [sealKey, ...props.signingKeys].map((k) => `($.resources[0].ARN = "${k.keyArn}")`);
    const changeFilter = new logs.MetricFilter(this, 'KeyChange', {
      logGroup: trailLogs,
      metricNamespace: namespace,
      metricName: `KeyPolicyOrStateChange-${stage}`,
      metricValue: '1',
      filterPattern: logs.FilterPattern.literal(
        `{ ($.eventSource = "kms.amazonaws.com") && (($.eventName = "PutKeyPolicy") || ($.eventName = "DisableKey") || ($.eventName = "ScheduleKeyDeletion") || ($.eventName = "CreateGrant")) && (${guarded.join(' || ')}) }`,
      ),
    });
    this.keyChangeAlarm = alarmOn(this, 'KeyChangeAlarm', {
      action: props.alarmAction,
      description: `Punto y Banca ${stage}: the policy, a grant or the state of a seed or signing key changed (a deploy does this too: check it was one)`,
      metric: changeFilter.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
    });
  }
}
