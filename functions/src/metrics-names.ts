/** The CloudWatch namespace of the handlers' EMF metrics (functions/src/metrics.ts; infra reads it too). */
export const METRICS_NAMESPACE = 'PuntoYBanca';

/**
 * One count of `name` under the dimension `Stage` alone, as an embedded-metric-format log line that
 * CloudWatch turns into a metric (the stack's alarms on it: a shoe not closed in time, a round the
 * interrupted-game policy acted on). For the scheduled jobs, whose alarms are per stage, not per
 * function; `fields` go into the same line for the log reader.
 */
export function countForStage(name: string, fields: Record<string, unknown>): void {
  console.log(
    JSON.stringify({
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          { Namespace: METRICS_NAMESPACE, Dimensions: [['Stage']], Metrics: [{ Name: name, Unit: 'Count' }] },
        ],
      },
      Stage: process.env.STAGE ?? 'local',
      [name]: 1,
      ...fields,
    }),
  );
}
