import type { ConnectRouter, Interceptor } from '@connectrpc/connect';
import { Code, createContextValues } from '@connectrpc/connect';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import { trace } from '@opentelemetry/api';
import { fastify, LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppError, toConnectError } from '../errors.js';
import { registerHealth, type ReadinessChecks } from './health.js';
import { rpcDuration } from './metrics.js';
import { tenantKey } from './context.js';
import { trustInterceptor } from './trust.js';

export interface ServiceServerOptions {
  name: string;
  logger: Logger;
  routes: (router: ConnectRouter) => void;
  /** Named checks for /readyz (database, bus...). */
  readiness?: ReadinessChecks;
  /** The shared service token key (SERVICE_TOKEN_KEY): every RPC must carry a token for `name` signed with it. */
  tokenKey: string;
}

/**
 * Maps every handler error through the one service→Connect mapping, and logs unknown errors with
 * the trace id (the response only says "Something went wrong").
 */
function errorInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await next(req);
    } catch (err) {
      const mapped = toConnectError(err);
      outcome = mapped.code.toString();
      const context = { err, procedure: req.url, trace_id: trace.getActiveSpan()?.spanContext().traceId };
      // The caller gave up (its deadline passed or it went away): nothing went wrong here.
      if (req.signal.aborted && (mapped.code === Code.DeadlineExceeded || mapped.code === Code.Canceled)) logger.info(context, 'RPC abandoned by its caller');
      else if (!(err instanceof AppError)) logger.error(context, 'unhandled error in RPC handler');
      throw mapped;
    } finally {
      rpcDuration.observe({ procedure: req.method.name, outcome }, (performance.now() - started) / 1000);
    }
  };
}

/** A fastify server speaking the Connect protocol (HTTP/1.1) with health and metrics endpoints. */
export async function createServiceServer({ name, logger, routes, readiness = {}, tokenKey }: ServiceServerOptions): Promise<FastifyInstance> {
  const app = fastify({
    loggerInstance: logger.child({ component: 'http' }) as FastifyBaseLogger,
    forceCloseConnections: true,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1_048_576,
  });
  registerHealth(app, name, readiness);
  await app.register(fastifyConnectPlugin, {
    routes,
    // The tenancy of a call comes only from its verified service token (never from x-ll-* headers);
    // health and metrics are plain fastify routes outside Connect and stay open.
    interceptors: [errorInterceptor(logger), trustInterceptor({ key: tokenKey, audience: name })],
    contextValues: () => createContextValues().set(tenantKey, {}),
  });
  return app;
}
