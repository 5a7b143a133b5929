import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { errorSerializer, REDACTED, redactPaths, scrubText } from './log-redaction.js';

export type { Logger } from 'pino';

/**
 * JSON logs with the active trace id, so a log line can be found from a trace and back.
 * The mixin reads the OpenTelemetry context directly; it works whether or not auto-instrumentation
 * of pino is loaded. Every logger censors the chassis' list of secret fields (log-redaction.ts) and
 * provider or bearer tokens inside error texts and messages. `destination` (tests) replaces stdout.
 */
export function createLogger(service: string, level: LoggerOptions['level'] = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths(), censor: REDACTED },
      serializers: { err: errorSerializer, error: errorSerializer },
      hooks: {
        // A token written into the message text itself (`log.warn(`...${x}`)`) is censored too.
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>);
        },
      },
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      },
    },
    destination,
  );
}
