import type { QueueName } from '@pyb/functions/routes';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { acknowledge } from './nag';
import type { RouteFunction } from './route-function';
import { TIMEOUT } from './route-function';

/**
 * Receives of one outbox message before it goes to the dead-letter queue. The delivery function puts a
 * message it could not deliver back with a growing delay (@pyb/outbox-sqs `redeliveryDelaySeconds`:
 * 30 s doubling, at most 1 h), so 12 receives span about 5 hours of an operator's wallet not answering
 * (docs/deploy.md, "Seamless operators").
 */
export const OUTBOX_MAX_RECEIVE_COUNT = 12;
/** Messages handed to one delivery invocation (one credit or rollback each, delivered in parallel). */
export const OUTBOX_BATCH_SIZE = 10;
/** Delivery invocations at once: bounds the calls in flight to operators' wallets. */
export const OUTBOX_MAX_CONCURRENCY = 20;
/** A credit or rollback not acknowledged for this long means an operator's wallet is not answering. */
export const OUTBOX_MAX_AGE = Duration.minutes(15);
/** Days an undelivered message is kept: the dead-letter queue holds it for a person to redrive. */
export const OUTBOX_DLQ_RETENTION = Duration.days(14);
/** The daily reconciliation: 00:30 UTC, for the UTC day that just ended. */
export const RECONCILIATION_SCHEDULE = 'cron(30 0 * * ? *)';
/** What functions/jobs/reconcile-seamless emits: unresolved seamless transactions in a day's report. */
export const UNRESOLVED_METRIC = { namespace: 'PuntoYBanca', name: 'SeamlessUnresolved' } as const;
/** The scheduled function of workers.ts that reconciles one operator's day. */
export const RECONCILE_HANDLER = 'reconcile-seamless';

/**
 * The Secrets Manager name of an operator's signing secret: `pyb-<stage>/seamless/<operatorId>` (the
 * `secretRef` of its operator record; docs/deploy.md, "Seamless operators").
 */
export const seamlessSecretName = (stage: string, operatorId: string): string =>
  `pyb-${stage}/seamless/${operatorId}`;

export interface SeamlessWalletsProps {
  stage: string;
  /** The operators in seamless mode (config.ts `seamlessOperators`). */
  operators: readonly string[];
}

/**
 * The AWS side of seamless wallets (docs/seamless-wallet.md): the outbox queue the credits and
 * rollbacks are delivered through (standard queue, at least once: every delivery carries its stable
 * txId, which the operator applies once), its dead-letter queue with a redrive back, alarms on
 * anything dead-lettered and on a delivery waiting too long, one signing secret per seamless operator,
 * and the daily reconciliation schedule of each.
 */
