// The ledger's REST routes through the real gateway: spec §7 paths, §4 restrictions and edit rules, §5
// validation, §8 success messages; another workspace's ids answer 404 and a Viewer's writes 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

let h: LedgerApiHarness;
let t: Tenant;
let other: Tenant;
let checking: string;
let card: string;
const VIEWER_MESSAGE = 'Editing actions are disabled for your account';

interface Cat {
  id: string;
  name: string;
  type: string;
  coaId: number;
  level: number;
  children?: Cat[];
}
const categories = async (tenant: Tenant): Promise<Cat[]> => (await h.api('GET', '/categories', { tenant })).body.categories;
const categoryId = async (tenant: Tenant, name: string) => {
  const c = (await categories(tenant)).find((x) => x.name === name);
  if (!c) throw new Error(`no category ${name}`);
  return c.id;
};

beforeAll(async () => {
  h = await startLedgerHarness();
  t = h.tenant();
  other = h.tenant();
  checking = await t.banking.link();
  card = await t.banking.link({ name: 'Visa', type: 'credit', subtype: 'credit card', mask: '4242' });
  await t.banking.add(checking, { amountCents: 250_000, date: '2026-09-01', name: 'Stripe payout', merchantName: 'Stripe' });
  await t.banking.add(checking, { amountCents: -4_550, date: '2026-09-03', name: 'Blue Bottle Coffee', merchantName: 'Blue Bottle' });
  await t.banking.add(checking, { amountCents: -120_000, date: '2026-09-28', name: 'Office rent September', merchantName: 'WeWork' });
  await t.banking.add(card, { amountCents: -2_999, date: '2026-10-02', name: 'GitHub', merchantName: 'GitHub' });
  await t.banking.add(card, { amountCents: -1_500, date: '2026-10-04', name: 'Coffee beans', merchantName: 'Blue Bottle' });
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -777, date: '2026-09-02', name: 'Foreign' });
  await h.transactions(t, 5);
  await h.transactions(other, 1);
});
afterAll(async () => h?.close());

