import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { acknowledge } from './nag';

/** Key-policy statement ids (the tests and docs/deploy.md name them). */
export const SEAL_DECRYPT_SID = 'DecryptOnlyToDealAndReveal';
export const SEAL_REENCRYPT_SID = 'NoReEncryptOfSeeds';
export const SIGN_SID = 'SignOnlyBySigningFunctions';

export interface KeyGuardProps {
  stage: string;
  sealKey: kms.Key;
  /** The signing keys that may sign now: the current generation (and the previous one during a handover). */
  signingKeys: readonly kms.Key[];
  /** ARNs of the roles that may decrypt sealed seeds: the ones that deal (resolve) and reveal (close). */
  decrypters: readonly string[];
  /** ARNs of the roles that sign: statements, chain heads, closes, key certificates. */
  signers: readonly string[];
  logRetention: logs.RetentionDays;
  alarmAction: actions.SnsAction;
}

/**
 * Least privilege the key policies enforce (docs/deploy.md, "Who can use the keys"), not only the
 * IAM policies: CDK's default key policy hands every decision to IAM, so any principal of the account
 * with kms:* could unseal an open shoe's seed or sign a statement. Here:
 *
 * - the seal key's policy denies kms:Decrypt to every principal but the dealing and revealing roles,
 *   and kms:ReEncryptFrom to all (re-encrypting a seed under another key would be a way around the
 *   first rule);
 * - each signing key that may sign denies kms:Sign to every principal but the signing roles;
 * - a CloudTrail trail sends the account's management events (KMS calls among them) to CloudWatch
 *   Logs, and an alarm fires on any Decrypt of the seal key by anyone else (allowed or denied), and on
 *   any change to these keys' policies or state.
 *
 * An explicit Deny in a key policy cannot be overridden by any IAM policy or grant; only a change to
 * the key policy itself lifts it, and that change raises the second alarm.
 */
export class KeyGuard extends Construct {
  readonly trail: cloudtrail.Trail;
  readonly foreignDecryptAlarm: cloudwatch.Alarm;
  readonly keyChangeAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: KeyGuardProps) {
    super(scope, id);
    const { sealKey } = props;
    const { decrypters, signers } = props;

    sealKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: SEAL_DECRYPT_SID,
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:Decrypt'],
        resources: ['*'],
        // Nobody at all when no function may (a stack without routes).
        ...(decrypters.length > 0 && { conditions: { ArnNotEquals: { 'aws:PrincipalArn': decrypters } } }),
      }),
    );
    sealKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: SEAL_REENCRYPT_SID,
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:ReEncryptFrom'],
        resources: ['*'],
      }),
    );
    for (const key of props.signingKeys) {
      key.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: SIGN_SID,
          effect: iam.Effect.DENY,
          principals: [new iam.AnyPrincipal()],
          actions: ['kms:Sign'],
          resources: ['*'],
          ...(signers.length > 0 && { conditions: { ArnNotEquals: { 'aws:PrincipalArn': signers } } }),
        }),
      );
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
    this.trail = new cloudtrail.Trail(this, 'Trail', {
      trailName: `pyb-${props.stage}-keys`,
      bucket,
      sendToCloudWatchLogs: true,
      cloudWatchLogGroup: trailLogs,
      includeGlobalServiceEvents: true,
      isMultiRegionTrail: false,
      enableFileValidation: true,
      managementEvents: cloudtrail.ReadWriteType.ALL,
    });

    const namespace = 'PuntoYBanca';
    // CloudTrail records a Lambda role's call with the role as sessionIssuer; any other identity type
    // (a user, the root, a federated session) is foreign by definition.
    const foreign = [
      '($.userIdentity.type != "AssumedRole")',
      ...(decrypters.length > 0
        ? [
            `(${decrypters.map((arn) => `$.userIdentity.sessionContext.sessionIssuer.arn != "${arn}"`).join(' && ')})`,
          ]
        : ['($.userIdentity.type = "AssumedRole")']),
    ].join(' || ');
    const decryptFilter = new logs.MetricFilter(this, 'ForeignDecrypt', {
      logGroup: trailLogs,
      metricNamespace: namespace,
      metricName: `SeedKeyForeignDecrypt-${props.stage}`,
      metricValue: '1',
      filterPattern: logs.FilterPattern.literal(
        `{ ($.eventSource = "kms.amazonaws.com") && ($.eventName = "Decrypt") && ($.resources[0].ARN = "${sealKey.keyArn}") && (${foreign}) }`,
      ),
    });
    this.foreignDecryptAlarm = alarmOn(this, 'ForeignDecryptAlarm', {
      action: props.alarmAction,
      description: `Punto y Banca ${props.stage}: a Decrypt of the seed-sealing key by a principal other than the dealing and revealing functions (allowed or denied)`,
      metric: decryptFilter.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
    });
    const guarded = [sealKey, ...props.signingKeys].map((k) => `($.resources[0].ARN = "${k.keyArn}")`);
    const changeFilter = new logs.MetricFilter(this, 'KeyChange', {
      logGroup: trailLogs,
      metricNamespace: namespace,
      metricName: `KeyPolicyOrStateChange-${props.stage}`,
      metricValue: '1',
      filterPattern: logs.FilterPattern.literal(
        `{ ($.eventSource = "kms.amazonaws.com") && (($.eventName = "PutKeyPolicy") || ($.eventName = "DisableKey") || ($.eventName = "ScheduleKeyDeletion") || ($.eventName = "CreateGrant")) && (${guarded.join(' || ')}) }`,
      ),
    });
    this.keyChangeAlarm = alarmOn(this, 'KeyChangeAlarm', {
      action: props.alarmAction,
      description: `Punto y Banca ${props.stage}: the policy, a grant or the state of a seed or signing key changed (a deploy does this too: check it was one)`,
      metric: changeFilter.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
    });
  }
}
