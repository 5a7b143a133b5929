// GET /dashboard through the real gateway, ledger and reporting (issue #13): the dashboard's report widgets in one
// request, each the same answer its own route gives; bad input refused whole naming the field; a Viewer reads it;
// another workspace's id is a 404 and another workspace's books never show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

let h: ReportingApiHarness;
let t: Tenant;
let other: Tenant;

const PERIOD = 'startDate=2026-01-01&endDate=2026-02-28';
const WIDGET_ROUTES = {
  profitLoss: `/financial-data/profit-loss/v3?${PERIOD}`,
  cashFlow: `/financial-data/cash-flow?${PERIOD}`,
  assetBalanceGraph: `/financial-data/get-asset-balance-graph?${PERIOD}`,
  runway: '/financial-data/runway',
  spending: `/financial-data/spending?${PERIOD}`,
  topMerchants: `/financial-data/top-merchant?${PERIOD}`,
} as const;

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  other = h.tenant();
  const checking = await t.banking.link();
  await t.banking.add(checking, { amountCents: 250_000, date: '2026-01-15', name: 'Stripe payout' });
  await t.banking.add(checking, { amountCents: -120_000, date: '2026-02-01', name: 'Office rent' });
  await t.banking.add(checking, { amountCents: -4_550, date: '2026-02-03', name: 'Blue Bottle Coffee' });
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -777, date: '2026-01-02', name: 'Foreign' });
  await h.transactions(t, 3);
  await h.transactions(other, 1);
  await h.caughtUp(t);
  await h.caughtUp(other);
}, 300_000);
afterAll(async () => h?.close());

describe('GET /dashboard', () => {
  it("answers every widget with its own route's answer, in one request", async () => {
    const r = await h.api('GET', `/dashboard?${PERIOD}`, { tenant: t });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(WIDGET_ROUTES).sort());
    for (const [name, path] of Object.entries(WIDGET_ROUTES)) {
      const own = await h.api('GET', path, { tenant: t });
      expect(own.status, name).toBe(200);
      expect(r.body[name], name).toEqual({ status: 200, data: own.body });
    }
    // The books are the tenant's: the payout is income, rent and coffee went out.
    const merchants = (r.body.topMerchants.data.data as { name: string }[]).map((m) => m.name);
    expect(merchants).not.toContain('Foreign');
    expect(r.body.cashFlow.data).toBeTruthy();
  });

  it('refuses a malformed or reversed period whole, naming the field, in the error shape', async () => {
    for (const [query, field] of [
      ['startDate=2026-13-01', 'startDate'],
      ['endDate=yesterday', 'endDate'],
      ['startDate=2026-03-01&endDate=2026-02-01', 'startDate'],
    ] as const) {
      const r = await h.api('GET', `/dashboard?${query}`, { tenant: t });
      expect(r.status, query).toBe(400);
      expect(r.body.statusCode, query).toBe(400);
      expect(typeof r.body.message, query).toBe('string');
      expect(r.body.errors?.[0]?.field, query).toBe(field);
    }
  });

  it('lets a Viewer read the same dashboard', async () => {
    const [owner, viewer] = [
      await h.api('GET', `/dashboard?${PERIOD}`, { tenant: t }),
      await h.api('GET', `/dashboard?${PERIOD}`, { token: t.viewerToken, tenant: t }),
    ];
    expect(viewer.status).toBe(200);
    for (const name of Object.keys(WIDGET_ROUTES)) expect(viewer.body[name].status, name).toBe(200);
    expect(viewer.body.profitLoss.data).toEqual(owner.body.profitLoss.data);
  });

  it("answers 404 for another workspace's id, and shows another workspace only its own books", async () => {
    const r = await h.api('GET', `/dashboard?${PERIOD}`, { token: other.token, tenant: t });
    expect(r.status).toBe(404);
    const own = await h.api('GET', `/dashboard?${PERIOD}`, { tenant: other });
    expect(own.status).toBe(200);
    expect((own.body.topMerchants.data.data as { name: string }[]).map((m) => m.name)).not.toContain('Blue Bottle Coffee');
    // A workspace of someone else named in `workspaces` is refused as every report refuses it (404), not answered.
    const named = await h.api('GET', `/dashboard?${PERIOD}&workspaces=${t.workspaceId}`, { tenant: other });
    expect(named.status, JSON.stringify(named.body).slice(0, 300)).toBe(404);
  });

  it('needs a session', async () => {
    const r = await h.api('GET', `/dashboard?${PERIOD}`);
    expect(r.status).toBe(401);
  });
});
