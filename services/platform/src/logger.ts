import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * JSON logs with the active trace id, so a log line can be found from a trace and back.
 * The mixin reads the OpenTelemetry context directly; it works whether or not auto-instrumentation
 * of pino is loaded.
 */
export function createLogger(service: string, level: LoggerOptions['level'] = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['password', '*.password', 'newPassword', '*.newPassword', 'existingPassword', '*.existingPassword', 'code', '*.code', 'token', '*.token', 'sessionToken', '*.sessionToken', 'req.headers.authorization'],
      censor: '[redacted]',
    },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
}
