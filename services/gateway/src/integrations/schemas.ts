import { bool, int, int32, object, ref, str } from '../http/schemas.js';

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
    breakdown: {
      type: 'string',
      enum: ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'totals_only'],
      description:
        'The breakdown applied, after the fallbacks (yearly under 11 months and quarterly under 2 months fall to monthly; under a month, totals only).',
    },
    series: {
      type: 'array',
      description: 'The metric per column of the breakdown (point-in-time metrics at the column end).',
      items: object({ label: str, startDate: { type: 'string', format: 'date' }, endDate: { type: 'string', format: 'date' }, value: { type: 'number' } }, [
        'label',
        'startDate',
        'endDate',
        'value',
      ]),
    },
  },
  required: ['metric', 'kind', 'value', 'currency', 'startDate', 'endDate', 'breakdown', 'series'],
  additionalProperties: false,
} as const;

export const StripeMetricQuerySchema = {
  type: 'object',
  properties: {
    startDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC); default 29 days before endDate.' },
    endDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC); default today.' },
    breakdown: {
      type: 'string',
      maxLength: 20,
      description: 'The series columns: month, week, year, or daily, weekly, monthly, quarterly, yearly, totals_only; default monthly.',
    },
  },
  additionalProperties: false,
} as const;

const date = { type: 'string', format: 'date' } as const;
const money = { type: 'number', description: 'In the currency, two decimals.' } as const;

export const StripePageMetaSchema = {
  $id: 'StripePageMeta',
  ...object({ page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool }, [
    'page',
    'take',
    'itemCount',
    'pageCount',
    'hasPreviousPage',
    'hasNextPage',
  ]),
} as const;

export const StripePayoutSchema = {
  $id: 'StripePayout',
  description: 'A payout of the connected account to its bank (spec: payment-processor views, payout).',
  ...object(
    {
      id: { type: 'string', description: 'po_...' },
      amount: money,
      currency: str,
      arrivalDate: { ...date, description: 'When Stripe expects it in the bank.' },
      created: instant,
      status: { type: 'string', description: 'paid, pending, in_transit, canceled or failed.' },
      description: str,
      method: str,
      automatic: bool,
      transactionId: { type: 'string', description: 'The bank transaction the payout was matched to (card-payout link); empty while unmatched.' },
    },
    ['id', 'amount', 'currency', 'arrivalDate', 'created', 'status', 'description', 'method', 'automatic', 'transactionId'],
  ),
} as const;

export const StripePayoutListSchema = {
  $id: 'StripePayoutList',
  ...object({ data: { type: 'array', items: ref(StripePayoutSchema) }, meta: ref(StripePageMetaSchema) }, ['data', 'meta']),
} as const;

export const StripePayoutDetailSchema = {
  $id: 'StripePayoutDetail',
  description: "A payout's gross-to-net (gross − fees − refunds + adjustments = net = amount) and its balance transactions.",
  ...object(
    {
      payout: ref(StripePayoutSchema),
      gross: money,
      fees: money,
      refunds: money,
      adjustments: money,
      net: money,
      itemsRead: { type: 'boolean', description: "False until a sync has read the payout's balance transactions." },
      items: {
        type: 'array',
        items: object(
          {
            id: { type: 'string', description: 'txn_...' },
            type: { type: 'string', enum: ['payout', 'charge', 'refund', 'adjustment', 'stripe_fee'], description: 'The item type.' },
            stripeType: { type: 'string', description: "Stripe's balance transaction type." },
            amount: money,
            fee: money,
            net: money,
            created: instant,
            source: str,
          },
          ['id', 'type', 'stripeType', 'amount', 'fee', 'net', 'created', 'source'],
        ),
      },
    },
    ['payout', 'gross', 'fees', 'refunds', 'adjustments', 'net', 'itemsRead', 'items'],
  ),
} as const;

export const StripePaymentIntentSchema = {
  $id: 'StripePaymentIntent',
  ...object(
    {
      id: { type: 'string', description: 'pi_...' },
      amount: money,
      amountReceived: money,
      currency: str,
      customerId: str,
      status: str,
      created: instant,
      description: str,
    },
    ['id', 'amount', 'amountReceived', 'currency', 'customerId', 'status', 'created', 'description'],
  ),
} as const;

export const StripePaymentIntentListSchema = {
  $id: 'StripePaymentIntentList',
  ...object({ data: { type: 'array', items: ref(StripePaymentIntentSchema) }, meta: ref(StripePageMetaSchema) }, ['data', 'meta']),
} as const;

export const StripePaymentIntentDetailSchema = {
  $id: 'StripePaymentIntentDetail',
  description: 'A payment intent and its charges, with the fee Stripe took on each.',
  ...object(
    {
      paymentIntent: ref(StripePaymentIntentSchema),
      charges: {
        type: 'array',
        items: object({ id: str, amount: money, amountRefunded: money, fee: money, status: str, created: instant }, [
          'id',
          'amount',
          'amountRefunded',
          'fee',
          'status',
          'created',
        ]),
      },
    },
    ['paymentIntent', 'charges'],
  ),
} as const;

export const StripePlanListSchema = {
  $id: 'StripePlanList',
  description: 'The plans (recurring prices) with the subscriptions paying on them and their customers at the end of asOf.',
  ...object(
    {
      asOf: date,
      data: {
        type: 'array',
        items: object(
          {
            id: str,
            planName: str,
            amount: money,
            currency: str,
            interval: { type: 'string', enum: ['day', 'week', 'month', 'year'] },
            intervalCount: int,
            planActive: bool,
            activeSubscriptions: int,
            activeCustomers: int,
            productId: str,
          },
          ['id', 'planName', 'amount', 'currency', 'interval', 'intervalCount', 'planActive', 'activeSubscriptions', 'activeCustomers', 'productId'],
        ),
      },
    },
    ['asOf', 'data'],
  ),
} as const;

export const StripeProductListSchema = {
  $id: 'StripeProductList',
  description: 'The products with their plans and the subscriptions (and customers) paying on any of them at the end of asOf.',
  ...object(
    {
      asOf: date,
      data: {
        type: 'array',
        items: object({ id: str, name: str, active: bool, created: instant, plans: int, activeSubscriptions: int, activeCustomers: int }, [
          'id',
          'name',
          'active',
          'created',
          'plans',
          'activeSubscriptions',
          'activeCustomers',
        ]),
      },
    },
    ['asOf', 'data'],
  ),
} as const;

export const StripeListQuerySchema = {
  type: 'object',
  properties: {
    startDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC); with either date only the period is listed.' },
    endDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC).' },
    page: { ...int32, description: 'At least 1; default 1.' },
    take: { ...int32, description: '1 to 100; default 20.' },
  },
  additionalProperties: false,
} as const;

export const StripeAsOfQuerySchema = {
  type: 'object',
  properties: { endDate: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC): paying at the end of this day; default today.' } },
  additionalProperties: false,
} as const;

export const StripeIdParamsSchema = object({ id: { type: 'string', maxLength: 255 } }, ['id']);

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
  StripePageMetaSchema,
  StripePayoutSchema,
  StripePayoutListSchema,
  StripePayoutDetailSchema,
  StripePaymentIntentSchema,
  StripePaymentIntentListSchema,
  StripePaymentIntentDetailSchema,
  StripePlanListSchema,
  StripeProductListSchema,
] as const;
