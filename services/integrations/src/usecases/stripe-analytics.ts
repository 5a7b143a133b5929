import { AppError, DATE_ORDER_MESSAGE, ErrorKind, withTenant, type Knex } from '@ledgerline/platform';
import { METRICS, metric, periodOf, type Metric, type MetricValue, type RevenueData, type SubscriptionLike } from '../domain/revenue.js';
import { breakdownColumns, breakdownOf, effectiveBreakdown, STRIPE_BREAKDOWNS, type StripeBreakdown } from '../domain/stripe-breakdown.js';
import type { BalanceTxnLike } from '../domain/stripe-payouts.js';
import {
  chargesOf,
  paymentIntentView,
  payoutDetail,
  payoutView,
  plansAt,
  productsAt,
  type ChargeLike,
  type ChargeView,
  type PaymentIntentLike,
  type PaymentIntentView,
  type PayoutDetail,
  type PayoutLike,
  type PayoutView,
  type PlanView,
  type PriceLike,
  type ProductView,
} from '../domain/stripe-views.js';
import { connections, objects, payoutMembers, stripeObjects, type ConnectionRow } from '../store/stripe-store.js';
import { payoutLinks } from '../store/stripe-reconciliation-store.js';
import type { IntegrationsDeps, Tenant } from './context.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 3660;
const STRIPE_ID = /^[A-Za-z0-9_]{1,255}$/;

function dateProblem(field: string, value: string): string | undefined {
  if (!DATE.test(value)) return `${field} must be a date (YYYY-MM-DD)`;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return `${field} must be a real date`;
  if (value < '2000-01-01' || value > '2100-12-31') return `${field} must be between 2000-01-01 and 2100-12-31`;
  return undefined;
}

export interface SeriesPoint {
  label: string;
  startDate: string;
  endDate: string;
  value: MetricValue;
}

export interface MetricAnswer {
  metric: Metric;
  value: MetricValue;
  currency: string;
  startDate: string;
  endDate: string;
  /** The breakdown applied after the spec's fallbacks. */
  breakdown: StripeBreakdown;
  series: SeriesPoint[];
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  take: number;
}

export interface ListInput {
  startDate: string;
  endDate: string;
  page: number;
  take: number;
}

interface Period {
  startDate: string;
  endDate: string;
}

const NO_CONNECTION = 'No Stripe account is connected';

/** GET /stripe-analytic/*: metrics and the payment-processor views of the workspace's synced Stripe data. */
export class StripeAnalytics {
  constructor(private readonly deps: IntegrationsDeps) {}

  private today(): string {
    return (this.deps.now?.() ?? new Date()).toISOString().slice(0, 10);
  }

  /** startDate/endDate checked and defaulted (endDate today, startDate `defaultDays` before it); 400 naming the field. */
  private period(input: { startDate: string; endDate: string }, defaultDays = 29): Period {
    const endDate = input.endDate || this.today();
    const problems = [
      { field: 'startDate', message: input.startDate ? dateProblem('startDate', input.startDate) : undefined },
      { field: 'endDate', message: dateProblem('endDate', endDate) },
    ].filter((p): p is { field: string; message: string } => p.message !== undefined);
    if (problems.length > 0) throw AppError.invalid(problems);
    const startDate = input.startDate || new Date(Date.parse(`${endDate}T00:00:00Z`) - defaultDays * 86_400_000).toISOString().slice(0, 10);
    if (startDate > endDate) throw AppError.invalid([{ field: 'startDate', message: DATE_ORDER_MESSAGE }]);
    if ((Date.parse(endDate) - Date.parse(startDate)) / 86_400_000 > MAX_DAYS)
      throw AppError.invalid([{ field: 'startDate', message: 'The period can be at most 10 years' }]);
    return { startDate, endDate };
  }

  /** Spec paging: page at least 1, take 1 to 100, default 20 (0 means the default). */
  private paging(input: { page: number; take: number }): { page: number; take: number } {
    const page = input.page || 1;
    const take = input.take || 20;
    const problems = [];
    if (!Number.isInteger(page) || page < 1 || page > 1_000_000) problems.push({ field: 'page', message: 'page must be at least 1' });
    if (!Number.isInteger(take) || take < 1 || take > 100) problems.push({ field: 'take', message: 'take must be from 1 to 100' });
    if (problems.length > 0) throw AppError.invalid(problems);
    return { page, take };
  }