describe('categories', () => {
  it('GET /categories and /categories/chart-of-accounts: the default chart as a tree with balances', async () => {
    const list = await categories(t);
    for (const name of [
      'Uncategorised Income',
      'Uncategorised Expense',
      'Prepaid Expenses',
      'Deferred Revenue',
      'Retained Earnings',
      'Checking ••1234',
      'Visa ••4242',
    ])
      expect(list.map((c) => c.name)).toContain(name);
    expect(list.every((c) => c.level >= 3 && c.coaId >= 10000)).toBe(true);
    const chart = await h.api('GET', '/categories/chart-of-accounts', { tenant: t });
    expect(chart.status).toBe(200);
    expect(chart.body.chartOfAccounts.map((n: Cat) => n.name).sort()).toEqual(['Assets', 'Equity', 'Expenses', 'Income', 'Liability', 'Transfer']);
    const assets = chart.body.chartOfAccounts.find((n: Cat) => n.name === 'Assets');
    const cash = assets.children.find((n: Cat) => n.name === 'Current Assets').children.find((n: Cat) => n.name === 'Cash and Cash Equivalents');
    expect(cash.children.find((n: Cat) => n.name === 'Checking ••1234')).toMatchObject({ balance: 2500 - 45.5 - 1200, level: 4, type: 'Assets' });
    expect(
      chart.body.chartOfAccounts.find((n: Cat) => n.name === 'Liability').children[0].children.find((n: Cat) => n.name === 'Credit Cards').children[0],
    ).toMatchObject({ name: 'Visa ••4242', balance: 44.99 });
    expect(chart.body.parentCategories.every((c: Cat) => c.level <= 3)).toBe(true);
  });

  it("POST /categories: 'Successfully added'; coaId under 10000, missing fields, another workspace's parent and a Viewer are refused", async () => {
    const parent = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find((c: Cat) => c.name === 'Operating Expenses');
    const ok = await h.api('POST', '/categories', { tenant: t, body: { name: 'Team Offsite', coaId: 61800, parentId: parent.id } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      message: 'Successfully added',
      category: { name: 'Team Offsite', coaId: 61800, type: 'Expenses', level: 3, parentId: parent.id, isUserCreated: true },
    });
    const low = await h.api('POST', '/categories', { tenant: t, body: { name: 'X', coaId: 9999, parentId: parent.id } });
    expect(low.status).toBe(400);
    expect(low.body).toMatchObject({
      message: 'coaId must be minimum 5 digits number',
      errors: [{ field: 'coaId', message: 'coaId must be minimum 5 digits number' }],
    });
    const taken = await h.api('POST', '/categories', { tenant: t, body: { name: 'X', coaId: 61800, parentId: parent.id } });
    expect(taken).toMatchObject({ status: 400, body: { errors: [{ field: 'coaId' }] } });
    const empty = await h.api('POST', '/categories', { tenant: t, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual(['name', 'coaId', 'parentId']);
    const wrongType = await h.api('POST', '/categories', { tenant: t, body: { name: 'X', coaId: 'abc', parentId: parent.id } });
    expect(wrongType).toMatchObject({ status: 400, body: { errors: [{ field: 'coaId' }] } });
    const foreignParent = (await h.api('GET', '/categories/chart-of-accounts', { tenant: other })).body.parentCategories[0].id;
    expect((await h.api('POST', '/categories', { tenant: t, body: { name: 'X', coaId: 61900, parentId: foreignParent } })).status).toBe(404);
    const viewer = await h.api('POST', '/categories', {
      token: t.viewerToken,
      tenant: { ...t, token: t.viewerToken },
      body: { name: 'X', coaId: 61900, parentId: parent.id },
    });
    expect(viewer).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
  });
});

describe('GET /transactions/v2', () => {
  it('lists every bank transaction, booked against Uncategorised Income/Expense, newest first, with data + meta', async () => {
    const r = await h.api('GET', '/transactions/v2', { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ page: 1, take: 20, itemCount: 5, pageCount: 1, hasPreviousPage: false, hasNextPage: false });
    expect(r.body.data.map((x: { dateTime: string }) => x.dateTime)).toEqual(['2026-10-04', '2026-10-02', '2026-09-28', '2026-09-03', '2026-09-01']);
    const payout = r.body.data.find((x: { memo: string; biller: { name: string } }) => x.biller?.name === 'Stripe');
    expect(payout).toMatchObject({
      amount: 2500,
      category: { name: 'Uncategorised Income', type: 'Income' },
      debitAccount: { name: 'Checking ••1234' },
      creditAccount: { name: 'Uncategorised Income' },
      isTransactionFinalized: false,
      accountId: checking,
    });
    const coffee = r.body.data.find((x: { amount: number }) => x.amount === -45.5);
    expect(coffee).toMatchObject({
      category: { name: 'Uncategorised Expense' },
      debitAccount: { name: 'Uncategorised Expense' },
      creditAccount: { name: 'Checking ••1234' },
    });
  });

  it('applies the spec §7 filters', async () => {
    const q = async (query: string) => (await h.api('GET', `/transactions/v2?${query}`, { tenant: t })).body.data.map((x: { amount: number }) => x.amount);
    expect(await q(`accountId=${card}`)).toEqual([-15, -29.99]);
    expect(await q(`accountId=${card},${checking}&order=ASC&take=2`)).toEqual([2500, -45.5]);
    expect(await q('startDate=2026-09-02&endDate=2026-09-30')).toEqual([-1200, -45.5]);
    expect(await q('flow=inflow')).toEqual([2500]);
    expect(await q('flow=outflow&minAmount=20&maxAmount=1000')).toEqual([-29.99, -45.5]);
    expect(await q('amount=29.99')).toEqual([-29.99]);
    expect(await q('description=coffee')).toEqual([-15, -45.5]);
    const billers = (await h.api('GET', '/billers', { tenant: t })).body.billers;
    const blueBottle = billers.find((b: { name: string }) => b.name === 'Blue Bottle');
    expect(await q(`billers=${blueBottle.id}`)).toEqual([-15, -45.5]);
    expect(await q(`categories=${await categoryId(t, 'Uncategorised Income')}`)).toEqual([2500]);
    expect(await q('finalization=finalized')).toEqual([]);
    expect(await q('finalization=nonFinalized&take=1&page=2')).toEqual([-29.99]);
    const paged = await h.api('GET', '/transactions/v2?take=2&page=2', { tenant: t });
    expect(paged.body.meta).toEqual({ page: 2, take: 2, itemCount: 5, pageCount: 3, hasPreviousPage: true, hasNextPage: true });
  });

  it('answers 400 naming the field for bad filters', async () => {
    const bad = async (query: string, field: string, message?: string) => {
      const r = await h.api('GET', `/transactions/v2?${query}`, { tenant: t });
      expect(r.status, query).toBe(400);
      expect(r.body.errors[0].field, query).toBe(field);
      if (message) expect(r.body.message).toBe(message);
    };
    await bad('take=101', 'take', 'take must be between 1 and 100');
    await bad('take=0', 'take');
    await bad('page=0', 'page', 'page must not be less than 1');
    await bad('take=abc', 'take');
    await bad('startDate=2026-13-01', 'startDate', 'Invalid startDate format');
    await bad('endDate=yesterday', 'endDate', 'Invalid endDate format');
    await bad('minAmount=-1', 'minAmount', 'minAmount must not be less than 0');
    await bad('flow=sideways', 'flow');
    await bad('finalization=maybe', 'finalization');
    await bad('accountId=not-a-uuid', 'accountId', 'accountId must be a UUID');
    await bad('order=UP', 'order');
  });

  it("GET /transactions/v2/{id}: the transaction; another workspace's id is 404; a malformed id is 400", async () => {
    const [first] = (await h.transactions(t, 5)).data;
    expect((await h.api('GET', `/transactions/v2/${first.id}`, { tenant: t })).body).toMatchObject({ id: first.id, amount: first.amount });
    expect((await h.api('GET', `/transactions/v2/${first.id}`, { token: t.viewerToken })).status).toBe(200);
    const foreign = (await h.transactions(other, 1)).data[0].id;
    expect((await h.api('GET', `/transactions/v2/${foreign}`, { tenant: t })).body).toMatchObject({ statusCode: 404, message: 'Transaction not found' });
    expect((await h.api('GET', '/transactions/v2/123', { tenant: t })).body).toMatchObject({ statusCode: 400, errors: [{ field: 'id' }] });
  });
});

describe('categorising and finalizing', () => {
  const find = async (amount: number) => (await h.transactions(t, 5)).data.find((x: { amount: number }) => x.amount === amount);

  it("PATCH /transactions/{id}: 'Transaction has been updated successfully.', booked as a reversal and a new entry", async () => {
    const coffee = await find(-45.5);
    const meals = await categoryId(t, 'Meals and Entertainment');
    const r = await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: meals } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Transaction has been updated successfully.',
      transaction: { id: coffee.id, category: { id: meals, name: 'Meals and Entertainment' }, debitAccount: { id: meals } },
    });
    expect(r.body.transaction.debitJournalId).not.toBe(coffee.debitJournalId);
    const entries = await h.ledger.db.adminDb('journal_entries').where({ transaction_id: coffee.id }).orderBy('seq');
    expect(entries.map((e: { reverses_entry_id: string | null }) => e.reverses_entry_id)).toEqual([null, entries[0].id, null]);
    const lines = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${meals}`, { tenant: t });
    expect(lines.body.data.at(-1)).toMatchObject({ debit: 45.5, credit: 0, ledgerAmount: 45.5, ledgerRunningBalance: 45.5, counterAccount: 'Checking ••1234' });
  });

  it("refuses bad input (400 naming the field), another workspace's ids (404) and a Viewer (403)", async () => {
    const coffee = await find(-45.5);
    const missing = await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: {} });
    expect(missing.body).toMatchObject({ statusCode: 400, errors: [{ field: 'categoryId', message: 'categoryId is required' }] });
    expect((await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: 'x' } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'categoryId', message: 'categoryId must be a UUID' }],
    });
    const group = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find((c: Cat) => c.name === 'Operating Expenses');
    expect((await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: group.id } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'categoryId' }],
    });
    const foreignTxn = (await h.transactions(other, 1)).data[0];
    const foreignCategory = await categoryId(other, 'Travel');
    expect((await h.api('PATCH', `/transactions/${foreignTxn.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Travel') } })).status).toBe(404);
    expect((await h.api('PATCH', `/transactions/${coffee.id}`, { tenant: t, body: { categoryId: foreignCategory } })).body).toMatchObject({
      statusCode: 404,
      message: 'Category not found',
    });
    expect(
      (await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: foreignTxn.id, categoryId: await categoryId(t, 'Travel') }] } })).status,
    ).toBe(404);
    expect((await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [foreignTxn.id] } })).status).toBe(404);
    const viewer = { ...t, token: t.viewerToken };
    for (const [method, path, body] of [
      ['PATCH', `/transactions/${coffee.id}`, { categoryId: await categoryId(t, 'Travel') }],
      ['PATCH', '/transactions', { transactions: [{ id: coffee.id, isTxnFinalized: true }] }],
      ['POST', '/transactions/finalize', { transactionIds: [coffee.id] }],
      ['PATCH', `/billers/${coffee.biller.id}`, { categoryId: await categoryId(t, 'Travel') }],
    ] as const) {
      expect(await h.api(method, path, { tenant: viewer, body }), path).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    }
    expect((await find(-45.5)).category.name).toBe('Meals and Entertainment');
  });

  it("PATCH /transactions (bulk): 'Transactions have been updated successfully.'; at least one; all or none", async () => {
    const empty = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [] } });
    expect(empty.body).toMatchObject({ statusCode: 400, message: 'transactions cannot be empty', errors: [{ field: 'transactions' }] });
    expect((await h.api('PATCH', '/transactions', { tenant: t, body: {} })).status).toBe(400);
    expect((await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ categoryId: await categoryId(t, 'Travel') }] } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactions.0.id' }],
    });
    const github = await find(-29.99);
    const beans = await find(-15);
    const software = await categoryId(t, 'Software and Subscriptions');
    const ok = await h.api('PATCH', '/transactions', {
      tenant: t,
      body: {
        transactions: [
          { id: github.id, categoryId: software, billerName: 'GitHub Inc' },
          { id: beans.id, categoryId: await categoryId(t, 'Office Supplies'), isTxnFinalized: true },
        ],
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Transactions have been updated successfully.');
    const byId = new Map(ok.body.transactions.map((x: { id: string }) => [x.id, x]));
    expect(byId.get(github.id)).toMatchObject({
      category: { name: 'Software and Subscriptions' },
      biller: { name: 'GitHub Inc' },
      isTransactionFinalized: false,
    });
    expect(byId.get(beans.id)).toMatchObject({ category: { name: 'Office Supplies' }, isTransactionFinalized: true });
    // One item refused (finalized): nothing of the request is applied.
    const travel = await categoryId(t, 'Travel');
    const refused = await h.api('PATCH', '/transactions', {
      tenant: t,
      body: {
        transactions: [
          { id: github.id, categoryId: travel },
          { id: beans.id, categoryId: travel },
        ],
      },
    });
    expect(refused.body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'TRANSACTION_FINALIZED',
      message: 'This transaction is finalized. Un-finalize it before editing',
    });
    expect((await find(-29.99)).category.name).toBe('Software and Subscriptions');
    // Un-finalize and edit in one item.
    const again = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: beans.id, categoryId: travel, isTxnFinalized: false }] } });
    expect(again.body.transactions[0]).toMatchObject({ category: { name: 'Travel' }, isTransactionFinalized: false });
  });

  it('POST /transactions/finalize finalizes and un-finalizes; a finalized transaction cannot be categorised (spec §4)', async () => {
    const rent = await find(-1200);
    const fin = await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [rent.id] } });
    expect(fin.body).toMatchObject({ message: 'Transactions have been updated successfully.', transactions: [{ id: rent.id, isTransactionFinalized: true }] });
    expect((await h.api('GET', '/transactions/v2?finalization=finalized', { tenant: t })).body.data.map((x: { id: string }) => x.id)).toEqual([rent.id]);
    const refused = await h.api('PATCH', `/transactions/${rent.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Rent') } });
    expect(refused).toMatchObject({
      status: 409,
      body: { message: 'This transaction is finalized. Un-finalize it before editing', appErrorCode: 'TRANSACTION_FINALIZED' },
    });
    expect((await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [] } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactionIds' }],
    });
    const unfin = await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [rent.id], isTxnFinalized: false } });
    expect(unfin.body.transactions[0].isTransactionFinalized).toBe(false);
    expect((await h.api('PATCH', `/transactions/${rent.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Rent') } })).status).toBe(200);
  });

  it('a Transfer transaction cannot be edited; a finalized Transfer answers the finalized rule first (spec §4 order)', async () => {
    const payout = await find(2500);
    const internal = await categoryId(t, 'Internal Transfers');
    expect((await h.api('PATCH', `/transactions/${payout.id}`, { tenant: t, body: { categoryId: internal } })).status).toBe(200);
    const refused = await h.api('PATCH', `/transactions/${payout.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Sales') } });
    expect(refused).toMatchObject({
      status: 409,
      body: { message: 'Transfer transactions cannot be edited. Unpair the transfer first.', appErrorCode: 'TRANSACTION_TRANSFER' },
    });
    await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [payout.id] } });
    const first = await h.api('PATCH', `/transactions/${payout.id}`, { tenant: t, body: { categoryId: await categoryId(t, 'Sales') } });
    expect(first.body.appErrorCode).toBe('TRANSACTION_FINALIZED');
  });
});

describe('billers', () => {
  it("GET /billers and PATCH /billers/{id}: 'Category updated successfully.', applied to the biller's open transactions only", async () => {
    const billers = (await h.api('GET', '/billers', { tenant: t })).body.billers;
    expect(billers.map((b: { name: string }) => b.name)).toEqual(['Blue Bottle', 'GitHub', 'GitHub Inc', 'Stripe', 'WeWork']);
    const blueBottle = billers.find((b: { name: string }) => b.name === 'Blue Bottle');
    const beans = (await h.transactions(t, 5)).data.find((x: { amount: number }) => x.amount === -15);
    await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [beans.id] } });
    const meals = await categoryId(t, 'Meals and Entertainment');
    const office = await categoryId(t, 'Office Supplies');
    const r = await h.api('PATCH', `/billers/${blueBottle.id}`, { tenant: t, body: { categoryId: office } });
    expect(r.body).toMatchObject({ message: 'Category updated successfully.', biller: { id: blueBottle.id, categoryId: office }, updatedTransactions: 1 });
    const list = (await h.api('GET', `/transactions/v2?billers=${blueBottle.id}`, { tenant: t })).body.data;
    expect(list.map((x: { category: { id: string } }) => x.category.id).sort()).toEqual([office, await categoryId(t, 'Travel')].sort());
    // A person chose the biller's category: the transactions it re-booked are creation mode manual; the finalized one is untouched.
    expect(list.find((x: { id: string }) => x.id !== beans.id)).toMatchObject({ category: { id: office }, creationMode: 'manual' });
    expect(list.find((x: { id: string }) => x.id === beans.id)).toMatchObject({ creationMode: beans.creationMode });
    expect(meals).not.toBe(office);
    // A new transaction of the biller is booked to its category.
    await t.banking.add(checking, { amountCents: -900, date: '2026-10-10', name: 'Blue Bottle again', merchantName: 'Blue Bottle' });
    const fresh = (await h.transactions(t, 6)).data.find((x: { amount: number }) => x.amount === -9);
    expect(fresh.category.id).toBe(office);
    const foreign = (await h.api('GET', '/billers', { tenant: other })).body.billers[0];
    expect((await h.api('PATCH', `/billers/${foreign.id}`, { tenant: t, body: { categoryId: office } })).status).toBe(404);
    expect((await h.api('PATCH', `/billers/${blueBottle.id}`, { tenant: t, body: {} })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'categoryId' }],
    });
  });
});

describe('general ledger', () => {
  it('GET /ledger/get-general-ledger: opening, debits, credits and closing per account for the period; the books balance', async () => {
    const r = await h.api('GET', '/ledger/get-general-ledger?startDate=2026-10-01&endDate=2026-10-31', { tenant: t });
    expect(r.status).toBe(200);
    const checkingRow = r.body.data.find((a: { name: string }) => a.name === 'Checking ••1234');
    expect(checkingRow).toMatchObject({ openingBalance: 2500 - 45.5 - 1200, debit: 0, credit: 9, closingBalance: 2500 - 45.5 - 1200 - 9 });
    const all = (await h.api('GET', '/ledger/get-general-ledger', { tenant: t })).body.data;
    const debits = all.reduce((s: number, a: { debit: number }) => s + Math.round(a.debit * 100), 0);
    const credits = all.reduce((s: number, a: { credit: number }) => s + Math.round(a.credit * 100), 0);
    expect(debits).toBe(credits);
    expect((await h.api('GET', '/ledger/get-general-ledger?startDate=2026-10-31&endDate=2026-10-01', { tenant: t })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'startDate' }],
    });
  });

  it("GET /ledger/get-ledger-transactions: an opening-balance row, running balances, pages; 404 for another workspace's account", async () => {
    const ledgerAccountId = (await categories(t)).find((c) => c.name === 'Checking ••1234')?.id;
    const url = (page: number) =>
      `/ledger/get-ledger-transactions?ledgerAccountId=${ledgerAccountId}&startDate=2026-09-02&endDate=2026-12-31&take=3&page=${page}`;
    const page1 = await h.api('GET', url(1), { tenant: t });
    expect(page1.status).toBe(200);
    // A bank account's ledger is its register (issue #12): a re-categorised transaction's original entry and
    // its reversal (same date) are not shown, its new entry is.
    const lineCount = (
      await h.ledger.db.adminDb.raw(
        `select l.id from journal_lines l join journal_entries e on e.id = l.entry_id where l.account_id = ? and l.entry_date >= '2026-09-02'
         and not exists (select 1 from journal_entries r where r.reverses_entry_id = e.id and r.entry_date = e.entry_date)
         and not exists (select 1 from journal_entries o where o.id = e.reverses_entry_id and o.entry_date = e.entry_date)`,
        [ledgerAccountId as string],
      )
    ).rows.length;
    expect(page1.body.meta).toMatchObject({ page: 1, take: 3, itemCount: lineCount, pageCount: Math.ceil(lineCount / 3) });
    expect(page1.body.data[0]).toMatchObject({ isOpeningBalance: true, ledgerRunningBalance: 2500, dateTime: '2026-09-02', description: 'Opening balance' });
    expect(page1.body.openingBalance).toBe(2500);
    const lines = page1.body.data.slice(1);
    for (let page = 2; page <= page1.body.meta.pageCount; page++) {
      const next = await h.api('GET', url(page), { tenant: t });
      expect(next.body.data.every((l: { isOpeningBalance: boolean }) => !l.isOpeningBalance)).toBe(true);
      lines.push(...next.body.data);
    }
    expect(lines.length).toBe(lineCount);
    let running = 250_000;
    for (const l of lines) {
      running += Math.round(l.ledgerAmount * 100);
      expect(Math.round(l.ledgerRunningBalance * 100)).toBe(running);
      expect(l.ledgerAmount).toBe(l.debit - l.credit);
    }
    const dates = lines.map((l: { dateTime: string }) => l.dateTime);
    expect(dates).toEqual([...dates].sort());
    const gl = (await h.api('GET', '/ledger/get-general-ledger?startDate=2026-09-02&endDate=2026-12-31', { tenant: t })).body.data.find(
      (a: { ledgerAccountId: string }) => a.ledgerAccountId === ledgerAccountId,
    );
    expect(Math.round(gl.closingBalance * 100)).toBe(running);
    const foreign = (await categories(other))[0]?.id;
    expect((await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${foreign}`, { tenant: t })).body).toMatchObject({
      statusCode: 404,
      message: 'Ledger account not found',
    });
    expect((await h.api('GET', '/ledger/get-ledger-transactions', { tenant: t })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'ledgerAccountId' }],
    });
  });

  it('GET /ledger/export: an hledger or beancount journal as an attachment; another format is 400', async () => {
    const r = await h.api('GET', '/ledger/export?format=hledger', { tenant: t });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/attachment; filename="ledgerline-\d{4}-\d{2}-\d{2}\.journal"/);
    expect(r.body).toContain('Assets:Current Assets:Cash and Cash Equivalents:Checking ••1234');
    const b = await h.api('GET', '/ledger/export?format=beancount', { token: t.viewerToken });
    expect(b.status).toBe(200);
    expect(b.body).toContain('open Assets:Current-Assets-11000:Cash-And-Cash-Equivalents-11100');
    expect((await h.api('GET', '/ledger/export?format=csv', { tenant: t })).body).toMatchObject({ statusCode: 400, errors: [{ field: 'format' }] });
  });
});

