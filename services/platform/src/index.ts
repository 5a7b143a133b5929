export { loadConfig, baseConfigSchema, portSchema, ConfigError, DEVELOPMENT_SERVICE_TOKEN_KEY, type BaseConfig } from './config.js';
export { createLogger, type Logger } from './logger.js';
export { createMailer, escapeHtml, type Mailer, type MailMessage } from './mail/mailer.js';
export {
  MailOutbox,
  MAIL_SETTINGS,
  createMailOutbox,
  createMailOutboxTable,
  dropMailOutboxTable,
  mailOutboxStore,
  mailRetryDelayMs,
  transactWithMail,
  type MailOutboxOptions,
  type MailRow,
  type MailSettings,
  type OutgoingMail,
} from './mail/outbox.js';
export { newId, isUuid } from './ids.js';
export { ROLES, isRole, hasRoleAtLeast, isAdminRole, assertCanEdit, VIEWER_EDIT_MESSAGE, type Role } from './roles.js';
export { AppError, ErrorKind, GENERIC_ERROR_MESSAGE, toConnectError, errorInfoOf, type FieldError } from './errors.js';
export {
  createDb,
  provisionDatabase,
  grantAppRole,
  systemRoleOf,
  systemUrlOf,
  dropDatabase,
  withDatabase,
  withUser,
  type Knex,
  type DbOptions,
} from './db/database.js';
export { migrateLatest, migrateRollbackAll, type Migration } from './db/migrations.js';
export {
  withTenant,
  withSystem,
  pairSystemPool,
  systemPoolOf,
  enableTenantRls,
  disableTenantRls,
  tablesMissingRls,
  TENANCY_FUNCTIONS_SQL,
  type TenantContext,
} from './db/tenancy.js';
export { platformMigrations } from './db/platform-migrations.js';
export {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_REST_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_MSG,
  claimIdempotencyKey,
  requestHash,
  type IdempotencyClaim,
} from './db/idempotency.js';
export {
  type EventBus,
  type BusMessage,
  type Subscription,
  type TailMessage,
  eventSubject,
  deadLetterSubject,
  EVENTS_STREAM,
  DEAD_LETTER_STREAM,
} from './events/bus.js';
export {
  EventType,
  EVENT_SCHEMAS,
  eventMessage,
  encodeEvent,
  isEventType,
  publishEvent,
  type EventMessage,
  type EventPayload,
  type EventSchema,
  type OutgoingEvent,
  type ReceivedEvent,
} from './events/catalog.js';
export { MessageBatcher } from './events/batcher.js';
export { NatsEventBus } from './events/nats-bus.js';
export { MemoryEventBus } from './events/memory-bus.js';
export { writeEvent, writeEvents, type OutboxEvent } from './events/outbox.js';
export { writePostingRequested, type RequestedPosting } from './events/posting-requested.js';
export { startQuickBooksSyncedConsumer } from './events/quickbooks-synced.js';
export { OutboxRelay } from './events/relay.js';
export {
  startConsumer,
  consumerName,
  type CheckedEvent,
  type Consumer,
  type ConsumerBatch,
  type ConsumerDeclaration,
  type ConsumerOptions,
} from './events/consumer.js';
export { createServiceServer, type ServiceServerOptions } from './rpc/server.js';
export { createServiceClient } from './rpc/client.js';
export { packWholeNumbers, unpackWholeNumbers } from './rpc/packed.js';
export { LruMap } from './lru.js';
export { tenantKey, tenantHeaders, tenantFromHeaders, requireTenant, TENANT_HEADERS } from './rpc/context.js';
export {
  assertServiceTrustConfig,
  signServiceToken,
  verifyServiceToken,
  trustInterceptor,
  signingInterceptor,
  SERVICE_TOKEN_HEADER,
  SERVICE_TOKEN_TTL_SECONDS,
  type ServiceTokenClaims,
} from './rpc/trust.js';
export { registerHealth, type ReadinessChecks } from './rpc/health.js';
export { metricsRegistry, httpDuration } from './rpc/metrics.js';
export { runUntilSignal } from './lifecycle.js';
export { connectBus } from './events/connect.js';
export { createWorkQueue, type WorkQueue, type WorkItem, type WorkQueueOptions } from './jobs/work-queue.js';
export {
  SecretCipher,
  SecretKeyError,
  parseSecretKeys,
  isSecretKeyList,
  developmentSecretKeys,
  DEVELOPMENT_SECRET_KEY_ID,
  type SealedSecret,
} from './crypto/secret-cipher.js';
export {
  defineService,
  serviceEnvNames,
  type ServiceConfig,
  type BaseOverrides,
  type Job,
  type ServiceParts,
  type ServiceContext,
  type ServiceDefinition,
  type Running,
  type RunningParts,
  type DefinedService,
} from './kit/define-service.js';
export {
  SERVICES,
  REMOTES,
  GATEWAY,
  SHELL,
  HELPER_PORTS,
  DEFAULT_PORTS,
  serviceNames,
  remoteNames,
  urlSetting,
  localUrl,
  type ServiceEntry,
  type RemoteEntry,
  type ServiceName,
  type RemoteName,
  type PortName,
} from './kit/registry.js';
export * from './kit/index.js';
export { withInputRules, assertInput, inputProblems, dateProblem, INPUT_LIMITS } from './validation/rpc-input.js';
