/** The CloudWatch namespace of the handlers' EMF metrics (functions/src/metrics.ts; infra reads it too). */
export const METRICS_NAMESPACE = 'PuntoYBanca';
