import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Metrics as CoreMetrics } from '@pyb/core';
import { METRICS_NAMESPACE } from './metrics-names';

/**
 * Business and latency metrics as CloudWatch EMF (Powertools Metrics): written to the function's log
 * and turned into metrics by CloudWatch, no API call on the request path. Only in Lambda (the local
 * server and the tests publish nothing). Namespace `PuntoYBanca`, dimension `service` = the function.
 */
export const inLambda = (env: Record<string, string | undefined> = process.env): boolean =>
  env.AWS_LAMBDA_FUNCTION_NAME !== undefined;

export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'local',
});

/** The core's Metrics port on Powertools (a no-op outside Lambda). */
export const coreMetrics: CoreMetrics = {
  count: (name, value) => {
    if (inLambda()) metrics.addMetric(name, MetricUnit.Count, value);
  },
};

/** Latency of one request of a route (milliseconds), in the same EMF flush as the route's counts. */
export function recordLatency(route: string, ms: number): void {
  if (!inLambda()) return;
  metrics.setDefaultDimensions({ route });
  metrics.addMetric('Latency', MetricUnit.Milliseconds, ms);
}

/** Writes the invocation's metrics (EMF) once it is answered; nothing outside Lambda. */
export function flushMetrics(): void {
  if (inLambda()) metrics.publishStoredMetrics();
}
