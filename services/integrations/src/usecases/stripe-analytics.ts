import { AppError, DATE_ORDER_MESSAGE, ErrorKind, withTenant } from '@ledgerline/platform';
import { METRICS, metric, periodOf, type Metric, type MetricValue, type RevenueData } from '../domain/revenue.js';
import { connections, objects } from '../store/stripe-store.js';
import type { IntegrationsDeps, Tenant } from './context.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 3660;

function dateProblem(field: string, value: string): string | undefined {
  if (!DATE.test(value)) return `${field} must be a date (YYYY-MM-DD)`;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return `${field} must be a real date`;
  if (value < '2000-01-01' || value > '2100-12-31') return `${field} must be between 2000-01-01 and 2100-12-31`;
  return undefined;
}

export interface MetricAnswer {
  metric: Metric;
  value: MetricValue;
  currency: string;
  startDate: string;
  endDate: string;
}

/** GET /stripe-analytic/*: one metric of the workspace's synced Stripe data over a period. */
export class StripeAnalytics {
  constructor(private readonly deps: IntegrationsDeps) {}

  async metric(tenant: Tenant, input: { metric: string; startDate: string; endDate: string }): Promise<MetricAnswer> {
    if (!(METRICS as readonly string[]).includes(input.metric))
      throw AppError.invalid([{ field: 'metric', message: `metric must be one of ${METRICS.join(', ')}` }]);
    const today = (this.deps.now?.() ?? new Date()).toISOString().slice(0, 10);
    const endDate = input.endDate || today;
    const problems = [
      input.startDate ? { field: 'startDate', message: dateProblem('startDate', input.startDate) } : { field: 'startDate', message: undefined },
      { field: 'endDate', message: dateProblem('endDate', endDate) },
    ].filter((p): p is { field: string; message: string } => p.message !== undefined);
    if (problems.length > 0) throw AppError.invalid(problems);
    const startDate = input.startDate || new Date(Date.parse(`${endDate}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    if (startDate > endDate) throw AppError.invalid([{ field: 'startDate', message: DATE_ORDER_MESSAGE }]);
    if ((Date.parse(endDate) - Date.parse(startDate)) / 86_400_000 > MAX_DAYS)
      throw AppError.invalid([{ field: 'startDate', message: 'The period can be at most 10 years' }]);
    const period = periodOf(startDate, endDate);

    return withTenant(this.deps.db, tenant, async (trx) => {
      const connection = await connections.ofWorkspace(trx);
      if (!connection) throw new AppError(ErrorKind.NotFound, 'No Stripe account is connected');
      const load = (type: string, created?: boolean) => objects.payloads(trx, connection.id, type, created ? period : undefined);
      const name = input.metric as Metric;
      const needs = (...names: Metric[]) => names.includes(name);
      const data: RevenueData = {
        subscriptions: needs('mrr', 'arr', 'active-subscriptions', 'active-customers', 'new-subscriptions', 'new-trails', 'subscription-churn')
          ? ((await load('subscription')) as unknown as RevenueData['subscriptions'])
          : [],
        customers: needs('new-customers') ? ((await load('customer', true)) as unknown as RevenueData['customers']) : [],
        charges: needs('gross-revenue/value', 'total-charge/value') ? ((await load('charge', true)) as unknown as RevenueData['charges']) : [],
        refunds: needs('gross-revenue/value', 'total-refund/value') ? ((await load('refund', true)) as unknown as RevenueData['refunds']) : [],
        balanceTransactions: needs('total-fee/value') ? ((await load('balance_transaction', true)) as unknown as RevenueData['balanceTransactions']) : [],
        payouts: needs('net-payout/value') ? ((await load('payout')) as unknown as RevenueData['payouts']) : [],
      };
      return { metric: name, value: metric(name, data, period), currency: connection.account.defaultCurrency || 'usd', startDate, endDate };
    });
  }
}
