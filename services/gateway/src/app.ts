import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { createLogger, createServiceClient, httpDuration, registerHealth, type Logger } from '@ledgerline/platform';
import { IdentityService } from '@ledgerline/proto/identity/v1/identity_pb';
import { BankingService } from '@ledgerline/proto/banking/v1/banking_pb';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { ReportingService } from '@ledgerline/proto/reporting/v1/reporting_pb';
import { fastify, LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { GatewayConfig } from './config.js';
import { Authenticator, WORKSPACE_HEADER, type IdentityClient } from './http/auth.js';
import { clientErrorHandler, frameworkErrorHandler, HttpError, registerErrorHandling } from './http/errors.js';
import { installValidationLayer, reversedRange } from './http/hardening.js';
import { registerSchemas } from './http/schemas.js';
import { applySecurityHeaders } from './http/security-headers.js';
import { gatewaySchemaController } from './http/validation.js';
import { registerAuthRoutes } from './identity/routes/auth.js';
import { registerBankingRoutes, type BankingClient } from './banking/routes/banking.js';
import { registerDashboardRoutes } from './composite/dashboard.js';
import { registerExportRoutes } from './reporting/routes/exports.js';
import { registerLedgerRoutes, type LedgerClient } from './ledger/routes/ledger.js';
import { registerReportingRoutes, type ReportingClient } from './reporting/routes/reporting.js';
import { registerSpendingRoutes } from './reporting/routes/spending.js';
import { registerTeamRoutes } from './identity/routes/teams.js';
import { registerTransactionDrawerRoutes } from './ledger/routes/transaction-drawer.js';
import { FirmService } from '@ledgerline/proto/firm/v1/firm_pb';
import { registerFirmRoutes, type FirmClient } from './firm/routes/firm.js';
import { PartiesService } from '@ledgerline/proto/parties/v1/parties_pb';
import { registerPartiesRoutes, type PartiesClient } from './parties/routes/parties.js';
import { registerCreditRoutes } from './parties/routes/credits.js';
import { registerVendorRuleRoutes } from './parties/routes/vendor-rules.js';
import { registerCategorizationJobRoutes } from './ledger/routes/categorization-jobs.js';
import { DocumentsService } from '@ledgerline/proto/documents/v1/documents_pb';
import { registerDocumentsRoutes, type DocumentsClient } from './documents/routes/documents.js';
import { FixedAssetsService } from '@ledgerline/proto/documents/v1/fixed_assets_pb';
import { registerFixedAssetRoutes } from './documents/routes/fixed-assets.js';
import { registerScheduleRoutes } from './documents/routes/schedules.js';
import { registerRecurrenceRoutes } from './documents/routes/recurrence.js';
import { registerDraftsRoutes } from './documents/routes/drafts.js';
import { DraftsService } from '@ledgerline/proto/documents/v1/drafts_pb';
import { registerInvoicePdfRoute } from './documents/routes/invoice-pdf.js';
import { registerUploadsRoutes } from './documents/routes/uploads.js';
import { UploadsService } from '@ledgerline/proto/documents/v1/uploads_pb';
import { BulkUploadService } from '@ledgerline/proto/documents/v1/bulk_upload_pb';

export interface GatewayDeps {
  config: GatewayConfig;
  /** Default: the platform logger at `config.LOG_LEVEL`. */
  logger?: Logger;
  /** Default: a Connect client to `config.IDENTITY_URL` with `config.IDENTITY_TIMEOUT_MS` per call. */
  identity?: IdentityClient;
  /** Default: a Connect client to `config.BANKING_URL` with `config.SERVICE_TIMEOUT_MS` per call. */
  banking?: BankingClient;
  /** Default: a Connect client to `config.LEDGER_URL` with `config.SERVICE_TIMEOUT_MS` per call. */
  ledger?: LedgerClient;
  /** Default: a Connect client to `config.REPORTING_URL` with `config.SERVICE_TIMEOUT_MS` per call. */
  reporting?: ReportingClient;
  /** Default: a Connect client to `config.FIRM_URL` with `config.SERVICE_TIMEOUT_MS` per call. */
  firm?: FirmClient;
  /** Default: a Connect client to `config.PARTIES_URL` with `config.SERVICE_TIMEOUT_MS` per call. */
  parties?: PartiesClient;
  /** Default: a Connect client to `config.DOCUMENTS_URL` with `config.SERVICE_TIMEOUT_MS` per call. */
  documents?: DocumentsClient;
  /**
   * Shared rate-limit counters. Default: a client for `config.REDIS_URL` when set (closed with the
   * app), else in-memory counters. `null` forces in-memory counters.
   */
  redis?: Redis | null;
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
  // Every call carries a 60-second token for the one service it goes to (services refuse bare x-ll-* headers).
  const trustFor = (audience: string) => ({ key: config.SERVICE_TOKEN_KEY, issuer: 'gateway', audience });
  const identity =
    deps.identity ?? createServiceClient(IdentityService, { baseUrl: config.IDENTITY_URL, timeoutMs: config.IDENTITY_TIMEOUT_MS, trust: trustFor('identity') });
  const banking =
    deps.banking ?? createServiceClient(BankingService, { baseUrl: config.BANKING_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('banking') });
  const ledger =
    deps.ledger ?? createServiceClient(LedgerService, { baseUrl: config.LEDGER_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('ledger') });
  const reporting =
    deps.reporting ??
    createServiceClient(ReportingService, { baseUrl: config.REPORTING_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('reporting') });
  const firmClient = deps.firm ?? createServiceClient(FirmService, { baseUrl: config.FIRM_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('firm') });
  const partiesClient =
    deps.parties ?? createServiceClient(PartiesService, { baseUrl: config.PARTIES_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('parties') });
  const documentsClient =
    deps.documents ??
    createServiceClient(DocumentsService, { baseUrl: config.DOCUMENTS_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('documents') });
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
  const authenticator = new Authenticator(identity);
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

  registerAuthRoutes(app, {
    identity,
    firm: firmClient,
    authenticator,
    limits: { login: config.RATE_LIMIT_LOGIN_MAX, code: config.RATE_LIMIT_CODE_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS },
  });
  await registerBankingRoutes(app, {
    banking,
    ledger,
    bulkUploads: createServiceClient(BulkUploadService, { baseUrl: config.DOCUMENTS_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('documents') }),
  });
  await registerLedgerRoutes(app, { ledger });
  const uploadsClient = createServiceClient(UploadsService, {
    baseUrl: config.DOCUMENTS_URL,
    timeoutMs: config.SERVICE_TIMEOUT_MS,
    trust: trustFor('documents'),
  });
  await registerTransactionDrawerRoutes(app, { ledger, identity, uploads: uploadsClient });
  await registerReportingRoutes(app, { reporting, answerCacheEntries: config.REPORT_ANSWER_CACHE_ENTRIES });
  await registerExportRoutes(app, { ledger, reporting });
  await registerSpendingRoutes(app, { reporting });
  registerTeamRoutes(app, { identity, firm: firmClient, authenticator, codeLimit: { max: config.RATE_LIMIT_CODE_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS } });
  registerDashboardRoutes(app);
  await registerFirmRoutes(app, { client: firmClient, identity });
  await registerPartiesRoutes(app, { client: partiesClient });
  await registerCreditRoutes(app, { client: partiesClient });
  await registerVendorRuleRoutes(app, { client: partiesClient });
  await registerCategorizationJobRoutes(app, { ledger });
  await registerDocumentsRoutes(app, { client: documentsClient });
  await registerRecurrenceRoutes(app, { client: documentsClient });
  await registerDraftsRoutes(app, {
    client: createServiceClient(DraftsService, { baseUrl: config.DOCUMENTS_URL, timeoutMs: config.SERVICE_TIMEOUT_MS, trust: trustFor('documents') }),
  });
  registerInvoicePdfRoute(app, { client: documentsClient, identity });
  await registerUploadsRoutes(app, { client: uploadsClient });
  const fixedAssets = createServiceClient(FixedAssetsService, {
    baseUrl: config.DOCUMENTS_URL,
    timeoutMs: config.SERVICE_TIMEOUT_MS,
    trust: trustFor('documents'),
  });
  await registerFixedAssetRoutes(app, { client: fixedAssets });
  await registerScheduleRoutes(app, { ledger, assets: fixedAssets });

  return app;
}
