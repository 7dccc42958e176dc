import type { DataTable, QueueName, Route } from '@pyb/functions/routes';
import { type Worker, workerEntry } from '@pyb/functions/workers';
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { bundledHandlerCode, LAMBDA_HANDLER } from './bundling';
import type { DeployedTable } from './data';
import { type KeyName, keyGrants, tableGrants } from './grants';
import { acknowledge } from './nag';
import { TIME_STAMP_USERS, type TimeStampAuthority, timeStampBundle } from './time-stamps';

export const RUNTIME = lambda.Runtime.NODEJS_22_X;
export const MEMORY_MB = 1024;
export const TIMEOUT = Duration.seconds(10);
/** Settling or refunding every position of a round (or a shoe) walks all of them: give it room. */
export const LONG_TIMEOUT = Duration.seconds(28);
const LONG_RUNNING = new Set(['resolve-round', 'void-round', 'close-shoe', 'settle-batch']);

export interface RouteFunctionProps {
  stage: string;
  /** A routes.ts entry, or a queue consumer of workers.ts. */
  route: Route | Worker;
  tables: Record<DataTable, DeployedTable>;
  /** The keys each KeyName covers (`verify`: every signing-key generation). */
  keys: Record<KeyName, readonly kms.IKey[]>;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** The queues a `queues` entry may name (sqs:SendMessage on each named one). */
  queues?: Partial<Record<QueueName, sqs.IQueue>>;
  /** The seamless operators' signing secrets: readable by an entry with `operatorWallets` (seamless.ts). */
  operatorSecrets?: readonly secretsmanager.ISecret[];
  /** The player-token key: GetPublicKey for a route with `tokens`, Sign too for `tokens: 'sign'`. */
  tokenKey?: kms.IKey;
  /** The stage's TSAs: a TIME_STAMP_USERS function gets their URLs and certificates (time-stamps.ts). */
  timeStampAuthorities?: readonly TimeStampAuthority[];
}

/** What the function does, for descriptions: the route, or the worker's own words. */
const describe = (route: Route | Worker): string =>
  'path' in route ? `${route.method} ${route.path}` : route.description;

/**
 * One Lambda function for one routes.ts entry: its bundle, its own role holding exactly the grants
 * the entry declares (no managed policies), its own log group, and the alarms on it.
 */
export class RouteFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route, stage } = props;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Kept after the stack is deleted; the events still expire with the retention.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.role = new iam.Role(this, 'Role', {
      roleName: functionRoleName(stage, route.handler),
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${describe(route)} (${stage})`,
    });
    // Instead of AWSLambdaBasicExecutionRole (logs on every log group): this function's group only.
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'Logs',
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );
    for (const grant of tableGrants(route)) {
      const table = props.tables[grant.table];
      // Queries on a secondary index are authorised on the index ARN: name each one, no wildcard.
      const resources = [table.tableArn, ...table.indexNames.map((i) => `${table.tableArn}/index/${i}`)];
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: sid('Table', grant.table), actions: [...grant.actions], resources }),
      );
    }
    for (const grant of keyGrants(route)) {
      const keys = grant.key === undefined ? undefined : props.keys[grant.key];
      if (keys?.length === 0) throw new Error(`no KMS key for '${grant.key}' (${route.handler})`);
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: sid('Kms', grant.key ?? 'random'),
          actions: [...grant.actions],
          resources: keys === undefined ? ['*'] : keys.map((k) => k.keyArn),
          ...(grant.conditions && { conditions: grant.conditions }),
        }),
      );
      if (keys === undefined) {
        acknowledge(
          this.role,
          'AwsSolutions-IAM5[Resource::*]',
          'kms:GenerateRandom is not a key operation: IAM only accepts Resource "*" for it ' +
            '(https://docs.aws.amazon.com/kms/latest/developerguide/kms-api-permissions-reference.html). ' +
            `The statement grants kms:GenerateRandom and nothing else, to ${route.handler} only.`,
        );
      }
    }

    const tokens = 'tokens' in route ? route.tokens : undefined;
    if (tokens) {
      if (!props.tokenKey) throw new Error(`no player-token key for ${route.handler}`);
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'KmsPlayerTokenPublicKey',
          actions: ['kms:GetPublicKey'],
          resources: [props.tokenKey.keyArn],
        }),
      );
      if (tokens === 'sign') {
        this.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: 'KmsPlayerTokenSign',
            actions: ['kms:Sign'],
            resources: [props.tokenKey.keyArn],
            conditions: { StringEquals: { 'kms:SigningAlgorithm': 'ECDSA_SHA_256' } },
          }),
        );
      }
    }

    for (const name of route.queues ?? []) {
      const queue = props.queues?.[name];
      if (!queue) throw new Error(`no queue '${name}' for ${route.handler}`);
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: sid('Queue', name),
          actions: ['sqs:SendMessage'],
          resources: [queue.queueArn],
        }),
      );
    }

    // Only the secrets of operators declared seamless (config.ts): none declared, no statement.
    const secrets = route.operatorWallets ? (props.operatorSecrets ?? []) : [];
    if (secrets.length > 0) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'OperatorWalletSecrets',
          actions: ['secretsmanager:GetSecretValue'],
          resources: secrets.map((s) => s.secretArn),
        }),
      );
    }

    const stamps =
      (TIME_STAMP_USERS as readonly string[]).includes(route.handler) && props.timeStampAuthorities?.length
        ? timeStampBundle(props.timeStampAuthorities)
        : { files: {}, environment: {} };
    this.function = new NodejsFunction(this, 'Function', {
      functionName: `pyb-${stage}-${route.handler}`,
      description: describe(route),
      code: bundledHandlerCode('path' in route ? route.handler : workerEntry(route), stamps.files),
      handler: LAMBDA_HANDLER,
      runtime: RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: MEMORY_MB,
      timeout: timeoutOf(route),
      role: this.role,
      logGroup: this.logGroup,
      // Stack traces through the bundle's source map (the map is next to index.mjs).
      environment: { ...props.environment, ...stamps.environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    acknowledge(
      this.function,
      'AwsSolutions-L1',
      'Pinned to Node.js 22 on purpose: the bundles are built for node22 (infra/src/bundling.ts) and ' +
        'the cold-start budget in docs/benchmarks.md is measured for it; a runtime upgrade is a ' +
        'deliberate change with its own measurement, not something a synth should drift into.',
    );

    this.alarms = [
      alarmOn(this, 'ErrorsAlarm', {
        description: `${route.handler} (${stage}): the function failed (uncaught error or timeout)`,
        metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      }),
    ];
  }
}

/** A worker's own timeout, else the long one for the functions that walk a round or a shoe, else 10 s. */
export function timeoutOf(route: Route | Worker): Duration {
  if ('timeoutSeconds' in route && route.timeoutSeconds) return Duration.seconds(route.timeoutSeconds);
  return LONG_RUNNING.has(route.handler) ? LONG_TIMEOUT : TIMEOUT;
}

/**
 * A function's role is named after it, so that the key policies (parent stack) can name the roles that
 * may decrypt or sign (nested stacks) without a reference: a reference would be a cycle, the roles'
 * policies naming the keys.
 */
export function functionRoleName(stage: string, handler: string): string {
  return `pyb-${stage}-${handler}`;
}

export function functionRoleArn(stage: string, handler: string): string {
  return `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${functionRoleName(stage, handler)}`;
}

/** IAM statement ids are alphanumeric: Table + game -> TableGame. */
function sid(prefix: string, name: string): string {
  return prefix + name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
