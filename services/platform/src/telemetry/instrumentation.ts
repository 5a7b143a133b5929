/**
 * Loaded before the service with `node --import @ledgerline/platform/instrumentation` so that http,
 * pg and fastify are instrumented and trace context flows gateway → service → NATS → consumer.
 * With no OTLP endpoint configured, spans are still created (logs carry trace ids) but not exported.
 */
import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { getNodeAutoInstrumentations } from './auto.js';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

// Without a collector, the logs and metrics exporters would retry on shutdown for seconds.
process.env.OTEL_LOGS_EXPORTER ??= 'none';
process.env.OTEL_METRICS_EXPORTER ??= 'none';
if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) process.env.OTEL_TRACES_EXPORTER ??= 'none';

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME ?? process.env.SERVICE_NAME ?? 'ledgerline',
  traceExporter: process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? new OTLPTraceExporter() : undefined,
  instrumentations: [
    ...getNodeAutoInstrumentations(),
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      // Connect writes RPC answers to the raw response, so the plugin's handler span would never end (and
      // never be exported, leaving a hole in the trace); the http server span covers RPCs instead.
      ignorePaths: (route: { url: string }) => route.url.startsWith('/ledgerline.'),
    }),
  ],
});
sdk.start();

const shutdown = () => {
  void sdk.shutdown().catch(() => undefined);
};
process.once('SIGTERM', shutdown);
process.once('beforeExit', shutdown);
