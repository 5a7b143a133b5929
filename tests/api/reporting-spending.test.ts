// The dashboard's spending and top-merchants cards through the real gateway, fed by the real ledger
// (banking's events → ledger → entry.posted with the merchant → reporting): amounts equal the ledger's
// lines, order ASC/DESC, the spec money types, a merchant changed on a transaction moves its money, 400
// naming the field, Viewers read, another workspace sees nothing of yours, and a rebuild gives the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

let h: ReportingApiHarness;
let t: Tenant;
let other: Tenant;

interface SpendingRow {
  id: string | null;
  name: string;
  coaId: number | null;
  amount: number;
  percentage: number;
}
interface MerchantRow {
  id: string | null;
  name: string;
  totalAmount: number;
  percentage: number;
  transactionCount: number;
}
const cents = (x: number) => Math.round(x * 100);
const PERIOD = 'startDate=2026-01-01&endDate=2026-02-28';

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  other = h.tenant();
  const checking = await t.banking.link();
  const card = await t.banking.link({ name: 'Visa', type: 'credit', subtype: 'credit card', mask: '4242' });
  await t.banking.add(checking, { amountCents: -4_550, date: '2026-01-05', name: 'Blue Bottle Coffee', merchantName: 'Blue Bottle' });
  await t.banking.add(checking, { amountCents: -1_200, date: '2026-01-20', name: 'BLUE BOTTLE #2', merchantName: 'Blue Bottle' });
  await t.banking.add(checking, { amountCents: -120_000, date: '2026-02-01', name: 'Office rent', merchantName: 'WeWork' });
  await t.banking.add(card, { amountCents: -2_999, date: '2026-02-10', name: 'GitHub' });
  await t.banking.add(checking, { amountCents: 250_000, date: '2026-02-15', name: 'Stripe payout', merchantName: 'Stripe' });
  await t.banking.add(checking, { amountCents: -10_000, date: '2026-02-20', name: 'Amazon Web Services', merchantName: 'Amazon' });
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -777, date: '2026-01-02', name: 'Foreign' });
  const txns = (await h.transactions(t, 6)).data as { id: string; dateTime: string; amount: number }[];
  const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[];
  const cat = (name: string) => cats.find((c) => c.name === name)?.id;
  const txn = (amount: number) => txns.find((x) => x.amount === amount)?.id;
  for (const [amount, name] of [
    [-1200, 'Rent'],
    [-29.99, 'Software and Subscriptions'],
    [-100, 'Office Supplies'],
  ] as const) {
    expect((await h.api('PATCH', `/transactions/${txn(amount)}`, { tenant: t, body: { categoryId: cat(name) } })).status).toBe(200);
  }
  expect((await h.api('PATCH', '/categories/update', { tenant: t, body: { id: cat('Software and Subscriptions'), tag: 'web' } })).status).toBe(200);
  // A merchant changed on its own re-books the transaction: its money moves from Amazon to AWS.
  expect((await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: txn(-100), billerName: 'AWS' }] } })).status).toBe(200);
  await h.transactions(other, 1);
  await h.caughtUp(t);
  await h.caughtUp(other);
}, 120_000);
afterAll(async () => h?.close());

const spending = (query: string, tenant: Tenant = t) => h.api('GET', `/financial-data/spending?${query}`, { tenant });
const merchants = (query: string, tenant: Tenant = t) => h.api('GET', `/financial-data/top-merchant?${query}`, { tenant });

