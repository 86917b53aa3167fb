export { ServerMetrics, type ServerMetricsOptions } from './server-metrics.ts';
export { instrumentStore } from './instrumented-store.ts';
export { METRICS_PATH } from './metrics-route.ts';