export class SeamlessWallets extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  /** operatorId -> its HMAC secret (AWSCURRENT signs; AWSPREVIOUS still verifies during a rotation). */
  readonly secrets: ReadonlyMap<string, secretsmanager.Secret>;
  readonly alarms: cloudwatch.Alarm[];
  readonly group: scheduler.CfnScheduleGroup;
  /** What every function reads (names, not permissions). */
  readonly environment: Record<string, string>;
  private readonly props: SeamlessWalletsProps;

  constructor(scope: Construct, id: string, props: SeamlessWalletsProps) {
    super(scope, id);
    this.props = props;
    const prefix = `pyb-${props.stage}`;
    const stack = Stack.of(this);
    const queueName = `${prefix}-outbox`;

    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      queueName: `${prefix}-outbox-dlq`,
      retentionPeriod: OUTBOX_DLQ_RETENTION,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // A person redrives it back to the outbox once the operator's wallet answers again (a message
      // move task). Named by ARN, not by reference: the outbox already references this queue.
      redriveAllowPolicy: {
        redrivePermission: sqs.RedrivePermission.BY_QUEUE,
        sourceQueues: [
          sqs.Queue.fromQueueArn(this, 'Source', stack.formatArn({ service: 'sqs', resource: queueName })),
        ],
      },
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName,
      // AWS's advice for a Lambda source: at least six times the function's timeout. A failed delivery
      // sets its own, longer, visibility (the backoff).
      visibilityTimeout: Duration.seconds(TIMEOUT.toSeconds() * 6),
      // Longer than the whole backoff (about 5 h), with room for a day of an outage.
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: OUTBOX_MAX_RECEIVE_COUNT },
    });

    const secrets = new Map<string, secretsmanager.Secret>();
    for (const operatorId of props.operators) {
      const secret = new secretsmanager.Secret(this, `Secret-${operatorId}`, {
        secretName: seamlessSecretName(props.stage, operatorId),
        description: `Punto y Banca ${props.stage}: HMAC-SHA256 secret shared with operator ${operatorId}'s seamless wallet`,
        // 48 characters of letters and digits (~285 bits); the client refuses one under 32.
        generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
        // The operator holds a copy: deleting the stack must not silently cut its wallet off.
        removalPolicy: RemovalPolicy.RETAIN,
      });
      acknowledge(
        secret,
        'AwsSolutions-SMG4',
        'The secret is shared with the operator, who must accept a new value before the platform signs with ' +
          'it: rotation is a coordinated three-step procedure (docs/seamless-wallet.md §3, docs/deploy.md), ' +
          'not a Lambda rotating on its own schedule, which would break every call until the operator caught up.',
      );
      secrets.set(operatorId, secret);
    }
    this.secrets = secrets;

    this.alarms = [
      alarmOn(this, 'DeadLettersAlarm', {
        description:
          `seamless outbox (${props.stage}): a credit or rollback was not acknowledged after ` +
          `${OUTBOX_MAX_RECEIVE_COUNT} deliveries and was dead-lettered; its transaction stays pending ` +
          '(docs/deploy.md, "Seamless operators")',
        metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: 'Maximum',
        }),
      }),
      alarmOn(this, 'OldestAlarm', {
        description:
          `seamless outbox (${props.stage}): a credit or rollback has waited more than ` +
          `${OUTBOX_MAX_AGE.toMinutes()} minutes: an operator's wallet is not acknowledging`,
        metric: this.queue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(1),
          statistic: 'Maximum',
        }),
        threshold: OUTBOX_MAX_AGE.toSeconds(),
        evaluationPeriods: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      }),
      ...props.operators.map((operatorId) =>
        alarmOn(this, `UnresolvedAlarm-${operatorId}`, {
          description:
            `seamless reconciliation (${props.stage}, ${operatorId}): yesterday's report names unresolved ` +
            'transactions (pending past their age, or failed): docs/deploy.md, "Seamless operators"',
          metric: new cloudwatch.Metric({
            namespace: UNRESOLVED_METRIC.namespace,
            metricName: UNRESOLVED_METRIC.name,
            dimensionsMap: { Stage: props.stage, Operator: operatorId },
            statistic: 'Maximum',
            // Emitted once a day: the alarm stays raised until the next day's report.
            period: Duration.days(1),
          }),
        }),
      ),
    ];

    this.group = new scheduler.CfnScheduleGroup(this, 'Schedules', { name: `${prefix}-seamless` });
    // The secrets are found through each operator's record (`seamless.secretRef`: the secret's name),
    // not the environment: what a function may read is its role's business (`operatorWallets`).
    this.environment = { OUTBOX_QUEUE_URL: this.queue.queueUrl };
  }

  /** The queues by the names routes.ts and workers.ts use. */
  get byName(): Record<Extract<QueueName, 'outbox'>, sqs.IQueue> {
    return { outbox: this.queue };
  }

  /** The seamless operators' secrets, for the functions that call their wallets (`operatorWallets`). */
  get operatorSecrets(): secretsmanager.ISecret[] {
    return [...this.secrets.values()];
  }

  /**
   * The delivery function: SQS invokes it with up to OUTBOX_BATCH_SIZE messages and redelivers only
   * those it reports failed, after the visibility the function gave each (its backoff).
   */
  consumeWith(worker: RouteFunction): void {
    worker.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: OUTBOX_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: OUTBOX_MAX_CONCURRENCY,
      }),
    );
  }

  /**
   * One EventBridge Scheduler schedule per seamless operator, daily at 00:30 UTC, invoking the
   * reconciliation function with `{ operatorId }` (it reports the UTC day that ended). AWS runs the
   * clock; a failed invocation is retried by the scheduler and raises the function's error alarm.
   */
  scheduleReconciliation(job: RouteFunction): void {
    const invokeRole = new iam.Role(this, 'ReconcileInvokeRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: `EventBridge Scheduler invokes ${RECONCILE_HANDLER} (${this.props.stage})`,
    });
    invokeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [job.function.functionArn] }),
    );
    for (const operatorId of this.props.operators) {
      const schedule = new scheduler.CfnSchedule(this, `Reconcile-${operatorId}`, {
        name: operatorId,
        groupName: this.group.name,
        description: `Daily seamless reconciliation of ${operatorId} (${this.props.stage})`,
        scheduleExpression: RECONCILIATION_SCHEDULE,
        scheduleExpressionTimezone: 'UTC',
        flexibleTimeWindow: { mode: 'OFF' },
        target: {
          arn: job.function.functionArn,
          roleArn: invokeRole.roleArn,
          input: JSON.stringify({ operatorId }),
          retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 6 * 3600 },
        },
      });
      schedule.addDependency(this.group);
    }
  }
}
