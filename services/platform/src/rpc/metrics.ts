import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per process, served at /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const rpcDuration = new Histogram({
  name: 'ledgerline_rpc_duration_seconds',
  help: 'Duration of RPC handlers',
  labelNames: ['procedure', 'outcome'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'ledgerline_http_request_duration_seconds',
  help: 'Duration of HTTP requests at the gateway',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});
