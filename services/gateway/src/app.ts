import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { createLogger, httpDuration, registerHealth, type EventBus, type Logger } from '@ledgerline/platform';
import { fastify, LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { registerBanking } from './banking/index.js';
import { registerComposite } from './composite/index.js';
import type { GatewayConfig } from './config.js';
import { registerDocuments } from './documents/index.js';
import { registerFirm } from './firm/index.js';
import { Authenticator, WORKSPACE_HEADER } from './http/auth.js';
import { clientErrorHandler, frameworkErrorHandler, HttpError, registerErrorHandling } from './http/errors.js';
import { installValidationLayer, reversedRange } from './http/hardening.js';
import { registerSchemas } from './http/schemas.js';
import { applySecurityHeaders } from './http/security-headers.js';
import { gatewaySchemaController } from './http/validation.js';
import { registerIdentity, registerIdentityTeams } from './identity/index.js';
import { registerLedger, registerLedgerCategorizationJobs } from './ledger/index.js';
import { registerParties } from './parties/index.js';
import { registerReporting } from './reporting/index.js';
import { upstreamClients, type RouteContext, type Upstreams } from './upstreams.js';
import { registerIntegrations } from './integrations/index.js';
import { registerNotifications } from './notifications/index.js';
import { LiveNotifications } from './notifications/live.js';
import { registerBilling } from './billing/index.js';

export interface GatewayDeps {
  config: GatewayConfig;
  /** Default: the platform logger at `config.LOG_LEVEL`. */
  logger?: Logger;
  /** Default: each upstream's Connect client from its folder's `client.ts` (`upstreamClients(config)`); tests may hand in some. */
  clients?: Partial<Upstreams>;
  /**
   * Shared rate-limit counters. Default: a client for `config.REDIS_URL` when set (closed with the
   * app), else in-memory counters. `null` forces in-memory counters.
   */
  redis?: Redis | null;
  /** The bus the live notification stream tails (an in-process stack hands in its own); default: its own NATS connection, opened with the first stream. */
  bus?: EventBus;
}

/** Operational routes: not rate-limited, not in the OpenAPI document. */
const OPERATIONAL = new Set(['/healthz', '/readyz', '/metrics', '/docs/json']);

function redisFor(config: GatewayConfig, logger: Logger): Redis | undefined {
  if (!config.REDIS_URL) return undefined;
  const redis = new Redis(config.REDIS_URL, {
    // Never queue behind a missing Redis: the limiter skips it (fails open) and identity still counts
    // failed logins per account.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
  });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis (rate-limit store) error'));
  return redis;
}

/**
 * The REST gateway, ready to `listen` or `inject` into; it does not listen. Route handlers stay thin:
 * validate (schemas), authorise (one hook), call one RPC, present the answer.
 */
export async function buildGateway(deps: GatewayDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const logger = deps.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const clients: Upstreams = { ...upstreamClients(config), ...deps.clients };
  const ownsRedis = deps.redis === undefined;
  const redis = deps.redis === undefined ? redisFor(config, logger) : (deps.redis ?? undefined);

  const app = fastify({
    loggerInstance: logger.child({ component: 'http' }) as FastifyBaseLogger,
    // One log line per request, written in onResponse below.
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: true,
    bodyLimit: 1_048_576,
    trustProxy: config.TRUST_PROXY,
    // The gateway makes every request id itself: a client's x-request-id is only logged (clientRequestId).
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    schemaController: gatewaySchemaController({ compile: config.GATEWAY_SCHEMA_COMPILE ?? (config.NODE_ENV === 'production' ? 'eager' : 'lazy') }),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  if (redis && ownsRedis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));

  // Before swagger: the OpenAPI document shows the hardened schemas ajv validates with.
  installValidationLayer(app);
  registerSchemas(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ledgerline REST gateway',
        version: '0.1.0',
        description: "Generated from the gateway's route schemas. Errors always have the ErrorResponse shape.",
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'The sessionToken of a sign-in answer. Send the `x-workspace-id` header to act in a workspace other than the default one.',
          },
        },
      },
      tags: [
        { name: 'auth', description: 'Sign-up, sign-in, codes, passwords, onboarding' },
        { name: 'users', description: 'The signed-in user' },
        { name: 'teams', description: 'Workspaces, organization, members, roles and invites' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url }) => ({ schema: OPERATIONAL.has(url) ? { ...schema, hide: true } : schema, url }),
  });

  await app.register(cors, {
    origin: config.CORS_ORIGINS,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // Idempotency-Key: the web app's uploads send it, so a retried batch answers the first result (decision 0029).
    allowedHeaders: ['Authorization', 'Content-Type', WORKSPACE_HEADER, 'Idempotency-Key'],
    exposedHeaders: ['content-disposition', 'x-request-id', 'retry-after'],
    maxAge: 600,
  });

  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_GLOBAL_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    ...(redis ? { redis, nameSpace: 'ledgerline:gateway:rate-limit:' } : {}),
    // A broken Redis must not lock everyone out of signing in.
    skipOnError: true,
    allowList: (req) => OPERATIONAL.has(req.routeOptions.url ?? ''),
    errorResponseBuilder: () => HttpError.rateLimited(),
  });

  // After the rate limiter: its onRoute hook must add its check before ours.
  // Authorisation asks identity on every request (no cache: see Authenticator).
  const authenticator = new Authenticator(clients.identity);
  authenticator.install(app);

  registerErrorHandling(app, logger, app.rateLimit());

  // A body-less POST to a route with a body schema is an empty body: identity then names the missing fields.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && req.routeOptions.schema?.body) req.body = {};
  });

  // What JSON Schema cannot say: a date range is ordered (startDate ≤ endDate, in the query or the body).
  app.addHook('preHandler', async (req) => {
    const problem = reversedRange(req.query) ?? reversedRange(req.body);
    if (problem) throw HttpError.invalid([problem]);
  });

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    applySecurityHeaders(reply);
  });

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpDuration.observe({ route, method: req.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const clientRequestId = typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 200) : undefined;
    if (!OPERATIONAL.has(route))
      req.log.info(
        { method: req.method, route, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime), ...(clientRequestId ? { clientRequestId } : {}) },
        'request',
      );
  });

  // Readiness is the gateway's own (issue #23): it has no dependency it cannot serve without — Redis only backs the
  // rate limits, which skip on its errors, and an upstream service that is away answers 503 on its own routes. Were
  // readiness to follow identity, one slow service would take every replica, and so the whole API, out of rotation.
  registerHealth(app, 'gateway', {});

  app.get('/docs/json', { schema: { hide: true } }, async () => app.swagger());

  // One line per upstream service's folder (src/<service>/index.ts), in the order of the OpenAPI document
  // (frontends/api/openapi.json): the team routes and the categorisation queue came after the routes around them
  // and register in their own lines so the published document keeps its order. A new service appends its line.
  const context: RouteContext = { clients, config, authenticator };
  registerIdentity(app, context);
  await registerBanking(app, context);
  await registerLedger(app, context);
  await registerReporting(app, context);
  registerIdentityTeams(app, context);
  registerComposite(app);
  await registerFirm(app, context);
  await registerParties(app, context);
  await registerLedgerCategorizationJobs(app, context);
  await registerDocuments(app, context);
  await registerIntegrations(app, context);
  const live = new LiveNotifications({ config, logger, bus: deps.bus });
  app.addHook('onClose', () => live.close());
  await registerNotifications(app, context, live);
  await registerBilling(app, context);

  return app;
}