  /** A list's optional period: none unless startDate or endDate is given. */
  private listBounds(input: { startDate: string; endDate: string }): { start: number; end: number } | undefined {
    if (!input.startDate && !input.endDate) return undefined;
    const { startDate, endDate } = this.period(input);
    return periodOf(startDate, endDate);
  }

  private async connected<T>(tenant: Tenant, work: (trx: Knex.Transaction, connection: ConnectionRow) => Promise<T>): Promise<T> {
    return withTenant(this.deps.db, tenant, async (trx) => {
      const connection = await connections.ofWorkspace(trx);
      if (!connection) throw new AppError(ErrorKind.NotFound, NO_CONNECTION);
      return work(trx, connection);
    });
  }

  async metric(tenant: Tenant, input: { metric: string; startDate: string; endDate: string; breakdown?: string }): Promise<MetricAnswer> {
    if (!(METRICS as readonly string[]).includes(input.metric))
      throw AppError.invalid([{ field: 'metric', message: `metric must be one of ${METRICS.join(', ')}` }]);
    const requested = input.breakdown ? breakdownOf(input.breakdown) : 'monthly';
    if (!requested) throw AppError.invalid([{ field: 'breakdown', message: `breakdown must be one of month, week, year, ${STRIPE_BREAKDOWNS.join(', ')}` }]);
    const { startDate, endDate } = this.period(input);
    const period = periodOf(startDate, endDate);
    const breakdown = effectiveBreakdown(requested, startDate, endDate);

    return this.connected(tenant, async (trx, connection) => {
      const load = (type: string, created?: boolean) => objects.payloads(trx, connection.id, type, created ? period : undefined);
      const name = input.metric as Metric;
      const needs = (...names: Metric[]) => names.includes(name);
      const data: RevenueData = {
        subscriptions: needs('mrr', 'arr', 'active-subscriptions', 'active-customers', 'new-subscriptions', 'new-trails', 'subscription-churn')
          ? ((await load('subscription')) as unknown as RevenueData['subscriptions'])
          : [],
        customers: needs('new-customers') ? ((await load('customer', true)) as unknown as RevenueData['customers']) : [],
        charges: needs('gross-revenue/value', 'total-charge/value', 'net-revenue') ? ((await load('charge', true)) as unknown as RevenueData['charges']) : [],
        refunds: needs('gross-revenue/value', 'total-refund/value', 'net-revenue') ? ((await load('refund', true)) as unknown as RevenueData['refunds']) : [],
        balanceTransactions: needs('total-fee/value', 'net-revenue')
          ? ((await load('balance_transaction', true)) as unknown as RevenueData['balanceTransactions'])
          : [],
        payouts: needs('net-payout/value') ? ((await load('payout')) as unknown as RevenueData['payouts']) : [],
      };
      const series = breakdownColumns(breakdown, startDate, endDate).map((c) => ({
        ...c,
        value: metric(name, data, periodOf(c.startDate, c.endDate)),
      }));
      return {
        metric: name,
        value: metric(name, data, period),
        currency: connection.account.defaultCurrency || 'usd',
        startDate,
        endDate,
        breakdown,
        series,
      };
    });
  }

  /** Payouts newest arrival first; with dates, those arriving in [startDate, endDate]. */
  async payouts(tenant: Tenant, input: ListInput): Promise<Page<PayoutView>> {
    const { page, take } = this.paging(input);
    const bounds = this.listBounds(input);
    return this.connected(tenant, async (trx, connection) => {
      const all = ((await objects.payloads(trx, connection.id, 'payout')) as unknown as PayoutLike[])
        .filter((p) => !bounds || (p.arrival_date >= bounds.start && p.arrival_date <= bounds.end))
        .sort((a, b) => b.arrival_date - a.arrival_date || b.created - a.created || a.id.localeCompare(b.id));
      const shown = all.slice((page - 1) * take, page * take);
      const links = await payoutLinks.ofPayouts(
        trx,
        connection.id,
        shown.map((p) => p.id),
      );
      return { items: shown.map((p) => payoutView(p, links.get(p.id))), total: all.length, page, take };
    });
  }

