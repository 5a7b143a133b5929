// Accruals through the real gateway (spec §3 "Accrual", §4 restrictions and lifecycle, §7 paths, §8
// 'Transaction has been accrued successfully.'): validation names the field, another workspace's ids
// answer 404, a Viewer's writes 403. Dates are relative to today: the schedule says what is recognised
// as of today, and a stop drops the months after today.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

let h: LedgerApiHarness;
let t: Tenant;
let other: Tenant;
let checking: string;
const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
const today = new Date().toISOString().slice(0, 10);

/** The first day of the month `n` months from today's. */
function monthFrom(n: number): string {
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}
const lastDayOf = (n: number) => new Date(new Date(`${monthFrom(n + 1)}T00:00:00Z`).getTime() - 86_400_000).toISOString().slice(0, 10);
// Twelve months: three before this one, this one and eight after.
const START = monthFrom(-3);
const END = lastDayOf(8);

interface Txn {
  id: string;
  amount: number;
  memo: string;
  category: { id: string; name: string };
  isAccruedParent: boolean;
}
interface Child {
  id: string;
  accrualAmount: number;
  accrualDateTime: string;
  isTransactionAdded: boolean;
  runningBalance: number;
  accrualCategory: string;
  journalEntryId?: string;
}

const categoryId = async (tenant: Tenant, name: string): Promise<string> => {
  const c = (await h.api('GET', '/categories', { tenant })).body.categories.find((x: { name: string }) => x.name === name);
  if (!c) throw new Error(`no category ${name}`);
  return c.id;
};
const txn = async (tenant: Tenant, amount: number): Promise<Txn> => {
  const r = await h.api('GET', '/transactions/v2?take=100', { tenant });
  const found = r.body.data.find((x: Txn) => x.amount === amount);
  if (!found) throw new Error(`no transaction of ${amount}`);
  return found;
};
/** An account's balance in its normal direction as of a date (the chart of accounts' balances). */
const balanceOf = async (name: string, endDate = ''): Promise<number> => {
  const r = await h.api('GET', `/categories${endDate ? `/chart-of-accounts?endDate=${endDate}` : ''}`, { tenant: t });
  const flat = (nodes: { name: string; balance: number; children?: unknown[] }[]): { name: string; balance: number }[] =>
    nodes.flatMap((n) => [n, ...flat((n.children ?? []) as typeof nodes)]);
  const found = flat(endDate ? r.body.chartOfAccounts : r.body.categories).find((c) => c.name === name);
  if (!found) throw new Error(`no account ${name}`);
  return found.balance;
};
const viewer = () => ({ tenant: { ...t, token: t.viewerToken } });

beforeAll(async () => {
  h = await startLedgerHarness();
  t = h.tenant();
  other = h.tenant();
  checking = await t.banking.link();
  await t.banking.add(checking, { amountCents: -120_000, date: START, name: 'Annual SaaS licence', merchantName: 'SaaS Co' });
  await t.banking.add(checking, { amountCents: 60_000, date: START, name: 'Customer pays a year ahead', merchantName: 'Customer' });
  await t.banking.add(checking, { amountCents: -30_000, date: START, name: 'Insurance', merchantName: 'Insurer' });
  await t.banking.add(checking, { amountCents: -9_000, date: START, name: 'Conference', merchantName: 'Events' });
  await t.banking.add(checking, { amountCents: -5_000, date: START, name: 'To savings', merchantName: 'Savings' });
  await t.banking.add(checking, { amountCents: -2_400, date: START, name: 'Domain names', merchantName: 'Registrar' });
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -1_200, date: START, name: 'Foreign' });
  await h.transactions(t, 6);
  await h.transactions(other, 1);
});
afterAll(async () => h?.close());

