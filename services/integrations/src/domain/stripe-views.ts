// The payment-processor views of the spec (documents-parties-integrations §3: payout, balance transaction, charge,
// payment intent, product and plan) over synced Stripe objects. Pure, no I/O; amounts in minor units.
import { composePayout, itemTypeOf, type BalanceTxnLike, type PayoutComposition, type PayoutItemType } from './stripe-payouts.js';
import { customerOf, payingAt, type SubscriptionLike } from './revenue.js';

const ymd = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
const idOf = (ref: unknown): string => (typeof ref === 'string' ? ref : ref && typeof ref === 'object' ? String((ref as { id?: unknown }).id ?? '') : '');

export interface PayoutLike {
  id: string;
  amount: number;
  currency: string;
  arrival_date: number;
  created: number;
  status: string;
  description?: string | null;
  method?: string | null;
  automatic?: boolean;
}

export interface PayoutView {
  id: string;
  amountCents: number;
  currency: string;
  arrivalDate: string;
  created: string;
  status: string;
  description: string;
  method: string;
  automatic: boolean;
  /** The bank transaction the payout was matched to (the card-payout link); empty while unmatched. */
  transactionId: string;
}

export const payoutView = (p: PayoutLike, transactionId = ''): PayoutView => ({
  id: p.id,
  amountCents: p.amount,
  currency: p.currency,
  arrivalDate: ymd(p.arrival_date),
  created: new Date(p.created * 1000).toISOString(),
  status: p.status,
  description: p.description ?? '',
  method: p.method ?? '',
  automatic: p.automatic ?? false,
  transactionId,
});

export interface PayoutItemView {
  id: string;
  type: PayoutItemType;
  stripeType: string;
  amountCents: number;
  feeCents: number;
  netCents: number;
  created: string;
  source: string;
}

export interface PayoutDetail {
  payout: PayoutView;
  composition: PayoutComposition;
  items: PayoutItemView[];
}

/** A payout with its gross-to-net and its balance transactions (its own `payout` transaction first), newest first after it. */
export function payoutDetail(p: PayoutLike, members: Array<BalanceTxnLike & { source?: string | null }>, transactionId = ''): PayoutDetail {
  const items = [...members]
    .sort((a, b) => Number(itemTypeOf(b.type) === 'payout') - Number(itemTypeOf(a.type) === 'payout') || b.created - a.created || a.id.localeCompare(b.id))
    .map((t) => ({
      id: t.id,
      type: itemTypeOf(t.type),
      stripeType: t.type,
      amountCents: t.amount,
      feeCents: t.fee,
      netCents: t.net,
      created: new Date(t.created * 1000).toISOString(),
      source: t.source ?? '',
    }));
  return { payout: payoutView(p, transactionId), composition: composePayout(members), items };
}

export interface PaymentIntentLike {
  id: string;
  amount: number;
  amount_received: number;
  currency: string;
  customer: unknown;
  status: string;
  created: number;
  description?: string | null;
}

export interface PaymentIntentView {
  id: string;
  amountCents: number;
  amountReceivedCents: number;
  currency: string;
  customerId: string;
  status: string;
  created: string;
  description: string;
}

export const paymentIntentView = (pi: PaymentIntentLike): PaymentIntentView => ({
  id: pi.id,
  amountCents: pi.amount,
  amountReceivedCents: pi.amount_received,
  currency: pi.currency,
  customerId: idOf(pi.customer),
  status: pi.status,
  created: new Date(pi.created * 1000).toISOString(),
  description: pi.description ?? '',
});

export interface ChargeLike {
  id: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  status: string;
  created: number;
  payment_intent?: unknown;
  balance_transaction?: unknown;
}

export interface ChargeView {
  id: string;
  amountCents: number;
  amountRefundedCents: number;
  feeCents: number;
  status: string;
  created: string;
}

/** A payment intent's charges with Stripe's fee on each (from its balance transaction), newest first. */
export function chargesOf(piId: string, charges: ChargeLike[], fees: ReadonlyMap<string, number>): ChargeView[] {
  return charges
    .filter((c) => idOf(c.payment_intent) === piId)
    .sort((a, b) => b.created - a.created || a.id.localeCompare(b.id))
    .map((c) => ({
      id: c.id,
      amountCents: c.amount,
      amountRefundedCents: c.amount_refunded,
      feeCents: fees.get(idOf(c.balance_transaction)) ?? 0,
      status: c.status,
      created: new Date(c.created * 1000).toISOString(),
    }));
}

export interface PriceLike {
  id: string;
  active: boolean;
  currency: string;
  unit_amount: number | null;
  nickname?: string | null;
  product: unknown;
  recurring: { interval: string; interval_count: number } | null;
  created: number;
}

export interface PlanView {
  id: string;
  planName: string;
  amountCents: number;
  currency: string;
  interval: string;
  intervalCount: number;
  planActive: boolean;
  activeSubscriptions: number;
  activeCustomers: number;
  productId: string;
}

/**
 * The plans (recurring prices, Stripe's legacy plan view) with the subscriptions paying on them at instant `t` and
 * their distinct customers. planName is the price's nickname, else its product's name. Sorted by name, then id.
 */
export function plansAt(prices: PriceLike[], products: Array<{ id: string; name: string }>, subs: SubscriptionLike[], t: number): PlanView[] {
  const names = new Map(products.map((p) => [p.id, p.name]));
  const paying = subs.filter((s) => payingAt(s, t));
  return prices
    .filter((p) => p.recurring !== null)
    .map((p) => {
      const on = paying.filter((s) => s.items.data.some((i) => (i.price as { id?: string }).id === p.id));
      return {
        id: p.id,
        planName: p.nickname || names.get(idOf(p.product)) || p.id,
        amountCents: p.unit_amount ?? 0,
        currency: p.currency,
        interval: p.recurring!.interval,
        intervalCount: p.recurring!.interval_count,
        planActive: p.active,
        activeSubscriptions: on.length,
        activeCustomers: new Set(on.map(customerOf)).size,
        productId: idOf(p.product),
      };
    })
    .sort((a, b) => a.planName.localeCompare(b.planName) || a.id.localeCompare(b.id));
}

export interface ProductView {
  id: string;
  name: string;
  active: boolean;
  created: string;
  plans: number;
  activeSubscriptions: number;
  activeCustomers: number;
}

/** The products with their plans counted and the subscriptions (and customers) paying on any of them at `t`. */
export function productsAt(
  products: Array<{ id: string; name: string; active: boolean; created: number }>,
  prices: PriceLike[],
  subs: SubscriptionLike[],
  t: number,
): ProductView[] {
  const paying = subs.filter((s) => payingAt(s, t));
  return products
    .map((p) => {
      const own = new Set(prices.filter((x) => idOf(x.product) === p.id && x.recurring !== null).map((x) => x.id));
      const on = paying.filter((s) => s.items.data.some((i) => own.has((i.price as { id?: string }).id ?? '')));
      return {
        id: p.id,
        name: p.name,
        active: p.active,
        created: new Date(p.created * 1000).toISOString(),
        plans: own.size,
        activeSubscriptions: on.length,
        activeCustomers: new Set(on.map(customerOf)).size,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