describe('categories: groups and tags, update, move, delete', () => {
  it("GET /categories/groups-and-tags; PATCH /categories/update: 'Category updated successfully.'", async () => {
    const parent = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find((c: Cat) => c.name === 'Operating Expenses');
    const created = (await h.api('POST', '/categories', { tenant: t, body: { name: 'Snacks', coaId: 62100, parentId: parent.id, tag: 'team' } })).body.category;
    const gt = await h.api('GET', '/categories/groups-and-tags', { tenant: t });
    expect(gt.body.groups).toEqual(expect.arrayContaining(['Current Assets', 'Operating Expenses']));
    expect(gt.body.tags).toEqual(['team']);
    expect((await h.api('GET', '/categories/groups-and-tags?groupsAndTagsType=tags', { tenant: t })).body).toEqual({ groups: [], tags: ['team'] });
    expect((await h.api('GET', '/categories/groups-and-tags?groupsAndTagsType=x', { tenant: t })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'groupsAndTagsType' }],
    });
    const upd = await h.api('PATCH', '/categories/update', { tenant: t, body: { id: created.id, name: 'Team Snacks', coaId: 62200, tag: 'people' } });
    expect(upd.body).toMatchObject({ message: 'Category updated successfully.', category: { name: 'Team Snacks', coaId: 62200, tag: 'people' } });
    expect((await h.api('PATCH', '/categories/update', { tenant: t, body: { id: created.id, coaId: 100 } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'coaId', message: 'coaId must be minimum 5 digits number' }],
    });
    const foreign = (await categories(other))[0]?.id;
    expect((await h.api('PATCH', '/categories/update', { tenant: t, body: { id: foreign, name: 'Mine' } })).status).toBe(404);
    expect((await h.api('PATCH', '/categories/update', { tenant: { ...t, token: t.viewerToken }, body: { id: created.id, name: 'V' } })).body).toMatchObject({
      statusCode: 403,
      message: VIEWER_MESSAGE,
    });
  });

  it('PATCH /categories/move: within its category type only, never under itself, at most four levels', async () => {
    const chart = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories as Cat[];
    const opex = chart.find((c) => c.name === 'Operating Expenses') as Cat;
    const otherExp = chart.find((c) => c.name === 'Other Expenses') as Cat;
    const revenue = chart.find((c) => c.name === 'Operating Income') as Cat;
    const cat = (await h.api('POST', '/categories', { tenant: t, body: { name: 'Conferences', coaId: 62300, parentId: opex.id } })).body.category;
    const sub = (await h.api('POST', '/categories', { tenant: t, body: { name: 'Tickets', coaId: 62310, parentId: cat.id } })).body.category;
    expect(sub.level).toBe(4);
    const moved = await h.api('PATCH', '/categories/move', { tenant: t, body: { categoryId: cat.id, parentId: otherExp.id } });
    expect(moved.body).toMatchObject({ message: 'Category updated successfully.', category: { parentId: otherExp.id, level: 3 } });
    expect((await h.api('PATCH', '/categories/move', { tenant: t, body: { categoryId: cat.id, parentId: revenue.id } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'CATEGORY_MOVE_CLASS',
    });
    expect((await h.api('PATCH', '/categories/move', { tenant: t, body: { categoryId: cat.id, parentId: sub.id } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'CATEGORY_MOVE_CYCLE',
    });
    const travel = (await categories(t)).find((c) => c.name === 'Travel') as Cat;
    expect((await h.api('PATCH', '/categories/move', { tenant: t, body: { categoryId: cat.id, parentId: travel.id } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'CATEGORY_MOVE_DEPTH',
    });
    expect((await h.api('PATCH', '/categories/move', { tenant: t, body: { categoryId: cat.id } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'parentId' }],
    });
  });

  it("DELETE /categories/delete: 'Successfully removed the chart of account'; refused for an account with lines, sub-categories or a ledger purpose", async () => {
    const opex = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find((c: Cat) => c.name === 'Operating Expenses');
    const a = (await h.api('POST', '/categories', { tenant: t, body: { name: 'Temp A', coaId: 62400, parentId: opex.id } })).body.category;
    const b = (await h.api('POST', '/categories', { tenant: t, body: { name: 'Temp B', coaId: 62410, parentId: a.id } })).body.category;
    expect((await h.api('DELETE', '/categories/delete', { tenant: t, body: { categoryIds: [a.id] } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'CATEGORY_HAS_CHILDREN',
    });
    const withLines = (await categories(t)).find((c) => c.name === 'Meals and Entertainment') as Cat;
    expect((await h.api('DELETE', '/categories/delete', { tenant: t, body: { categoryIds: [withLines.id] } })).body).toMatchObject({
      statusCode: 409,
      message: 'This account has transactions and cannot be removed',
    });
    const uncategorised = (await categories(t)).find((c) => c.name === 'Uncategorised Expense') as Cat;
    expect((await h.api('DELETE', '/categories/delete', { tenant: t, body: { categoryIds: [uncategorised.id] } })).body).toMatchObject({
      statusCode: 409,
      appErrorCode: 'CATEGORY_SYSTEM',
    });
    expect((await h.api('DELETE', '/categories/delete', { tenant: t, body: { categoryIds: [] } })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'categoryIds', message: 'categoryIds cannot be empty' }],
    });
    expect((await h.api('DELETE', '/categories/delete', { tenant: { ...t, token: t.viewerToken }, body: { categoryIds: [b.id] } })).status).toBe(403);
    expect((await h.api('DELETE', '/categories/delete', { tenant: other, body: { categoryIds: [b.id] } })).status).toBe(404);
    const ok = await h.api('DELETE', `/categories/delete?categoryIds=${b.id},${a.id}`, { tenant: t });
    expect(ok).toMatchObject({ status: 200, body: { message: 'Successfully removed the chart of account' } });
    expect((await categories(t)).some((c) => c.id === a.id || c.id === b.id)).toBe(false);
  });
});

describe('splits', () => {
  const lunchOf = async () => (await h.api('GET', '/transactions/v2?description=Team%20lunch', { tenant: t })).body.data[0];

  it("POST /transactions/split: 'Transaction has been split successfully.'; one entry with a category line per part; parts add up within 0.01", async () => {
    await t.banking.add(checking, { amountCents: -10_000, date: '2026-11-01', name: 'Team lunch', merchantName: 'Nopa' });
    const lunch = await expectLunch();
    const meals = await categoryId(t, 'Meals and Entertainment');
    const travel = await categoryId(t, 'Travel');
    const office = await categoryId(t, 'Office Supplies');
    const off = await h.api('POST', '/transactions/split', {
      tenant: t,
      body: { parentTransaction: { id: lunch.id, amount: 60, categoryId: meals }, splitTransactions: [{ amount: 30, categoryId: travel }] },
    });
    expect(off.body).toMatchObject({
      statusCode: 400,
      message: 'Split amounts must add up to the transaction amount',
      errors: [{ field: 'splitTransactions' }],
    });
    expect(
      (
        await h.api('POST', '/transactions/split', {
          tenant: t,
          body: { parentTransaction: { id: lunch.id, amount: 60, categoryId: meals }, splitTransactions: [] },
        })
      ).body,
    ).toMatchObject({ statusCode: 400, errors: [{ field: 'splitTransactions', message: 'splitTransactions cannot be empty' }] });
    expect(
      (
        await h.api('POST', '/transactions/split', {
          tenant: t,
          body: { parentTransaction: { id: lunch.id, amount: 60, categoryId: meals }, splitTransactions: [{ amount: 0, categoryId: travel }] },
        })
      ).body,
    ).toMatchObject({ statusCode: 400, errors: [{ field: 'splitTransactions.0.amount' }] });
    expect(
      (
        await h.api('POST', '/transactions/split', {
          tenant: { ...t, token: t.viewerToken },
          body: { parentTransaction: { id: lunch.id, amount: 60, categoryId: meals }, splitTransactions: [{ amount: 40, categoryId: travel }] },
        })
      ).status,
    ).toBe(403);
    const foreign = (await h.transactions(other, 1)).data[0];
    expect(
      (
        await h.api('POST', '/transactions/split', {
          tenant: t,
          body: { parentTransaction: { id: foreign.id, amount: 5, categoryId: meals }, splitTransactions: [{ amount: 2.77, categoryId: travel }] },
        })
      ).status,
    ).toBe(404);

    const ok = await h.api('POST', '/transactions/split', {
      tenant: t,
      body: {
        parentTransaction: { id: lunch.id, amount: 50, categoryId: meals },
        splitTransactions: [
          { amount: 29.99, categoryId: travel },
          { amount: 20, categoryId: office },
        ],
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      message: 'Transaction has been split successfully.',
      transaction: { id: lunch.id, isSplittedParent: true, amount: -100, category: { id: meals } },
    });
    expect(ok.body.transaction.splittedChildren.map((c: { amount: number; categoryName: string }) => [c.amount, c.categoryName])).toEqual([
      [-29.99, 'Travel'],
      [-20, 'Office Supplies'],
    ]);
    const lines = await h.ledger.db.adminDb('journal_lines').where({ entry_id: ok.body.transaction.debitJournalId }).orderBy('id');
    // The parent's part absorbs the cent of difference: 50.01 + 29.99 + 20 = 100.
    expect(lines.map((l: { direction: string; amount_cents: number }) => [l.direction, l.amount_cents])).toEqual([
      ['credit', 10_000],
      ['debit', 5_001],
      ['debit', 2_999],
      ['debit', 2_000],
    ]);
    const refused = await h.api('PATCH', `/transactions/${lunch.id}`, { tenant: t, body: { categoryId: travel } });
    expect(refused.body).toMatchObject({ statusCode: 409, appErrorCode: 'TRANSACTION_SPLIT', message: 'This transaction is split. Edit its split instead' });
    expect(
      (
        await h.api('POST', '/transactions/split', {
          tenant: t,
          body: { parentTransaction: { id: lunch.id, amount: 50, categoryId: meals }, splitTransactions: [{ amount: 50, categoryId: travel }] },
        })
      ).body.appErrorCode,
    ).toBe('TRANSACTION_SPLIT');
  });

  it("POST /transactions/update-split: change, add and delete parts ('Transaction has been updated successfully.'); none left un-splits", async () => {
    const lunch = await lunchOf();
    const [travelPart, officePart] = lunch.splittedChildren;
    const meals = await categoryId(t, 'Meals and Entertainment');
    const rent = await categoryId(t, 'Rent');
    const upd = await h.api('POST', '/transactions/update-split', {
      tenant: t,
      body: {
        parentTransaction: { id: lunch.id, amount: 40, categoryId: meals },
        updateTransactions: [{ id: travelPart.id, amount: 35, categoryId: travelPart.categoryId }],
        splitTransactions: [{ amount: 25, categoryId: rent }],
        deleteTransactionIds: [officePart.id],
      },
    });
    expect(upd.body.message).toBe('Transaction has been updated successfully.');
    expect(upd.body.transaction.splittedChildren.map((c: { amount: number; categoryName: string }) => [c.amount, c.categoryName])).toEqual([
      [-35, 'Travel'],
      [-25, 'Rent'],
    ]);
    expect(
      (
        await h.api('POST', '/transactions/update-split', {
          tenant: t,
          body: { parentTransaction: { id: lunch.id, amount: 40, categoryId: meals }, deleteTransactionIds: [lunch.id] },
        })
      ).status,
    ).toBe(404);
    const whole = await h.api('POST', '/transactions/update-split', {
      tenant: t,
      body: {
        parentTransaction: { id: lunch.id, amount: 100, categoryId: meals },
        deleteTransactionIds: upd.body.transaction.splittedChildren.map((c: { id: string }) => c.id),
      },
    });
    expect(whole.body.transaction).toMatchObject({ isSplittedParent: false, splittedChildren: [], category: { id: meals } });
    expect(
      (await h.api('POST', '/transactions/update-split', { tenant: t, body: { parentTransaction: { id: lunch.id, amount: 100, categoryId: meals } } })).body,
    ).toMatchObject({ statusCode: 409, appErrorCode: 'TRANSACTION_NOT_SPLIT' });
    const [trial] = (
      await h.ledger.db.adminDb.raw(
        "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ?",
        [t.workspaceId],
      )
    ).rows;
    expect(trial.s).toBe(0);
  });

  async function expectLunch() {
    return (await h.transactions(t, 1, 'description=Team%20lunch')).data[0];
  }
});

describe('GET /transactions/audit-logs', () => {
  it("lists who changed what, newest first; filters by transaction; 404 for another workspace's transaction", async () => {
    const lunch = (await h.api('GET', '/transactions/v2?description=Team%20lunch', { tenant: t })).body.data[0];
    const r = await h.api('GET', `/transactions/audit-logs?transactionId=${lunch.id}`, { token: t.viewerToken });
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: { event: string }) => a.event)).toEqual(['unsplit', 'split_updated', 'split', 'imported']);
    expect(r.body.data[3]).toMatchObject({ userId: null, details: { amountCents: -10_000, date: '2026-11-01' } });
    expect(r.body.data[2].userId).toEqual(expect.any(String));
    expect(r.body.meta).toMatchObject({ page: 1, take: 20, itemCount: 4 });
    const all = await h.api('GET', '/transactions/audit-logs?take=100', { tenant: t });
    const events = new Set(all.body.data.map((a: { event: string }) => a.event));
    for (const e of ['imported', 'categorised', 'finalized', 'unfinalized', 'biller_changed', 'split']) expect(events.has(e), e).toBe(true);
    const foreign = (await h.transactions(other, 1)).data[0];
    expect((await h.api('GET', `/transactions/audit-logs?transactionId=${foreign.id}`, { tenant: t })).status).toBe(404);
    expect((await h.api('GET', '/transactions/audit-logs?transactionId=x', { tenant: t })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactionId' }],
    });
    expect((await h.ledger.db.adminDb.raw('select count(*)::int as n from transaction_audit_logs where workspace_id = ?', [other.workspaceId])).rows[0].n).toBe(
      1,
    );
  });
});

describe('transfers', () => {
  it('a transfer between two linked accounts is paired by the ledger; the list and detail show the pair; review and paired filters', async () => {
    const w = h.tenant();
    const chk = await w.banking.link({ name: 'Checking', mask: '0001' });
    const sav = await w.banking.link({ name: 'Savings', type: 'depository', subtype: 'savings', mask: '0002' });
    await w.banking.add(chk, { amountCents: -50_000, date: '2026-09-10', name: 'Online transfer to SAV 0002' });
    await w.banking.add(sav, { amountCents: 50_000, date: '2026-09-11', name: 'Online transfer from CHK 0001' });
    await w.banking.add(chk, { amountCents: -1_234, date: '2026-09-12', name: 'Hardware store' });
    await h.transactions(w, 3);
    const paired = await expectEventuallyPaired(w, 2);
    const out = paired.find((x: { amount: number }) => x.amount === -500);
    const into = paired.find((x: { amount: number }) => x.amount === 500);
    expect(out).toMatchObject({
      transferStatus: 'paired',
      category: { name: 'Internal Transfers', type: 'Transfer' },
      transferPair: { id: into.id, accountId: sav, accountName: 'Savings ••0002', amount: 500, dateTime: '2026-09-11', name: 'Online transfer from CHK 0001' },
    });
    expect((await h.api('GET', `/transactions/v2/${into.id}`, { tenant: w })).body).toMatchObject({
      transferStatus: 'paired',
      transferPair: { id: out.id, amount: -500 },
    });
    const plain = (await h.api('GET', '/transactions/v2?description=Hardware', { tenant: w })).body.data[0];
    expect(plain).toMatchObject({ transferStatus: null, transferPair: null });
    expect((await h.api('GET', '/transactions/v2?transferStatus=review', { tenant: w })).body.data).toEqual([]);
    expect((await h.api('GET', '/transactions/v2?transferStatus=nope', { tenant: w })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transferStatus', message: 'transferStatus must be one of: review, paired' }],
    });
  });

  it('GET /transactions/transfer-candidates, POST /transactions/pair-transfer and /unpair-transfer: 400 per field, 404 across workspaces, Viewer 403', async () => {
    const w = h.tenant();
    const chk = await w.banking.link({ name: 'Checking', mask: '0011' });
    const visa = await w.banking.link({ name: 'Visa', type: 'credit', subtype: 'credit card', mask: '0012' });
    // A card refund and a checking debit of the same amount: no keyword, no card-payment shape, so not paired.
    await w.banking.add(chk, { amountCents: 7_700, date: '2026-09-10', name: 'Deposit' });
    await w.banking.add(visa, { amountCents: -7_700, date: '2026-09-12', name: 'Cash advance' });
    await w.banking.add(chk, { amountCents: 8_800, date: '2026-09-20', name: 'Deposit' });
    const all = (await h.transactions(w, 3)).data as { id: string; amount: number }[];
    const dep = all.find((x) => x.amount === 77) as { id: string };
    const adv = all.find((x) => x.amount === -77) as { id: string };
    const other8800 = all.find((x) => x.amount === 88) as { id: string };
    const foreign = (await h.transactions(other, 1)).data[0].id;

    const cands = await h.api('GET', `/transactions/transfer-candidates?transactionId=${dep.id}`, { tenant: w });
    expect(cands.status).toBe(200);
    expect(cands.body.data).toEqual([
      { id: adv.id, amount: -77, dateTime: '2026-09-12', accountId: visa, accountName: 'Visa ••0012', name: 'Cash advance', score: expect.any(Number) },
    ]);
    expect(cands.body.data[0].score).toBeLessThan(60);
    expect((await h.api('GET', `/transactions/transfer-candidates?transactionId=${dep.id}`, { token: w.viewerToken })).status).toBe(200);
    expect((await h.api('GET', '/transactions/transfer-candidates', { tenant: w })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactionId', message: 'transactionId is required' }],
    });
    expect((await h.api('GET', '/transactions/transfer-candidates?transactionId=12', { tenant: w })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'transactionId' }],
    });
    expect((await h.api('GET', `/transactions/transfer-candidates?transactionId=${foreign}`, { tenant: w })).body).toMatchObject({
      statusCode: 404,
      message: 'Transaction not found',
    });

    const pair = (body: unknown, tenant = w) => h.api('POST', '/transactions/pair-transfer', { tenant, body });
    expect((await pair({})).body).toMatchObject({ statusCode: 400, errors: [{ field: 'transactionId' }, { field: 'counterpartTransactionId' }] });
    expect((await pair({ transactionId: dep.id, counterpartTransactionId: 'x' })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'counterpartTransactionId', message: 'counterpartTransactionId must be a UUID' }],
    });
    expect((await pair({ transactionId: dep.id, counterpartTransactionId: other8800.id })).body).toMatchObject({
      statusCode: 400,
      errors: [{ field: 'counterpartTransactionId', message: 'counterpartTransactionId must have the opposite amount of the transaction' }],
    });
    expect((await pair({ transactionId: dep.id, counterpartTransactionId: foreign })).body).toMatchObject({ statusCode: 404 });
    const viewer = await h.api('POST', '/transactions/pair-transfer', {
      token: w.viewerToken,
      tenant: { ...w, token: w.viewerToken },
      body: { transactionId: dep.id, counterpartTransactionId: adv.id },
    });
    expect(viewer).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    // Nothing changed by the refusals.
    expect((await h.api('GET', `/transactions/v2/${dep.id}`, { tenant: w })).body).toMatchObject({
      transferPair: null,
      category: { name: 'Uncategorised Income' },
    });

    const ok = await pair({ transactionId: dep.id, counterpartTransactionId: adv.id });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      message: 'Transfer has been paired.',
      seq: expect.any(Number),
      transactions: [
        { id: dep.id, transferStatus: 'paired', category: { name: 'Credit Card Payments' } },
        { id: adv.id, transferPair: { id: dep.id } },
      ],
    });
    expect((await h.api('PATCH', `/transactions/${dep.id}`, { tenant: w, body: { categoryId: await categoryId(w, 'Sales') } })).body).toMatchObject({
      statusCode: 409,
      message: 'Transfer transactions cannot be edited. Unpair the transfer first.',
    });

    const unpair = (body: unknown, tenant = w) => h.api('POST', '/transactions/unpair-transfer', { tenant, body });
    expect((await unpair({})).body).toMatchObject({ statusCode: 400, errors: [{ field: 'transactionId', message: 'transactionId is required' }] });
    expect((await unpair({ transactionId: foreign })).body).toMatchObject({ statusCode: 404 });
    expect(
      (await h.api('POST', '/transactions/unpair-transfer', { token: w.viewerToken, tenant: { ...w, token: w.viewerToken }, body: { transactionId: dep.id } }))
        .status,
    ).toBe(403);
    const un = await unpair({ transactionId: adv.id });
    expect(un.body).toMatchObject({
      message: 'Transfer has been unpaired.',
      transactions: [
        { id: adv.id, transferPair: null, transferStatus: null, category: { name: 'Uncategorised Expense' } },
        { id: dep.id, category: { name: 'Uncategorised Income' } },
      ],
    });
    expect((await unpair({ transactionId: adv.id })).body).toMatchObject({ statusCode: 409, appErrorCode: 'TRANSACTION_NOT_TRANSFER' });
    // Dismissed: no longer offered.
    expect((await h.api('GET', `/transactions/transfer-candidates?transactionId=${dep.id}`, { tenant: w })).body.data).toEqual([]);
  });
});