describe('POST /transactions/create-accrual', () => {
  it("books the payment to Prepaid Expenses and recognises 100.00 a month into Software: 'Transaction has been accrued successfully.'", async () => {
    const saas = await txn(t, -1200);
    const software = await categoryId(t, 'Software and Subscriptions');
    const r = await h.api('POST', '/transactions/create-accrual', {
      tenant: t,
      body: { transactionId: saas.id, accrualStartDate: START, accrualEndDate: END, accrualCategory: 'Prepaid Expenses', recogniseCategoryId: software },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Transaction has been accrued successfully.',
      transaction: { id: saas.id, isAccruedParent: true, category: { name: 'Prepaid Expenses' }, debitAccount: { name: 'Prepaid Expenses' } },
    });
    const children: Child[] = r.body.schedule.accruedChildren;
    expect(r.body.schedule).toMatchObject({
      transactionId: saas.id,
      accrualStartDate: START,
      accrualEndDate: END,
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
      recogniseCategoryName: 'Software and Subscriptions',
      accrualStatus: 'active',
      stoppedOn: null,
      amount: 1200,
    });
    expect(children).toHaveLength(12);
    expect(children.map((c) => c.accrualAmount)).toEqual(Array(12).fill(100));
    expect(children.map((c) => c.runningBalance)).toEqual([1100, 1000, 900, 800, 700, 600, 500, 400, 300, 200, 100, 0]);
    expect(children.map((c) => c.accrualDateTime)).toEqual(Array.from({ length: 12 }, (_, i) => lastDayOf(i - 3)));
    expect(children.map((c) => c.isTransactionAdded)).toEqual(children.map((c) => c.accrualDateTime <= today));
    expect(children.every((c) => c.accrualCategory === 'Prepaid Expenses')).toBe(true);
    // The balance sheet as of today holds what is not recognised yet; the books as a whole hold nothing.
    const recognised = children.filter((c) => c.isTransactionAdded).length;
    expect(await balanceOf('Prepaid Expenses', today)).toBe(1200 - 100 * recognised);
    expect(await balanceOf('Software and Subscriptions', today)).toBe(100 * recognised);
    expect(await balanceOf('Prepaid Expenses')).toBe(0);
    expect(await balanceOf('Software and Subscriptions')).toBe(1200);
    expect(await balanceOf('Checking ••1234')).toBe(-1200 + 600 - 300 - 90 - 50 - 24);
    // The transaction itself carries its accrual (spec §3 Transaction: accrualStartDate, accrualEndDate, accruedChildren).
    const detail = (await h.api('GET', `/transactions/v2/${saas.id}`, { tenant: t })).body;
    expect(detail).toMatchObject({ isAccruedParent: true, accrualStartDate: START, accrualEndDate: END, accrualStatus: 'active' });
    expect(detail.accruedChildren).toEqual(children.map(({ journalEntryId: _, ...c }) => c));
    const plain = await txn(t, -300);
    expect(plain).toMatchObject({ accrualStartDate: null, accrualEndDate: null, accrualStatus: null, accruedChildren: [] });
    // The schedule reads back the same (a Viewer may read it), and the trail says who accrued it.
    const schedule = await h.api('GET', `/transactions/accrual-schedule?transactionId=${saas.id}`, viewer());
    expect(schedule.status).toBe(200);
    expect(schedule.body).toEqual(r.body.schedule);
    const logs = await h.api('GET', `/transactions/audit-logs?transactionId=${saas.id}`, { tenant: t });
    expect(logs.body.data[0]).toMatchObject({ event: 'accrued', details: { accrualCategory: 'Prepaid Expenses', months: 12 } });
  });

  it('defers revenue: Deferred Revenue holds the money in until each month earns its share', async () => {
    const prepaid = await txn(t, 600);
    const sales = await categoryId(t, 'Sales');
    // Owner fields in the body have no effect (RELIABILITY 10): the accrual is in the caller's workspace.
    const r = await h.api('POST', '/transactions/create-accrual', {
      tenant: t,
      body: {
        transactionId: prepaid.id,
        accrualStartDate: START,
        accrualEndDate: lastDayOf(-1),
        accrualCategory: 'Deferred Revenue',
        recogniseCategoryId: sales,
        workspaceId: other.workspaceId,
      },
    });
    expect(r.body).toMatchObject({
      message: 'Transaction has been accrued successfully.',
      transaction: { category: { name: 'Deferred Revenue' } },
      schedule: { accrualCategory: 'Deferred Revenue' },
    });
    expect(r.body.schedule.accruedChildren.map((c: Child) => [c.accrualAmount, c.runningBalance, c.isTransactionAdded])).toEqual([
      [200, 400, true],
      [200, 200, true],
      [200, 0, true],
    ]);
    expect(await balanceOf('Deferred Revenue', today)).toBe(0);
    expect(await balanceOf('Sales')).toBe(600);
    expect((await h.ledger.db.adminDb('transaction_accruals').where({ transaction_id: prepaid.id }).first()).workspace_id).toBe(t.workspaceId);
  });

  it('answers 400 naming the field, changing nothing', async () => {
    const insurance = await txn(t, -300);
    const software = await categoryId(t, 'Software and Subscriptions');
    const good = {
      transactionId: insurance.id,
      accrualStartDate: START,
      accrualEndDate: END,
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    };
    const bad = async (body: Record<string, unknown>, field: string, message: string) => {
      const r = await h.api('POST', '/transactions/create-accrual', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0], JSON.stringify(body)).toEqual({ field, message });
      expect(r.body.message).toBe(message);
    };
    const empty = await h.api('POST', '/transactions/create-accrual', { tenant: t, body: {} });
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'transactionId',
      'accrualStartDate',
      'accrualEndDate',
      'accrualCategory',
      'recogniseCategoryId',
    ]);
    expect(empty.body.errors[0].message).toBe('transactionId is required');
    await bad({ ...good, transactionId: 'abc' }, 'transactionId', 'transactionId must be a UUID');
    await bad({ ...good, accrualStartDate: '01/01/2026' }, 'accrualStartDate', 'Invalid accrualStartDate format');
    await bad({ ...good, accrualEndDate: '2026-02-30' }, 'accrualEndDate', 'Invalid accrualEndDate format');
    await bad({ ...good, accrualEndDate: monthFrom(-4) }, 'accrualEndDate', 'accrualEndDate cannot be less than accrualStartDate');
    await bad({ ...good, accrualEndDate: monthFrom(120) }, 'accrualEndDate', 'An accrual can span at most 120 months');
    await bad({ ...good, accrualCategory: 'Accrued Liabilities' }, 'accrualCategory', 'accrualCategory must be one of: Prepaid Expenses, Deferred Revenue');
    await bad(
      { ...good, accrualCategory: 'Deferred Revenue' },
      'accrualCategory',
      'Deferred Revenue applies to money in: this transaction is money out (use Prepaid Expenses)',
    );
    await bad({ ...good, recogniseCategoryId: 'x' }, 'recogniseCategoryId', 'recogniseCategoryId must be a UUID');
    await bad(
      { ...good, recogniseCategoryId: await categoryId(t, 'Checking ••1234') },
      'recogniseCategoryId',
      'recogniseCategoryId cannot be a bank or card account',
    );
    await bad(
      { ...good, recogniseCategoryId: await categoryId(t, 'Prepaid Expenses') },
      'recogniseCategoryId',
      'recogniseCategoryId cannot be an account the ledger keeps itself (Prepaid Expenses, Deferred Revenue, Uncategorised, Retained Earnings...)',
    );
    const group = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find(
      (c: { name: string }) => c.name === 'Operating Expenses',
    );
    await bad(
      { ...good, recogniseCategoryId: group.id },
      'recogniseCategoryId',
      'recogniseCategoryId must be a category or sub-category, not a category type or group',
    );
    const wrongType = await h.api('POST', '/transactions/create-accrual', { tenant: t, body: { ...good, accrualStartDate: 20260101 } });
    expect(wrongType).toMatchObject({ status: 400, body: { errors: [{ field: 'accrualStartDate' }] } });
    expect((await txn(t, -300)).category.name).toBe('Uncategorised Expense');
    expect((await h.api('GET', `/transactions/accrual-schedule?transactionId=${insurance.id}`, { tenant: t })).status).toBe(404);
    // Amounts that cannot be spread: 0.00, and 0.05 over twelve months.
    await t.banking.add(checking, { amountCents: 0, date: START, name: 'Card check', merchantName: 'Verify' });
    await t.banking.add(checking, { amountCents: -5, date: START, name: 'Tiny fee', merchantName: 'Bank' });
    await h.transactions(t, 8);
    await bad({ ...good, transactionId: (await txn(t, 0)).id }, 'transactionId', 'A transaction of 0.00 cannot be accrued');
    await bad(
      { ...good, transactionId: (await txn(t, -0.05)).id },
      'accrualEndDate',
      'The amount is too small to spread over 12 months (at least 0.01 a month)',
    );
  });

  it("another workspace's transaction or category answers 404; a Viewer gets 403", async () => {
    const insurance = await txn(t, -300);
    const software = await categoryId(t, 'Software and Subscriptions');
    const good = {
      transactionId: insurance.id,
      accrualStartDate: START,
      accrualEndDate: END,
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    };
    const foreign = await txn(other, -12);
    const notFound = await h.api('POST', '/transactions/create-accrual', { tenant: t, body: { ...good, transactionId: foreign.id } });
    expect(notFound).toMatchObject({ status: 404, body: { message: 'Transaction not found' } });
    const foreignCategory = await categoryId(other, 'Software and Subscriptions');
    expect((await h.api('POST', '/transactions/create-accrual', { tenant: t, body: { ...good, recogniseCategoryId: foreignCategory } })).body).toMatchObject({
      statusCode: 404,
      message: 'Category not found',
    });
    expect(await h.api('POST', '/transactions/create-accrual', { ...viewer(), body: { ...good, role: 'Owner' } })).toMatchObject({
      status: 403,
      body: { message: VIEWER_MESSAGE },
    });
    expect((await txn(other, -12)).isAccruedParent).toBe(false);
  });

  it('spec §4 restrictions: finalized, Transfer, split and already accrued transactions cannot be accrued; an accrued one cannot be categorised or split', async () => {
    const software = await categoryId(t, 'Software and Subscriptions');
    const body = (id: string) => ({
      transactionId: id,
      accrualStartDate: START,
      accrualEndDate: END,
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    const conference = await txn(t, -90);
    await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [conference.id] } });
    expect(await h.api('POST', '/transactions/create-accrual', { tenant: t, body: body(conference.id) })).toMatchObject({
      status: 409,
      body: { appErrorCode: 'TRANSACTION_FINALIZED', message: 'This transaction is finalized. Un-finalize it before editing' },
    });
    await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [conference.id], isTxnFinalized: false } });
    const savings = await txn(t, -50);
    await h.api('PATCH', `/transactions/${savings.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Internal Transfers') } });
    expect((await h.api('POST', '/transactions/create-accrual', { tenant: t, body: body(savings.id) })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_TRANSFER',
    });
    const split = await h.api('POST', '/transactions/split', {
      tenant: t,
      body: {
        parentTransaction: { id: conference.id, amount: 60, categoryId: await categoryId(t, 'Travel') },
        splitTransactions: [{ amount: 30, categoryId: await categoryId(t, 'Meals and Entertainment') }],
      },
    });
    expect(split.status).toBe(200);
    expect((await h.api('POST', '/transactions/create-accrual', { tenant: t, body: body(conference.id) })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_SPLIT',
    });
    const saas = await txn(t, -1200);
    expect((await h.api('POST', '/transactions/create-accrual', { tenant: t, body: body(saas.id) })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_ACCRUED',
      message: 'This transaction is accrued. Edit or stop its accrual instead',
    });
    expect((await h.api('PATCH', `/transactions/${saas.id}`, { tenant: t, body: { categoryId: software } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_ACCRUED',
    });
    const splitAccrued = await h.api('POST', '/transactions/split', {
      tenant: t,
      body: { parentTransaction: { id: saas.id, amount: 600, categoryId: software }, splitTransactions: [{ amount: 600, categoryId: software }] },
    });
    expect(splitAccrued.body).toMatchObject({ statusCode: 409, appErrorCode: 'TRANSACTION_ACCRUED' });
  });
});

describe('spec §4 order for accruals', () => {
  it('linked to a document first, then finalized, then synced: the first match answers', async () => {
    const insurance = await txn(t, -300);
    const software = await categoryId(t, 'Software and Subscriptions');
    const body = {
      transactionId: insurance.id,
      accrualStartDate: START,
      accrualEndDate: END,
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    };
    // Links and sync states belong to later issues (bills, the accounting package): set them as those will.
    const set = (patch: Record<string, unknown>) => h.ledger.db.adminDb('workspace_transactions').where({ id: insurance.id }).update(patch);
    const code = async () => (await h.api('POST', '/transactions/create-accrual', { tenant: t, body })).body;
    await set({ entity_type: 'Bill', entity_id: insurance.id, is_finalized: true, qbo_synced: true });
    expect(await code()).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_LINKED',
      message: 'This transaction is linked to a bill and cannot be edited here',
    });
    await set({ entity_type: null, entity_id: null });
    expect((await code()).appErrorCode).toBe('TRANSACTION_FINALIZED');
    await set({ is_finalized: false });
    expect(await code()).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_SYNCED',
      message: 'This transaction is synced to the accounting package. Un-sync it before editing',
    });
    await set({ qbo_synced: false });
    expect((await txn(t, -300)).isAccruedParent).toBe(false);
  });
});

describe('PATCH /transactions/update-accrual', () => {
  it("changes month amounts (adding up within 0.01) and the recognise category: 'Transaction has been updated successfully.'", async () => {
    const domains = await txn(t, -24);
    const software = await categoryId(t, 'Software and Subscriptions');
    const created = await h.api('POST', '/transactions/create-accrual', {
      tenant: t,
      body: {
        transactionId: domains.id,
        accrualStartDate: START,
        accrualEndDate: lastDayOf(-1),
        accrualCategory: 'Prepaid Expenses',
        recogniseCategoryId: software,
      },
    });
    const [a, b, c] = created.body.schedule.accruedChildren as Child[];
    expect([a?.accrualAmount, b?.accrualAmount, c?.accrualAmount]).toEqual([8, 8, 8]);
    const r = await h.api('PATCH', '/transactions/update-accrual', {
      tenant: t,
      body: {
        transactionId: domains.id,
        updatedAccrualChildren: [
          { id: a?.id, amount: 4 },
          { id: b?.id, amount: 12 },
          { id: c?.id, amount: 7.99 },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Transaction has been updated successfully.');
    expect(r.body.schedule.accruedChildren.map((x: Child) => [x.id, x.accrualAmount, x.runningBalance])).toEqual([
      [a?.id, 4, 20],
      [b?.id, 12, 8],
      [c?.id, 8, 0],
    ]);
    const office = await categoryId(t, 'Office Supplies');
    const moved = await h.api('PATCH', '/transactions/update-accrual', { tenant: t, body: { transactionId: domains.id, recogniseCategoryId: office } });
    expect(moved.body.schedule).toMatchObject({ recogniseCategoryId: office, recogniseCategoryName: 'Office Supplies' });
    expect(await balanceOf('Office Supplies')).toBe(24);

    const bad = async (body: Record<string, unknown>, status: number, expected: Record<string, unknown>) => {
      const res = await h.api('PATCH', '/transactions/update-accrual', { tenant: t, body: { transactionId: domains.id, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toMatchObject(expected);
    };
    await bad({ updatedAccrualChildren: [{ id: a?.id, amount: 5 }] }, 400, {
      errors: [{ field: 'updatedAccrualChildren', message: 'Accrual amounts must add up to the transaction amount' }],
    });
    await bad({ updatedAccrualChildren: [{ id: a?.id, amount: 0 }] }, 400, {
      errors: [{ field: 'updatedAccrualChildren.0.amount', message: 'updatedAccrualChildren.0.amount must be greater than 0' }],
    });
    await bad({ updatedAccrualChildren: [{ id: a?.id }] }, 400, {
      errors: [{ field: 'updatedAccrualChildren.0.amount', message: 'updatedAccrualChildren.0.amount is required' }],
    });
    await bad({ updatedAccrualChildren: [{ id: domains.id, amount: 1 }] }, 404, {
      errors: [{ field: 'updatedAccrualChildren.0.id', message: 'updatedAccrualChildren.0.id is not a month of this accrual' }],
    });
    await bad({ accrualEndDate: END, updatedAccrualChildren: [{ id: a?.id, amount: 24 }] }, 400, {
      errors: [
        {
          field: 'updatedAccrualChildren',
          message: 'updatedAccrualChildren cannot be combined with new accrual dates: save the dates first, then the amounts',
        },
      ],
    });
    await bad({ accrualStartDate: 'soon' }, 400, { errors: [{ field: 'accrualStartDate', message: 'Invalid accrualStartDate format' }] });
    await bad({ accrualStartDate: monthFrom(1) }, 400, {
      errors: [{ field: 'accrualEndDate', message: 'accrualEndDate cannot be less than accrualStartDate' }],
    });
    await bad({ accrualCategory: 'Deferred Revenue' }, 400, { errors: [{ field: 'accrualCategory' }] });
    await bad({ transactionId: undefined }, 400, { errors: [{ field: 'transactionId', message: 'transactionId is required' }] });
    expect(
      await h.api('PATCH', '/transactions/update-accrual', { ...viewer(), body: { transactionId: domains.id, recogniseCategoryId: software } }),
    ).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    expect((await h.api('PATCH', '/transactions/update-accrual', { tenant: t, body: { transactionId: (await txn(other, -12)).id } })).status).toBe(404);
    // New dates spread the amount again over the new months.
    const spread = await h.api('PATCH', '/transactions/update-accrual', { tenant: t, body: { transactionId: domains.id, accrualEndDate: END } });
    expect(spread.body.schedule.accruedChildren.map((x: Child) => x.accrualAmount)).toEqual(Array(12).fill(2));
    expect(await balanceOf('Office Supplies')).toBe(24);
    expect(await balanceOf('Software and Subscriptions')).toBe(1200);
  });

  it('refuses a transaction that is not accrued, and a finalized accrued one (spec §4 order: finalized first)', async () => {
    const insurance = await txn(t, -300);
    expect((await h.api('PATCH', '/transactions/update-accrual', { tenant: t, body: { transactionId: insurance.id } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_NOT_ACCRUED',
      message: 'This transaction is not accrued',
    });
    const income = await txn(t, 600);
    await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [income.id] } });
    for (const [method, path, body] of [
      ['PATCH', '/transactions/update-accrual', { transactionId: income.id, accrualEndDate: END }],
      ['PATCH', `/transactions/stop-accrual/${income.id}`, undefined],
      ['DELETE', `/transactions/accrual-schedule?transactionId=${income.id}`, undefined],
    ] as const) {
      expect((await h.api(method, path, { tenant: t, body })).body, path).toMatchObject({ statusCode: 409, appErrorCode: 'TRANSACTION_FINALIZED' });
    }
    await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [income.id], isTxnFinalized: false } });
  });
});

describe('PATCH /transactions/stop-accrual/{id}', () => {
  it('keeps the months recognised by today, drops the later ones and recognises what they held today', async () => {
    const saas = await txn(t, -1200);
    expect(await h.api('PATCH', `/transactions/stop-accrual/${saas.id}`, viewer())).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    expect((await h.api('PATCH', `/transactions/stop-accrual/${(await txn(other, -12)).id}`, { tenant: t })).status).toBe(404);
    expect((await h.api('PATCH', '/transactions/stop-accrual/not-a-uuid', { tenant: t })).body).toMatchObject({ statusCode: 400, errors: [{ field: 'id' }] });
    const before: Child[] = (await h.api('GET', `/transactions/accrual-schedule?transactionId=${saas.id}`, { tenant: t })).body.accruedChildren;
    const kept = before.filter((c) => c.accrualDateTime <= today);
    const prepaidBefore = await balanceOf('Prepaid Expenses', today);
    const r = await h.api('PATCH', `/transactions/stop-accrual/${saas.id}`, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Transaction has been updated successfully.',
      transaction: { isAccruedParent: true },
      schedule: { accrualStatus: 'stopped', stoppedOn: today },
    });
    const after: Child[] = r.body.schedule.accruedChildren;
    expect(after.slice(0, kept.length)).toEqual(kept);
    expect(after.slice(kept.length).map((c) => [c.accrualDateTime, c.accrualAmount, c.runningBalance, c.isTransactionAdded])).toEqual([
      [today, 1200 - 100 * kept.length, 0, true],
    ]);
    // This transaction leaves nothing in Prepaid Expenses (the domain names' accrual still runs).
    expect(await balanceOf('Prepaid Expenses', today)).toBeCloseTo(prepaidBefore - (1200 - 100 * kept.length), 2);
    expect(await balanceOf('Software and Subscriptions', today)).toBe(1200);
    expect((await h.api('PATCH', `/transactions/stop-accrual/${saas.id}`, { tenant: t })).body).toMatchObject({
      statusCode: 409,
      message: 'This accrual is already stopped',
    });
    expect((await h.api('PATCH', '/transactions/update-accrual', { tenant: t, body: { transactionId: saas.id, accrualEndDate: END } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'ACCRUAL_STOPPED',
    });
  });
});

describe('GET and DELETE /transactions/accrual-schedule', () => {
  it('GET: 404 for a transaction that is not accrued or of another workspace; 400 without a transactionId', async () => {
    expect((await h.api('GET', `/transactions/accrual-schedule?transactionId=${(await txn(t, -300)).id}`, { tenant: t })).body).toMatchObject({
      statusCode: 404,
      message: 'Accrual not found',
    });
    expect((await h.api('GET', `/transactions/accrual-schedule?transactionId=${(await txn(other, -12)).id}`, { tenant: t })).body).toMatchObject({
      statusCode: 404,
      message: 'Transaction not found',
    });
    expect((await h.api('GET', '/transactions/accrual-schedule', { tenant: t })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactionId', message: 'transactionId is required' }],
    });
  });

  it('DELETE un-accrues: every recognition reversed, the transaction back in its category from before; the bank balance never moved', async () => {
    const saas = await txn(t, -1200);
    const path = `/transactions/accrual-schedule?transactionId=${saas.id}`;
    expect(await h.api('DELETE', path, viewer())).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    expect((await h.api('DELETE', `/transactions/accrual-schedule?transactionId=${(await txn(other, -12)).id}`, { tenant: t })).status).toBe(404);
    expect((await h.api('DELETE', '/transactions/accrual-schedule?transactionId=nope', { tenant: t })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactionId' }],
    });
    const r = await h.api('DELETE', path, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Transaction has been updated successfully.',
      transaction: { id: saas.id, isAccruedParent: false, category: { name: 'Uncategorised Expense' } },
    });
    expect(await balanceOf('Prepaid Expenses')).toBe(0);
    expect(await balanceOf('Software and Subscriptions')).toBe(0);
    expect(await balanceOf('Checking ••1234')).toBeCloseTo(-1200 + 600 - 300 - 90 - 50 - 24 - 0.05, 2);
    expect((await h.api('GET', path, { tenant: t })).status).toBe(404);
    expect((await h.api('DELETE', path, { tenant: t })).body).toMatchObject({ statusCode: 409, appErrorCode: 'TRANSACTION_NOT_ACCRUED' });
    // A plain transaction again: it can be categorised.
    expect((await h.api('PATCH', `/transactions/${saas.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Rent') } })).status).toBe(200);
    const logs = await h.api('GET', `/transactions/audit-logs?transactionId=${saas.id}`, { tenant: t });
    expect(logs.body.data.map((l: { event: string }) => l.event).slice(0, 3)).toEqual(['categorised', 'unaccrued', 'accrual_stopped']);
    const [trial] = (
      await h.ledger.db.adminDb.raw(
        "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ?",
        [t.workspaceId],
      )
    ).rows;
    expect(trial.s).toBe(0);
  });
});
