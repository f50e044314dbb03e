export { metricsPlugin } from './metrics-plugin';
export { startMetricsListener, type MetricsListenerHandle } from './metrics-listener';
export { authorizeMetrics, bearerMatches, metricsErrors } from './metrics-access';
