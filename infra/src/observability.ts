import { METRICS_NAMESPACE } from '@pyb/functions/metrics-names';
import type { Route } from '@pyb/functions/routes';
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { DeployedTable } from './data';
import type { RouteFunction } from './route-function';

/** p99 latency (ms) above which a route alarms: the bet path is held to more than the rest. */
export const P99_LATENCY_MS: Record<string, number> = {
  'place-bet': 500,
  'reduce-bets': 500,
  'cancel-bets': 500,
  'resolve-round': 5_000,
  'void-round': 5_000,
  'close-shoe': 10_000,
};
export const DEFAULT_P99_LATENCY_MS = 1_000;

export interface ObservabilityProps {
  stage: string;
  routes: readonly Route[];
  functions: Record<string, RouteFunction>;
  tables: Record<string, DeployedTable>;
  queue: sqs.IQueue;
  deadLetters: sqs.IQueue;
  /** The settlement queue's consumer (absent in a synth without functions). */
  worker: RouteFunction | undefined;
}

/**
 * What an operator watches: alarms on p99 latency per route (the handlers' own Latency metric, EMF)
 * and on DynamoDB throttling per table, and one dashboard with bets, settled positions, latency,
 * DynamoDB capacity and throttles, and the settlement queue.
 */
export class Observability extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { stage } = props;
    const emf = (name: string, handler: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: props.functions[handler]!.function.functionName, route: handler },
        statistic,
        period: Duration.minutes(1),
      });
    const has = (handler: string) => props.functions[handler] !== undefined;

    for (const route of props.routes) {
      const threshold = P99_LATENCY_MS[route.handler] ?? DEFAULT_P99_LATENCY_MS;
      this.alarms.push(
        alarmOn(this, `${pascal(route.handler)}P99Alarm`, {
          description: `${route.method} ${route.path} (${stage}): p99 latency above ${threshold} ms`,
          metric: emf('Latency', route.handler, 'p99'),
          threshold,
          evaluationPeriods: 5,
          datapointsToAlarm: 3,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        }),
      );
    }

    // A table locked by a key-service or randomness failure stays unplayable until an admin clears it
    // (docs/regulators.md, "Lock-out"): the first lock pages someone.
    for (const handler of ['open-shoe', 'resolve-round'].filter(has)) {
      this.alarms.push(
        alarmOn(this, `${pascal(handler)}TableLockedAlarm`, {
          description: `lock-out (${stage}): a table was locked by a key-service or randomness failure in ${handler}; fix the cause, then POST /v1/tables/{id}/unlock`,
          metric: emf('TablesLocked', handler, 'Sum'),
        }),
      );
    }
    // A close that finds a shoe's audit chain broken signs nothing and locks the table: someone deleted
    // or rewrote an audit item. Paged at the first one, like any lock-out.
    if (has('close-shoe')) {
      this.alarms.push(
        alarmOn(this, 'CloseShoeAuditChainBrokenAlarm', {
          description: `audit chain broken (${stage}): closing a shoe found its audit chain broken and locked the table; find what was deleted or rewritten (GET /v1/tables/{id}/events), put it back and close again, or POST /v1/shoes/{id}/abandon`,
          metric: emf('TablesLocked', 'close-shoe', 'Sum'),
        }),
      );
    }

    // A discard (D1): a round voided, or a shoe closed early, after the beacon round that fixed what it
    // throws away was published. It may be honest (a misdeal seen late), but never quiet: each one is
    // looked at (docs/regulators.md, "Discards"; the GGR report and the feed count them per table).
    for (const handler of ['void-round', 'close-shoe'].filter(has)) {
      this.alarms.push(
        alarmOn(this, `${pascal(handler)}DiscardAfterBeaconAlarm`, {
          description: `discard after the beacon (${stage}): ${handler === 'void-round' ? 'a round was voided' : 'a shoe was closed early'} after the beacon round that fixed its cards was published; check the reason with the table's staff (GET /v1/reports/ggr: voidsAfterBeacon, earlyClosesAfterBeacon)`,
          metric: emf('DiscardsAfterBeacon', handler, 'Sum'),
        }),
      );
    }

    // Ids unique per table: a graph may hold every table's expression.
    const throttles = (table: DeployedTable, i: number) =>
      new cloudwatch.MathExpression({
        expression: `r${i} + w${i}`,
        usingMetrics: {
          [`r${i}`]: table.table.metric('ReadThrottleEvents', {
            statistic: 'Sum',
            period: Duration.minutes(1),
          }),
          [`w${i}`]: table.table.metric('WriteThrottleEvents', {
            statistic: 'Sum',
            period: Duration.minutes(1),
          }),
        },
        label: `${table.tableName} throttled`,
        period: Duration.minutes(1),
      });
    for (const [i, [logical, table]] of Object.entries(props.tables).entries()) {
      this.alarms.push(
        alarmOn(this, `${pascal(logical)}ThrottleAlarm`, {
          description: `DynamoDB ${logical} (${stage}): requests throttled`,
          metric: throttles(table, i),
        }),
      );
    }

    const hot = ['place-bet', 'resolve-round', 'get-round', 'get-wallet'].filter(has);
    const capacity = (name: string) =>
      Object.values(props.tables).map((t) =>
        t.table.metric(name, { statistic: 'Sum', period: Duration.minutes(1), label: t.tableName }),
      );
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `pyb-${stage}`,
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Bet calls and settled positions (per minute)',
            left: ['place-bet', 'reduce-bets', 'cancel-bets']
              .filter(has)
              .map((h) => emf('BetCalls', h, 'Sum')),
            right: [
              ...['resolve-round', 'void-round'].filter(has).map((h) => emf('SettledPositions', h, 'Sum')),
              ...(props.worker
                ? [
                    new cloudwatch.Metric({
                      namespace: METRICS_NAMESPACE,
                      metricName: 'SettledPositions',
                      dimensionsMap: { service: props.worker.function.functionName },
                      statistic: 'Sum',
                      period: Duration.minutes(1),
                    }),
                  ]
                : []),
            ],
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'Latency p50 / p99 (ms)',
            left: hot.flatMap((h) => [emf('Latency', h, 'p50'), emf('Latency', h, 'p99')]),
            width: 12,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'DynamoDB consumed capacity (per minute)',
            left: capacity('ConsumedWriteCapacityUnits'),
            right: capacity('ConsumedReadCapacityUnits'),
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'DynamoDB throttled requests',
            left: Object.values(props.tables).map((t, i) => throttles(t, i)),
            width: 12,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Settlement queue: waiting, in flight, dead-lettered',
            left: [
              props.queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
              props.queue.metricApproximateNumberOfMessagesNotVisible({ period: Duration.minutes(1) }),
            ],
            right: [
              props.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
            ],
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'Settlement: oldest batch (s), worker concurrency',
            left: [props.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1) })],
            right: props.worker
              ? [
                  props.worker.function.metric('ConcurrentExecutions', {
                    statistic: 'Maximum',
                    period: Duration.minutes(1),
                  }),
                ]
              : [],
            width: 12,
          }),
        ],
      ],
    });
  }
}

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