describe('GET /financial-data/spending', () => {
  it('money out per expense category, largest first, with shares of the total; ASC reverses', async () => {
    const r = await spending(PERIOD);
    expect(r.status).toBe(200);
    expect(r.body.header).toMatchObject({ startDate: '2026-01-01', endDate: '2026-02-28', moneyType: 'ALL', caughtUp: true });
    expect(r.body.order).toBe('DESC');
    expect(r.body.totalAmount).toBe(1387.49);
    const rows = r.body.data as SpendingRow[];
    expect(rows.map((x) => [x.name, x.amount, x.percentage])).toEqual([
      ['Rent', 1200, 86.49],
      ['Office Supplies', 100, 7.21],
      ['Uncategorised Expense', 57.5, 4.14],
      ['Software and Subscriptions', 29.99, 2.16],
    ]);
    expect(rows.every((x) => typeof x.id === 'string' && typeof x.coaId === 'number' && x.coaId >= 10000)).toBe(true);
    const asc = await spending(`${PERIOD}&order=asc`);
    expect(asc.body.order).toBe('ASC');
    expect((asc.body.data as SpendingRow[]).map((x) => x.name)).toEqual(rows.map((x) => x.name).reverse());
  });

  it("every row equals the ledger's lines of that account over the period, and the total the P&L's Expenses", async () => {
    const rows = (await spending(PERIOD)).body.data as SpendingRow[];
    const gl = (await h.api('GET', `/ledger/get-general-ledger?${PERIOD}`, { tenant: t })).body.data as {
      ledgerAccountId: string;
      type: string;
      debit: number;
      credit: number;
    }[];
    const expenses = gl.filter((a) => a.type === 'Expenses' && (a.debit !== 0 || a.credit !== 0));
    expect(rows.map((x) => x.id).sort()).toEqual(expenses.map((a) => a.ledgerAccountId).sort());
    for (const row of rows) {
      const a = expenses.find((x) => x.ledgerAccountId === row.id)!;
      expect(cents(row.amount), row.name).toBe(cents(a.debit) - cents(a.credit));
    }
    const pl = (await h.api('GET', `/financial-data/profit-loss/v3?${PERIOD}&periodicity=totals_only`, { tenant: t })).body;
    expect((pl.barChart.series as { name: string; data: number[] }[]).find((s) => s.name === 'Expenses')?.data).toEqual([
      (await spending(PERIOD)).body.totalAmount,
    ]);
  });

  it('moneyType: bank transactions are not non-bank, and are unadjusted; tags and a part of a month apply', async () => {
    const nonBank = await spending(`${PERIOD}&moneyType=Non-Bank`);
    expect(nonBank.body.header.moneyType).toBe('non-bank');
    expect([nonBank.body.totalAmount, nonBank.body.data]).toEqual([0, []]);
    const unadjusted = await spending(`${PERIOD}&moneyType=unadjusted`);
    expect(unadjusted.body.header.moneyType).toBe('unadjusted');
    expect(unadjusted.body.data).toEqual((await spending(PERIOD)).body.data);
    const web = await spending(`${PERIOD}&tags=web`);
    expect((web.body.data as SpendingRow[]).map((x) => [x.name, x.amount])).toEqual([['Software and Subscriptions', 29.99]]);
    const lateJanuary = await spending('startDate=2026-01-10&endDate=2026-02-05');
    expect((lateJanuary.body.data as SpendingRow[]).map((x) => [x.name, x.amount])).toEqual([
      ['Rent', 1200],
      ['Uncategorised Expense', 12],
    ]);
  });
});

describe('GET /financial-data/top-merchant', () => {
  it('money out by merchant, largest first, with share and transactions; a merchant changed moves its money', async () => {
    const r = await merchants(PERIOD);
    expect(r.status).toBe(200);
    expect(r.body.totalAmount).toBe(1387.49);
    expect((r.body.data as MerchantRow[]).map((x) => [x.name, x.totalAmount, x.percentage, x.transactionCount])).toEqual([
      ['WeWork', 1200, 86.49, 1],
      ['AWS', 100, 7.21, 1],
      ['Blue Bottle', 57.5, 4.14, 2],
      ['GitHub', 29.99, 2.16, 1],
    ]);
    const billers = (await h.api('GET', '/billers', { tenant: t })).body as unknown;
    const list = (
      Array.isArray(billers) ? billers : ((billers as { data?: unknown[]; billers?: unknown[] }).data ?? (billers as { billers?: unknown[] }).billers ?? [])
    ) as { id: string; name: string }[];
    for (const row of r.body.data as MerchantRow[]) expect(row.id, row.name).toBe(list.find((b) => b.name === row.name)?.id);
    expect((await merchants(`${PERIOD}&moneyType=non-bank`)).body.data).toEqual([]);
    expect((await merchants(`${PERIOD}&moneyType=adjusted`)).body.data).toEqual(r.body.data);
    const january = await merchants('startDate=2026-01-10&endDate=2026-01-31');
    expect((january.body.data as MerchantRow[]).map((x) => [x.name, x.totalAmount, x.transactionCount])).toEqual([['Blue Bottle', 12, 1]]);
  });
});