async function expectEventuallyPaired(w: Tenant, n: number) {
  for (let i = 0; i < 100; i++) {
    const data = (await h.api('GET', '/transactions/v2?transferStatus=paired', { tenant: w })).body.data;
    if (data.length === n) return data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not paired');
}

describe('amounts: USD with 2 decimals (spec §9), more are refused naming the field, never rounded', () => {
  const entries = async () =>
    (await h.ledger.db.adminDb.raw('select count(*)::int as n from journal_entries where workspace_id = ?', [t.workspaceId])).rows[0].n as number;
  const refused = (r: { status: number; body: unknown }, field: string) => {
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      statusCode: 400,
      appErrorCode: 'INVALID_INPUT',
      errors: expect.arrayContaining([{ field, message: `${field} must have at most 2 decimal places` }]),
    });
  };

  it('in the list filters amount, minAmount and maxAmount (GET /transactions/v2 and its CSV export)', async () => {
    for (const field of ['amount', 'minAmount', 'maxAmount']) {
      refused(await h.api('GET', `/transactions/v2?${field}=10.005`, { tenant: t }), field);
      refused(await h.api('GET', `/transactions/csv?${field}=0.001`, { tenant: t }), field);
      expect((await h.api('GET', `/transactions/v2?${field}=45.5`, { tenant: t })).status).toBe(200);
    }
    // 45.50 finds the 45.50 coffee (no rounding trick: 45.499 is refused, not rounded to it).
    expect((await h.api('GET', '/transactions/v2?amount=45.50', { tenant: t })).body.data.map((x: { amount: number }) => x.amount)).toEqual([-45.5]);
    refused(await h.api('GET', '/transactions/v2?amount=45.499', { tenant: t }), 'amount');
  });

  it('in split, update-split, update-accrual and opening-balance bodies; nothing is booked', async () => {
    const before = await entries();
    const txn = (await h.api('GET', '/transactions/v2?description=GitHub', { tenant: t })).body.data[0];
    const travel = await categoryId(t, 'Travel');
    refused(
      await h.api('POST', '/transactions/split', {
        tenant: t,
        body: { parentTransaction: { id: txn.id, amount: 19.995, categoryId: travel }, splitTransactions: [{ amount: 10, categoryId: travel }] },
      }),
      'parentTransaction.amount',
    );
    refused(
      await h.api('POST', '/transactions/split', {
        tenant: t,
        body: {
          parentTransaction: { id: txn.id, amount: 19.99, categoryId: travel },
          splitTransactions: [
            { amount: 5, categoryId: travel },
            { amount: 5.001, categoryId: travel },
          ],
        },
      }),
      'splitTransactions.1.amount',
    );
    refused(
      await h.api('POST', '/transactions/update-split', {
        tenant: t,
        body: { parentTransaction: { id: txn.id, amount: 20, categoryId: travel }, updateTransactions: [{ id: txn.id, amount: 1.239, categoryId: travel }] },
      }),
      'updateTransactions.0.amount',
    );
    refused(
      await h.api('POST', '/transactions/update-split', {
        tenant: t,
        body: { parentTransaction: { id: txn.id, amount: 20, categoryId: travel }, splitTransactions: [{ amount: 9.999, categoryId: travel }] },
      }),
      'splitTransactions.0.amount',
    );
    refused(
      await h.api('PATCH', '/transactions/update-accrual', {
        tenant: t,
        body: {
          transactionId: txn.id,
          updatedAccrualChildren: [
            { id: txn.id, amount: 10 },
            { id: txn.id, amount: 1.005 },
          ],
        },
      }),
      'updatedAccrualChildren.1.amount',
    );
    const capital = await categoryId(t, 'Common Stock');
    refused(
      await h.api('PUT', `/categories/${capital}/opening-balance`, { tenant: t, body: { openingBalance: 1000.001, openingBalanceDate: '2026-01-01' } }),
      'openingBalance',
    );
    expect(await entries()).toBe(before);
    // Two decimals go through (and to the cent).
    const ok = await h.api('PUT', `/categories/${capital}/opening-balance`, { tenant: t, body: { openingBalance: 1000.07, openingBalanceDate: '2026-01-01' } });
    expect(ok.body.openingBalance).toMatchObject({ openingBalance: 1000.07 });
    expect((await h.api('DELETE', `/categories/${capital}/opening-balance`, { tenant: t })).status).toBe(200);
  });
});

