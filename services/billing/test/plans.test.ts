// The plans' pure rules, as properties: the subscription that speaks for a workspace is its newest live one
// whatever order the rows come in (else its newest), the plan in force follows §3's status, price ids map back to
// their plan and period, and a limit refuses exactly the first item past it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currentOf,
  FREE_PLAN,
  LIVE_STATUSES,
  limitProblem,
  planById,
  planInForce,
  PLANS,
  priceId,
  priceOf,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
} from '../src/domain/plans.js';

const stored = SUBSCRIPTION_STATUSES.filter((s) => s !== 'not_found');
const subscription = fc.record({
  id: fc.uuid(),
  status: fc.constantFrom(...stored),
  stripeCreated: fc.integer({ min: 1_700_000_000, max: 1_700_000_100 }).map((s) => new Date(s * 1000)),
  seenAt: fc.integer({ min: 0, max: 10_000 }).map((ms) => new Date(1_800_000_000_000 + ms)),
});
const newer = (a: { stripeCreated: Date; seenAt: Date }, b: { stripeCreated: Date; seenAt: Date }) =>
  a.stripeCreated.getTime() - b.stripeCreated.getTime() || a.seenAt.getTime() - b.seenAt.getTime();

describe('the plans', () => {
  it('the current subscription is the newest live one, else the newest, in any order of the rows', () => {
    fc.assert(
      fc.property(fc.array(subscription, { maxLength: 8 }), fc.integer(), (rows, seed) => {
        const shuffled = [...rows].sort((a, b) => ((a.id.charCodeAt(0) * seed) % 7) - ((b.id.charCodeAt(0) * seed) % 7));
        const current = currentOf(shuffled);
        if (rows.length === 0) {
          expect(current).toBeUndefined();
          return;
        }
        const live = rows.filter((r) => LIVE_STATUSES.includes(r.status));
        const pool = live.length > 0 ? live : rows;
        for (const other of pool) expect(newer(current!, other)).toBeGreaterThanOrEqual(0);
        expect(pool).toContain(current);
      }),
    );
  });

  it('the plan in force is the subscribed one only while trialing, active or past_due', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLANS), fc.constantFrom<SubscriptionStatus>(...SUBSCRIPTION_STATUSES), (plan, status) => {
        const inForce = planInForce(plan, status);
        expect(inForce).toBe(['trialing', 'active', 'past_due'].includes(status) ? plan : FREE_PLAN);
      }),
    );
  });

  it('every price id maps back to its plan and period; unknown ids to nothing', () => {
    for (const mode of ['test', 'prod'] as const)
      for (const plan of PLANS)
        for (const interval of ['monthly', 'yearly'] as const) expect(priceOf(priceId(plan.id, interval, mode), mode)).toEqual({ plan, interval });
    expect(priceOf('price_ledgerline_startup_monthly', 'prod')).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(priceOf(`x${s}`, 'test')).toBeUndefined();
      }),
    );
    expect(planById('startup')?.limits).toEqual({ bankAccounts: 3, users: 1, monthlyExpenses: 10_000_000 });
    // A yearly price is ten months.
    for (const plan of PLANS) expect(plan.yearly).toBe(plan.monthly * 10);
  });

  it('a limit refuses exactly the counts past it, naming the plan; unlimited refuses nothing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PLANS),
        fc.constantFrom('bankAccounts' as const, 'users' as const),
        fc.integer({ min: 0, max: 50 }),
        (plan, what, count) => {
          const limit = plan.limits[what];
          const problem = limitProblem(plan, what, count);
          if (limit === null || count <= limit) expect(problem).toBeUndefined();
          else expect(problem).toMatch(new RegExp(`^Your ${plan.name.replace(/[+]/g, '\\+')} plan allows ${limit} `));
        },
      ),
    );
  });
});