  /** One payout with its gross-to-net and balance transactions; 404 when the workspace's account has no such payout. */
  async payout(tenant: Tenant, id: string): Promise<PayoutDetail & { membersRead: boolean }> {
    if (!id.startsWith('po_') || !STRIPE_ID.test(id)) throw AppError.invalid([{ field: 'id', message: 'id must be a Stripe payout id (po_...)' }]);
    return this.connected(tenant, async (trx, connection) => {
      const payout = (await stripeObjects.one(trx, connection.id, 'payout', id)) as unknown as PayoutLike | undefined;
      if (!payout) throw AppError.notFound('Payout');
      const members = (await payoutMembers.members(trx, connection.id, id)) as unknown as Array<BalanceTxnLike & { source?: string | null }>;
      const link = (await payoutLinks.ofPayouts(trx, connection.id, [id])).get(id);
      return { ...payoutDetail(payout, members, link), membersRead: await payoutMembers.read(trx, connection.id, id) };
    });
  }

  /** Payment intents newest first; with dates, those created in [startDate, endDate]. */
  async paymentIntents(tenant: Tenant, input: ListInput): Promise<Page<PaymentIntentView>> {
    const { page, take } = this.paging(input);
    const bounds = this.listBounds(input);
    return this.connected(tenant, async (trx, connection) => {
      const all = ((await objects.payloads(trx, connection.id, 'payment_intent', bounds)) as unknown as PaymentIntentLike[]).sort(
        (a, b) => b.created - a.created || a.id.localeCompare(b.id),
      );
      return { items: all.slice((page - 1) * take, page * take).map(paymentIntentView), total: all.length, page, take };
    });
  }

  /** One payment intent with its charges (and Stripe's fee on each); 404 when not the workspace's. */
  async paymentIntent(tenant: Tenant, id: string): Promise<{ paymentIntent: PaymentIntentView; charges: ChargeView[] }> {
    if (!id.startsWith('pi_') || !STRIPE_ID.test(id)) throw AppError.invalid([{ field: 'id', message: 'id must be a Stripe payment intent id (pi_...)' }]);
    return this.connected(tenant, async (trx, connection) => {
      const pi = (await stripeObjects.one(trx, connection.id, 'payment_intent', id)) as unknown as PaymentIntentLike | undefined;
      if (!pi) throw AppError.notFound('Payment intent');
      const charges = (await stripeObjects.chargesOfPaymentIntent(trx, connection.id, id)) as unknown as ChargeLike[];
      const txnIds = charges.map((c) => (typeof c.balance_transaction === 'string' ? c.balance_transaction : '')).filter(Boolean);
      const fees = await stripeObjects.fees(trx, connection.id, txnIds);
      return { paymentIntent: paymentIntentView(pi), charges: chargesOf(id, charges, fees) };
    });
  }

  /** The plans with their paying subscriptions and customers at the end of the day `endDate` (default today). */
  async plans(tenant: Tenant, input: { endDate: string }): Promise<{ asOf: string; plans: PlanView[] }> {
    const { endDate } = this.period({ startDate: '', endDate: input.endDate });
    const at = periodOf(endDate, endDate).end;
    return this.connected(tenant, async (trx, connection) => {
      const prices = await objects.payloads(trx, connection.id, 'price');
      const products = await objects.payloads(trx, connection.id, 'product');
      const subs = await objects.payloads(trx, connection.id, 'subscription');
      return {
        asOf: endDate,
        plans: plansAt(prices as unknown as PriceLike[], products as unknown as Array<{ id: string; name: string }>, subs as unknown as SubscriptionLike[], at),
      };
    });
  }

  /** The products with their plans and paying subscriptions at the end of the day `endDate` (default today). */
  async products(tenant: Tenant, input: { endDate: string }): Promise<{ asOf: string; products: ProductView[] }> {
    const { endDate } = this.period({ startDate: '', endDate: input.endDate });
    const at = periodOf(endDate, endDate).end;
    return this.connected(tenant, async (trx, connection) => {
      const prices = await objects.payloads(trx, connection.id, 'price');
      const products = await objects.payloads(trx, connection.id, 'product');
      const subs = await objects.payloads(trx, connection.id, 'subscription');
      return {
        asOf: endDate,
        products: productsAt(
          products as unknown as Array<{ id: string; name: string; active: boolean; created: number }>,
          prices as unknown as PriceLike[],
          subs as unknown as SubscriptionLike[],
          at,
        ),
      };
    });
  }
}
