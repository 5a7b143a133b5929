import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import type { Instrumentation } from '@opentelemetry/instrumentation';

/** The instrumentations we rely on; a short explicit list starts faster than the full auto set. */
export function getNodeAutoInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' }),
    new PgInstrumentation({ enhancedDatabaseReporting: false }),
  ];
}
