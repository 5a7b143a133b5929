// Stripe payloads are validated like user input (RELIABILITY promise 14): ids, integer money within bounds (no
// floats), ISO currency codes, timestamps, and list pages of at most 100 objects. A page with one bad object is
// refused whole: nothing of it is written and the sync job fails naming the object and the field.
import { z } from 'zod';

/** Money in the currency's minor unit: an integer, at most a trillion either way. */
const money = z.number().int().min(-1e12).max(1e12);
const unix = z.number().int().min(0).max(1e11);
const currency = z.string().regex(/^[a-z]{3}$/, 'a three-letter ISO currency code');
const idOf = (prefix: string) =>
  z
    .string()
    .max(255)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`), `a Stripe ${prefix}_ id`);
const ref = (prefix: string) => z.union([idOf(prefix), z.object({ id: idOf(prefix) }).loose()]);
const text = z.string().max(5000);

const base = <P extends string, T extends string>(prefix: P, object: T) => z.object({ id: idOf(prefix), object: z.literal(object), created: unix }).loose();

const price = base('price', 'price').extend({
  active: z.boolean(),
  currency,
  product: ref('prod'),
  unit_amount: money.nullable(),
  nickname: text.nullable().optional(),
  recurring: z
    .object({ interval: z.enum(['day', 'week', 'month', 'year']), interval_count: z.number().int().min(1).max(1000) })
    .loose()
    .nullable(),
});

export const OBJECT_SCHEMAS = {
  customer: base('cus', 'customer').extend({ email: text.nullable().optional(), name: text.nullable().optional() }),
  product: base('prod', 'product').extend({ name: text, active: z.boolean() }),
  price,
  subscription: base('sub', 'subscription').extend({
    customer: ref('cus'),
    status: z.enum(['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused']),
    currency,
    trial_start: unix.nullable(),
    trial_end: unix.nullable(),
    canceled_at: unix.nullable(),
    ended_at: unix.nullable(),
    start_date: unix,
    items: z.object({ data: z.array(z.object({ id: idOf('si'), price, quantity: z.number().int().min(0).max(1e9).optional() }).loose()).max(100) }).loose(),
  }),
  invoice: base('in', 'invoice').extend({
    customer: ref('cus').nullable(),
    currency,
    amount_due: money,
    amount_paid: money,
    total: money,
    status: z.string().max(40).nullable(),
  }),
  charge: base('ch', 'charge').extend({
    amount: money,
    amount_refunded: money,
    currency,
    customer: ref('cus').nullable(),
    balance_transaction: ref('txn').nullable(),
    payment_intent: ref('pi').nullable().optional(),
    status: z.enum(['succeeded', 'pending', 'failed']),
  }),
  refund: base('re', 'refund').extend({
    amount: money,
    currency,
    charge: ref('ch').nullable(),
    balance_transaction: ref('txn').nullable().optional(),
    status: z.string().max(40).nullable(),
  }),
  payment_intent: base('pi', 'payment_intent').extend({
    amount: money,
    amount_received: money,
    currency,
    customer: ref('cus').nullable(),
    status: z.string().max(40),
  }),
  balance_transaction: base('txn', 'balance_transaction').extend({
    amount: money,
    fee: money,
    net: money,
    currency,
    type: z.string().max(60),
    available_on: unix,
    fee_details: z.array(z.object({ amount: money, currency, type: z.string().max(60) }).loose()).max(100),
    source: z.string().max(255).nullable(),
  }),
  payout: base('po', 'payout').extend({ amount: money, currency, arrival_date: unix, status: z.string().max(40), balance_transaction: ref('txn').nullable() }),
} as const;

export type ObjectType = keyof typeof OBJECT_SCHEMAS;
export const OBJECT_TYPES = Object.keys(OBJECT_SCHEMAS) as ObjectType[];

export const MAX_PAGE = 100;

export interface ValidObject {
  id: string;
  object: ObjectType;
  created: number;
  payload: Record<string, unknown>;
}

export class ProviderPayloadError extends Error {
  override readonly name = 'ProviderPayloadError';
}

/** Validates one object of `type`; throws ProviderPayloadError naming the object and field. */
export function validateObject(type: ObjectType, value: unknown): ValidObject {
  const result = OBJECT_SCHEMAS[type].safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const id = value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id.slice(0, 60) : '(no id)';
    throw new ProviderPayloadError(`Stripe sent an invalid ${type} ${id}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const parsed = result.data as unknown as Record<string, unknown> & { id: string; created: number };
  return { id: parsed.id, object: type, created: parsed.created, payload: parsed };
}

/** Validates a list page: at most MAX_PAGE objects, each valid, or the whole page is refused. */
export function validatePage(type: ObjectType, data: unknown): ValidObject[] {
  if (!Array.isArray(data)) throw new ProviderPayloadError(`Stripe sent a ${type} list without data`);
  if (data.length > MAX_PAGE) throw new ProviderPayloadError(`Stripe sent ${data.length} ${type} objects in one page (at most ${MAX_PAGE})`);
  return data.map((o) => validateObject(type, o));
}

/** The Stripe event envelope a webhook carries. */
export const EVENT_SCHEMA = z
  .object({
    id: idOf('evt'),
    object: z.literal('event'),
    type: z.string().max(100),
    created: unix,
    account: idOf('acct').optional(),
    data: z.object({ object: z.object({ id: z.string().max(255), object: z.string().max(60) }).loose() }).loose(),
  })
  .loose();
export type StripeEventEnvelope = z.infer<typeof EVENT_SCHEMA>;
