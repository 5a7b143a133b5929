import { object, str } from '../http/schemas.js';

/** The REST shapes of the integrations service's routes, as JSON Schema (the OpenAPI document is made from them). */
const instant = { type: 'string', description: 'ISO-8601 UTC instant; empty when not yet.' } as const;

export const StripeAccountSchema = {
  $id: 'StripeAccount',
  type: 'object',
  description: "The workspace's connected Stripe account.",
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The connection.' },
    stripeAccountId: { type: 'string', description: 'acct_...' },
    name: str,
    email: str,
    country: str,
    defaultCurrency: str,
    scope: { type: 'string', enum: ['read_only', 'read_write'] },
    connectedAt: instant,
    lastSyncedAt: instant,
  },
  required: ['id', 'stripeAccountId', 'name', 'email', 'country', 'defaultCurrency', 'scope', 'connectedAt', 'lastSyncedAt'],
  additionalProperties: false,
} as const;

export const StripeOAuthLinkSchema = {
  $id: 'StripeOAuthLink',
  type: 'object',
  description: "Stripe Connect's authorize page; Stripe sends the user back to redirectUri with scope and code.",
  properties: { url: str },
  required: ['url'],
  additionalProperties: false,
} as const;

export const StripeConnectResponseSchema = {
  $id: 'StripeConnectResponse',
  type: 'object',
  description: 'The connected account and the first sync job, already enqueued.',
  properties: { account: { $ref: 'StripeAccount#' }, jobId: { type: 'string', format: 'uuid' } },
  required: ['account', 'jobId'],
  additionalProperties: false,
} as const;

export const StripeSyncJobSchema = {
  $id: 'StripeSyncJob',
  type: 'object',
  description: 'A sync job of the connected Stripe account (a request while one is unfinished joins it).',
  properties: { jobId: { type: 'string', format: 'uuid' }, status: { type: 'string', enum: ['waiting', 'active', 'completed', 'failed'] } },
  required: ['jobId', 'status'],
  additionalProperties: false,
} as const;

export const StripeSyncStatusSchema = {
  $id: 'StripeSyncStatus',
  type: 'object',
  description: 'The latest sync job and the objects synced so far, per Stripe object type.',
  properties: {
    status: { type: 'string', enum: ['never', 'waiting', 'active', 'completed', 'failed'] },
    jobId: str,
    startedAt: instant,
    finishedAt: instant,
    lastSyncedAt: instant,
    objectsSynced: { type: 'integer', description: 'Objects written by the latest job.' },
    objects: {
      type: 'array',
      items: object({ objectType: str, count: { type: 'integer' } }, ['objectType', 'count']),
    },
    error: str,
  },
  required: ['status', 'jobId', 'startedAt', 'finishedAt', 'lastSyncedAt', 'objectsSynced', 'objects', 'error'],
  additionalProperties: false,
} as const;

export const StripeDisconnectResponseSchema = {
  $id: 'StripeDisconnectResponse',
  type: 'object',
  properties: { stripeAccountId: str },
  required: ['stripeAccountId'],
  additionalProperties: false,
} as const;

export const StripeWebhookResponseSchema = {
  $id: 'StripeWebhookResponse',
  type: 'object',
  description: 'processed, duplicate (handled before), stale (older than the state kept) or ignored.',
  properties: { outcome: { type: 'string', enum: ['processed', 'duplicate', 'stale', 'ignored'] } },
  required: ['outcome'],
  additionalProperties: false,
} as const;

export const StripeOAuthLinkQuerySchema = {
  type: 'object',
  properties: { redirectUri: { type: 'string', maxLength: 2000, description: 'Where Stripe sends the user back: an absolute http or https URL.' } },
  additionalProperties: false,
} as const;

export const StripeConnectBodySchema = {
  type: 'object',
  // Shape only (as every body, services/gateway/src/http/schemas.ts): the service owns the rules and their messages.
  properties: {
    scope: { type: 'string', maxLength: 40, description: "The callback's scope: read_only or read_write." },
    code: { type: 'string', maxLength: 255, description: "The callback's authorization code (ac_...)." },
  },
  additionalProperties: false,
} as const;

export const StripeMetricSchema = {
  $id: 'StripeMetric',
  type: 'object',
  description:
    'One revenue metric over [startDate, endDate] (UTC; point-in-time metrics at the end). value: money in the currency (2 decimals), a count, or a percent (2 decimals), as kind says.',
  properties: {
    metric: str,
    kind: { type: 'string', enum: ['money', 'count', 'percent'] },
    value: { type: 'number' },
    currency: str,
    startDate: { type: 'string', format: 'date' },
    endDate: { type: 'string', format: 'date' },
  },
  required: ['metric', 'kind', 'value', 'currency', 'startDate', 'endDate'],
  additionalProperties: false,
} as const;

export const StripeMetricQuerySchema = {
  type: 'object',
  properties: {
    startDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC); default 29 days before endDate.' },
    endDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC); default today.' },
  },
  additionalProperties: false,
} as const;

/** Registered before the routes (OpenAPI names them `#/components/schemas/<$id>`). */
export const INTEGRATIONS_SCHEMAS = [
  StripeAccountSchema,
  StripeOAuthLinkSchema,
  StripeConnectResponseSchema,
  StripeSyncJobSchema,
  StripeSyncStatusSchema,
  StripeDisconnectResponseSchema,
  StripeWebhookResponseSchema,
  StripeMetricSchema,
] as const;
