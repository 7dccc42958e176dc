import type { QueueName } from '@pyb/functions/routes';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { RouteFunction } from './route-function';
import { LONG_TIMEOUT } from './route-function';

/** Deliveries of one batch before it goes to the dead-letter queue (the in-process queue uses the same). */
export const MAX_RECEIVE_COUNT = 5;
/** Messages handed to one invocation (each reported alone when it fails: ReportBatchItemFailures). */
export const BATCH_SIZE = 5;
/** Invocations at once: bounds the settlement's write rate on DynamoDB (docs/deploy.md). */
export const MAX_CONCURRENCY = 50;
/** A message older than this means settlement lags (alarm). */
export const MAX_AGE = Duration.minutes(2);

/**
 * The settlement queue (core's SettlementQueue port on SQS): resolve and void send batches of
 * positions; the settle-batch function consumes them. Standard queue (at-least-once: every batch is
 * idempotent), SSE with SQS-managed keys, TLS only, a dead-letter queue after MAX_RECEIVE_COUNT
 * receives, alarms on anything dead-lettered and on a backlog.
 */
export class SettlementQueues extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    const prefix = `pyb-${props.stage}`;
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      queueName: `${prefix}-settlement-dlq`,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: `${prefix}-settlement`,
      // AWS's advice for a Lambda source: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(LONG_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    this.alarms = [
      alarmOn(this, 'DeadLettersAlarm', {
        description:
          `settlement (${props.stage}): a batch failed ${MAX_RECEIVE_COUNT} times and was dead-lettered; ` +
          'its round stays SETTLING (or VOIDING) until resolve (void) is called again (docs/deploy.md)',
        metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: 'Maximum',
        }),
      }),
      alarmOn(this, 'BacklogAlarm', {
        description: `settlement (${props.stage}): a batch has waited more than ${MAX_AGE.toMinutes()} minutes`,
        metric: this.queue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(1),
          statistic: 'Maximum',
        }),
        threshold: MAX_AGE.toSeconds(),
        evaluationPeriods: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      }),
    ];
  }

  /** The queues by the names routes.ts and workers.ts use. */
  get byName(): Record<Extract<QueueName, 'settlement'>, sqs.IQueue> {
    return { settlement: this.queue };
  }

  /** The consumer: SQS invokes it with up to BATCH_SIZE messages and retries only those it reports failed. */
  consumeWith(worker: RouteFunction): void {
    worker.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: MAX_CONCURRENCY,
      }),
    );
  }
}
