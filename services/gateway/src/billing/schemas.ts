/** The REST shapes of the billing service's routes, as JSON Schema (the OpenAPI document is made from them). */
const limit = (description: string) => ({ type: 'integer', description: `${description}; -1 is unlimited.` }) as const;

export const PlanLimitsSchema = {
  $id: 'PlanLimits',
  type: 'object',
  description: 'What a plan covers.',
  properties: {
    bankAccounts: limit('Bank accounts'),
    users: limit('Users of the workspace'),
    monthlyExpenses: limit('Expenses a month, in cents'),
  },
  required: ['bankAccounts', 'users', 'monthlyExpenses'],
  additionalProperties: false,
} as const;

export const BillingPlanSchema = {
  $id: 'BillingPlan',
  type: 'object',
  description: 'A plan Ledgerline sells (documents §9) with its monthly and yearly prices.',
  properties: {
    id: { type: 'string', enum: ['starter', 'launch', 'ai_accounting', 'startup', 'full_service', 'growth'] },
    name: { type: 'string' },
    description: { type: 'string' },
    free: { type: 'boolean', description: 'A price of 0: no checkout.' },
    limits: { $ref: 'PlanLimits#' },
    features: { type: 'array', items: { type: 'string' } },
    prices: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          priceId: { type: 'string', description: 'The priceId to give POST /checkout.' },
          interval: { type: 'string', enum: ['monthly', 'yearly'] },
          amount: { type: 'integer', description: 'Cents per interval.' },
          currency: { type: 'string' },
        },
        required: ['priceId', 'interval', 'amount', 'currency'],
        additionalProperties: false,
      },
    },
  },
  required: ['id', 'name', 'description', 'free', 'limits', 'features', 'prices'],
  additionalProperties: false,
} as const;

export const BillingPlansSchema = {
  $id: 'BillingPlans',
  type: 'object',
  properties: { plans: { type: 'array', items: { $ref: 'BillingPlan#' } } },
  required: ['plans'],
  additionalProperties: false,
} as const;

const STATUSES = ['trialing', 'active', 'incomplete', 'incomplete_expired', 'past_due', 'canceled', 'unpaid', 'paused', 'not_found'];
const instant = { type: ['string', 'null'], format: 'date-time' } as const;

export const SubscriptionVerifySchema = {
  $id: 'SubscriptionVerify',
  type: 'object',
  description: "The workspace's subscription (documents §3 Organization.subscription) and the plan in force.",
  properties: {
    status: { type: 'string', enum: STATUSES },
    plan: { $ref: 'BillingPlan#' },
    interval: { type: 'string', enum: ['monthly', 'yearly', ''] },
    subscription: {
      type: ['object', 'null'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        createdOn: instant,
        lastUpdated: instant,
        startAt: instant,
        endAt: instant,
        json: { type: 'string', description: 'The Stripe subscription as last read, JSON.' },
        subscriptionId: { type: 'string' },
        priceId: { type: 'string' },
        status: { type: 'string', enum: STATUSES },
        cancelAtPeriodEnd: { type: 'boolean' },
        trialEnd: instant,
      },
      required: ['id', 'createdOn', 'lastUpdated', 'startAt', 'endAt', 'json', 'subscriptionId', 'priceId', 'status', 'cancelAtPeriodEnd', 'trialEnd'],
      additionalProperties: false,
    },
  },
  required: ['status', 'plan', 'interval', 'subscription'],
  additionalProperties: false,
} as const;

export const CheckoutSessionSchema = {
  $id: 'CheckoutSession',
  type: 'object',
  description: 'A Stripe Checkout Session: the browser goes to url to pay.',
  properties: { sessionId: { type: 'string' }, url: { type: 'string' } },
  required: ['sessionId', 'url'],
  additionalProperties: false,
} as const;

export const BillingWebhookResponseSchema = {
  $id: 'BillingWebhookResponse',
  type: 'object',
  description: 'processed, duplicate (the event id was handled before) or ignored (nothing of a workspace).',
  properties: { outcome: { type: 'string', enum: ['processed', 'duplicate', 'ignored'] } },
  required: ['outcome'],
  additionalProperties: false,
} as const;

export const PlanLimitsResponseSchema = {
  $id: 'PlanLimitsResponse',
  type: 'object',
  properties: { planId: { type: 'string' }, planName: { type: 'string' }, limits: { $ref: 'PlanLimits#' }, upgradeUrl: { type: 'string' } },
  required: ['planId', 'planName', 'limits', 'upgradeUrl'],
  additionalProperties: false,
} as const;

export const CheckoutQuerySchema = {
  type: 'object',
  properties: { priceId: { type: 'string', maxLength: 200, description: "A paid plan's monthly or yearly price id (GET /subscription/plans)." } },
  additionalProperties: false,
} as const;

export const VerifyQuerySchema = {
  type: 'object',
  properties: { sessionId: { type: 'string', maxLength: 300, description: 'The Checkout Session the browser comes back from (optional).' } },
  additionalProperties: false,
} as const;

/** Registered before the routes (OpenAPI names them `#/components/schemas/<$id>`). */
export const BILLING_SCHEMAS = [
  PlanLimitsSchema,
  BillingPlanSchema,
  BillingPlansSchema,
  SubscriptionVerifySchema,
  CheckoutSessionSchema,
  BillingWebhookResponseSchema,
  PlanLimitsResponseSchema,
] as const;