describe('chart changes answer their seq; the fiscal year', () => {
  it('POST, PATCH update and move, DELETE and the fiscal year change each answer a fresh seq, carried by chart.changed in the outbox', async () => {
    const opex = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find((c: Cat) => c.name === 'Operating Expenses');
    const otherExp = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories.find((c: Cat) => c.name === 'Other Expenses');
    const created = await h.api('POST', '/categories', { tenant: t, body: { name: 'Seq check', coaId: 61_990, parentId: opex.id } });
    const id = created.body.category.id;
    const updated = await h.api('PATCH', '/categories/update', { tenant: t, body: { id, tag: 'seq' } });
    const moved = await h.api('PATCH', '/categories/move', { tenant: t, body: { categoryId: id, parentId: otherExp.id } });
    const deleted = await h.api('DELETE', '/categories/delete', { tenant: t, body: { categoryIds: [id] } });
    const fiscal = await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: { fiscalYearStartMonth: 1 } });
    const seqs = [created, updated, moved, deleted, fiscal].map((r) => r.body.seq as number);
    expect(seqs.every((s) => Number.isInteger(s) && s > 0)).toBe(true);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(5);
    const outbox = (await h.ledger.db.adminDb.raw("select count(*)::int as n from outbox where workspace_id = ? and type = 'chart.changed'", [t.workspaceId]))
      .rows[0].n;
    expect(outbox).toBeGreaterThanOrEqual(5);
    expect(created.body.category).toMatchObject({ systemKey: null });
  });

  it('GET and PATCH /categories/fiscal-year: 1–12 (400 naming fiscalYearStartMonth otherwise), Admin+; the chart answers it and Retained Earnings by its system key', async () => {
    expect((await h.api('GET', '/categories/fiscal-year', { token: t.viewerToken, tenant: t })).body).toEqual({ fiscalYearStartMonth: 1 });
    for (const bad of [0, 13, 6.5, '7']) {
      const r = await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: { fiscalYearStartMonth: bad } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].field).toBe('fiscalYearStartMonth');
    }
    expect((await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: {} })).body.errors[0].field).toBe('fiscalYearStartMonth');
    expect((await h.api('PATCH', '/categories/fiscal-year', { tenant: { ...t, token: t.viewerToken }, body: { fiscalYearStartMonth: 7 } })).status).toBe(403);
    const ok = await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: { fiscalYearStartMonth: 7 } });
    expect(ok.body).toMatchObject({ fiscalYearStartMonth: 7, seq: expect.any(Number) });
    const chart = await h.api('GET', '/categories/chart-of-accounts?endDate=2026-12-31', { tenant: t });
    expect(chart.body.fiscalYearStartMonth).toBe(7);
    expect((await h.api('GET', '/categories/fiscal-year', { tenant: other })).body.fiscalYearStartMonth).toBe(1);
    const flat = (nodes: (Cat & { systemKey: string | null })[]): (Cat & { systemKey: string | null })[] =>
      nodes.flatMap((n) => [n, ...flat((n.children ?? []) as never)]);
    expect(flat(chart.body.chartOfAccounts).find((c) => c.name === 'Retained Earnings')?.systemKey).toBe('retained_earnings');
    await h.api('PATCH', '/categories/fiscal-year', { tenant: t, body: { fiscalYearStartMonth: 1 } });
  });
});