describe('validation, roles and tenancy', () => {
  it('a bad order, moneyType or date is a 400 naming the field', async () => {
    for (const [path, field] of [
      [`/financial-data/spending?${PERIOD}&order=sideways`, 'order'],
      [`/financial-data/spending?${PERIOD}&moneyType=in`, 'moneyType'],
      [`/financial-data/top-merchant?${PERIOD}&moneyType=both`, 'moneyType'],
      ['/financial-data/top-merchant?startDate=2026-13-01', 'startDate'],
      ['/financial-data/spending?startDate=2026-03-01&endDate=2026-02-01', 'startDate'],
    ] as const) {
      const r = await h.api('GET', path, { tenant: t });
      expect(r.status, path).toBe(400);
      expect(
        (r.body.errors as { field: string }[]).map((e) => e.field),
        path,
      ).toContain(field);
    }
  });

  it('Viewers read both cards', async () => {
    const viewer = { ...t, token: t.viewerToken };
    expect((await spending(PERIOD, viewer)).body.data).toEqual((await spending(PERIOD)).body.data);
    expect((await merchants(PERIOD, viewer)).body.data).toEqual((await merchants(PERIOD)).body.data);
  });

  it('another workspace sees only its own merchants and gets 404 for yours', async () => {
    expect((await merchants(PERIOD, other)).body.data.map((x: MerchantRow) => [x.name, x.totalAmount])).toEqual([['Foreign', 7.77]]);
    expect((await spending(PERIOD, other)).body.totalAmount).toBe(7.77);
    expect((await merchants(PERIOD, { ...other, workspaceId: t.workspaceId })).status).toBe(404);
    expect((await spending(PERIOD, { ...other, workspaceId: t.workspaceId })).status).toBe(404);
  });
});

describe('workspaces (consolidated)', () => {
  it('sums the workspaces the caller belongs to: categories by coaId, merchants by name; any other workspace is 404', async () => {
    // A firm's accountant who reads both workspaces.
    const token = `tok-accountant-${t.workspaceId}`;
    const ws = (id: string) => ({ id, name: 'Books', organizationId: 'org', organizationName: 'Acme', role: 'Viewer', isDefault: id === t.workspaceId });
    h.identity.sessions.set(token, {
      userId: '018f0000-0000-7000-8000-00000000a11c',
      workspaces: [ws(t.workspaceId), ws(other.workspaceId)],
      defaultWorkspaceId: t.workspaceId,
    });
    const both = `${PERIOD}&workspaces=${t.workspaceId},${other.workspaceId.toUpperCase()}`;
    const accountant = { ...t, token };
    const s = await spending(both, accountant);
    expect(s.status).toBe(200);
    expect(s.body.totalAmount).toBe(1395.26);
    expect((s.body.data as SpendingRow[]).map((x) => [x.name, x.amount])).toEqual([
      ['Rent', 1200],
      ['Office Supplies', 100],
      ['Uncategorised Expense', 65.27],
      ['Software and Subscriptions', 29.99],
    ]);
    const m = await merchants(both, accountant);
    expect((m.body.data as MerchantRow[]).map((x) => [x.name, x.totalAmount])).toEqual([
      ['WeWork', 1200],
      ['AWS', 100],
      ['Blue Bottle', 57.5],
      ['GitHub', 29.99],
      ['Foreign', 7.77],
    ]);
    expect(m.body.totalAmount).toBe(1395.26);
    // Only the other workspace, asked from this one.
    expect((await merchants(`${PERIOD}&workspaces=${other.workspaceId}`, accountant)).body.data.map((x: MerchantRow) => x.name)).toEqual(['Foreign']);
    // The owner of one workspace cannot add the other's.
    expect((await spending(both)).status).toBe(404);
    expect((await merchants(`${PERIOD}&workspaces=${other.workspaceId}`)).status).toBe(404);
    const bad = await spending(`${PERIOD}&workspaces=not-a-workspace`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('workspaces');
  });
});

describe('rebuild', () => {
  it("replays the ledger's events into the same spending and merchants (the check covers the merchant tables)", async () => {
    const before = [(await spending(PERIOD)).body.data, (await merchants(PERIOD)).body.data];
    await h.reporting.service.rebuild();
    await h.caughtUp(t);
    expect([(await spending(PERIOD)).body.data, (await merchants(PERIOD)).body.data]).toEqual(before);
  });
});
