// The Accounting API v3 through the official `node-quickbooks` package: create, read, full and sparse update
// (SyncToken), delete and void per entity, validation faults, the query language with paging, and CDC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuickBooksSandbox, type QuickBooksSandbox } from '../src/index.js';
import { call, connect, fault, qboClient, type QuickBooks } from './support.js';

/** Vendors in the paging company (QBO_SANDBOX_TEST_VENDORS for a bigger run). */
const VENDORS = Number(process.env.QBO_SANDBOX_TEST_VENDORS ?? 250);

type Entity = Record<string, unknown> & { Id: string; SyncToken: string };
let sandbox: QuickBooksSandbox;
let qbo: QuickBooks;
let realmId: string;
let clock = Date.parse('2026-03-02T18:00:00Z');

beforeAll(async () => {
  sandbox = await startQuickBooksSandbox({
    port: 0,
    now: () => new Date(clock),
    defaultCompany: { seed: 42, vendors: VENDORS, customers: 20, bills: 60, invoices: 40 },
  });
  const connection = await connect(sandbox);
  realmId = connection.realmId;
  qbo = qboClient(sandbox, connection);
});

afterAll(async () => {
  await sandbox?.close();
});

async function ok<T = Entity>(method: string, ...args: unknown[]): Promise<T> {
  const answer = await call<T>(qbo, method, ...args);
  if (answer.status !== 200) throw new Error(`${method} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A request on the wire, for what node-quickbooks has no method for. */
async function raw(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sandbox.endpoints.v3EndpointBaseUrl}${realmId}/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${qbo.token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function account(name: string): Promise<{ value: string; name: string }> {
  const found = await ok<{ QueryResponse: { Account?: Entity[] } }>('findAccounts', { Name: name });
  const row = found.QueryResponse.Account?.[0];
  if (!row) throw new Error(`no account ${name}`);
  return { value: row.Id, name: String(row.Name) };
}

describe('names and accounts', () => {
  it('Vendor: create, read, sparse and full update with SyncToken, stale SyncToken, duplicate name, deactivate', async () => {
    const created = await ok('createVendor', {
      DisplayName: 'Northwind Paper',
      PrimaryEmailAddr: { Address: 'ap@northwind.example' },
      CompanyName: 'Northwind',
    });
    expect(created).toMatchObject({ DisplayName: 'Northwind Paper', SyncToken: '0', Active: true, Balance: 0, domain: 'QBO' });
    expect(created.MetaData).toMatchObject({ CreateTime: expect.stringMatching(/-08:00$/) });
    expect(await ok('getVendor', created.Id)).toEqual(created);

    const sparse = await ok('updateVendor', { Id: created.Id, SyncToken: '0', sparse: true, CompanyName: 'Northwind LLC' });
    expect(sparse).toMatchObject({
      SyncToken: '1',
      CompanyName: 'Northwind LLC',
      DisplayName: 'Northwind Paper',
      PrimaryEmailAddr: { Address: 'ap@northwind.example' },
    });

    const stale = await call(qbo, 'updateVendor', { Id: created.Id, SyncToken: '0', sparse: true, CompanyName: 'Lost' });
    expect(stale.status).toBe(400);
    expect(fault(stale.body)).toMatchObject({ code: '5010', Message: 'Stale Object Error' });
    expect((await ok('getVendor', created.Id)).CompanyName).toBe('Northwind LLC');

    // A full update clears what it leaves out.
    const full = await ok('updateVendor', { Id: created.Id, SyncToken: '1', sparse: false, DisplayName: 'Northwind Paper Co' });
    expect(full.SyncToken).toBe('2');
    expect(full.CompanyName).toBeUndefined();
    expect(full.PrimaryEmailAddr).toBeUndefined();

    const duplicate = await call(qbo, 'createCustomer', { DisplayName: 'northwind paper co' });
    expect(fault(duplicate.body)).toMatchObject({ code: '6240', Detail: `The name supplied already exists. : Id=${created.Id}` });

    // The old name is free again after the rename.
    expect((await call(qbo, 'createCustomer', { DisplayName: 'Northwind Paper' })).status).toBe(200);

    const inactive = await ok('updateVendor', { Id: created.Id, SyncToken: '2', sparse: true, Active: false });
    expect(inactive.Active).toBe(false);
    const listed = await ok<{ QueryResponse: { Vendor?: Entity[] } }>('findVendors', { DisplayName: 'Northwind Paper Co' });
    expect(listed.QueryResponse.Vendor).toBeUndefined();
    const withInactive = await ok<{ QueryResponse: { Vendor?: Entity[] } }>('findVendors', [
      { field: 'DisplayName', value: 'Northwind Paper Co' },
      { field: 'Active', value: [true, false], operator: 'IN' },
    ]);
    expect(withInactive.QueryResponse.Vendor?.map((v) => v.Id)).toEqual([created.Id]);

    // Names are made inactive, never deleted (node-quickbooks has no deleteVendor; the wire call is refused).
    const refused = await raw('vendor?operation=delete', { Id: created.Id, SyncToken: '3' });
    expect(refused.status).toBe(400);
    expect(fault(refused.body)).toMatchObject({ code: '500', Message: 'Unsupported Operation' });
  });

  it('Customer and Account: create, update, classification from the type, delete refused', async () => {
    const customer = await ok('createCustomer', { GivenName: 'Ada', FamilyName: 'Lovelace', CompanyName: 'Analytical Engines' });
    expect(customer).toMatchObject({ DisplayName: 'Ada Lovelace', FullyQualifiedName: 'Ada Lovelace', Taxable: false, Balance: 0 });
    const renamed = await ok('updateCustomer', { Id: customer.Id, SyncToken: customer.SyncToken, sparse: true, DisplayName: 'Ada L.' });
    expect(renamed).toMatchObject({ DisplayName: 'Ada L.', SyncToken: '1', GivenName: 'Ada' });

    const created = await ok('createAccount', { Name: 'Research Grants', AccountType: 'Other Income' });
    expect(created).toMatchObject({
      Classification: 'Revenue',
      AccountSubType: 'OtherMiscellaneousIncome',
      FullyQualifiedName: 'Research Grants',
      CurrentBalance: 0,
    });
    const updated = await ok('updateAccount', { ...created, Description: 'Grants from foundations' });
    expect(updated).toMatchObject({ Description: 'Grants from foundations', SyncToken: '1' });
    const badType = await call(qbo, 'createAccount', { Name: 'Nope', AccountType: 'Gold' });
    expect(fault(badType.body)?.code).toBe('2010');
    const deleted = await raw('account?operation=delete', { Id: created.Id, SyncToken: '1' });
    expect(fault(deleted.body)?.Detail).toBe('Operation Delete is not supported.');
  });
});

describe('transactions', () => {
  it('Bill: create with account lines, totals, vendor balance, update, delete', async () => {
    const vendor = await ok('createVendor', { DisplayName: 'Bill Test Vendor' });
    const rent = await account('Rent & Lease');
    const payable = await account('Accounts Payable (A/P)');
    const owedBefore = Number((await ok('getAccount', payable.value)).CurrentBalance);
    const bill = await ok('createBill', {
      VendorRef: { value: vendor.Id },
      TxnDate: '2026-02-15',
      Line: [
        { Amount: 1200.5, DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: { value: rent.value } } },
        { Amount: 99.5, Description: 'Parking', DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: rent } },
      ],
    });
    expect(bill).toMatchObject({
      TotalAmt: 1300,
      Balance: 1300,
      TxnDate: '2026-02-15',
      DueDate: '2026-02-15',
      VendorRef: { value: vendor.Id, name: 'Bill Test Vendor' },
    });
    expect(bill.Line).toMatchObject([
      { Id: '1', LineNum: 1, Amount: 1200.5, AccountBasedExpenseLineDetail: { AccountRef: { value: rent.value, name: 'Rent & Lease' } } },
      { Id: '2', Description: 'Parking' },
    ]);
    expect(bill.APAccountRef).toMatchObject({ name: 'Accounts Payable (A/P)' });
    expect((await ok('getVendor', vendor.Id)).Balance).toBe(1300);
    // Balance-sheet accounts carry the posting (A/P owes 1,300.00 more); expense accounts answer 0, as in QBO.
    expect(Number((await ok('getAccount', payable.value)).CurrentBalance)).toBeCloseTo(owedBefore + 1300, 2);
    expect((await ok('getAccount', rent.value)).CurrentBalance).toBe(0);

    const updated = await ok('updateBill', { Id: bill.Id, SyncToken: bill.SyncToken, sparse: true, Line: [(bill.Line as unknown[])[0]] });
    expect(updated).toMatchObject({ TotalAmt: 1200.5, SyncToken: '1' });

    const deleted = await ok<{ Bill: Record<string, unknown> }>('deleteBill', { Id: bill.Id, SyncToken: '1' });
    expect(deleted.Bill).toEqual({ status: 'Deleted', domain: 'QBO', Id: bill.Id });
    expect((await call(qbo, 'getBill', bill.Id)).status).toBe(400);
    expect((await ok('getVendor', vendor.Id)).Balance).toBe(0);
  });

  it('Invoice: sales lines with the default item, subtotal line, doc number, void, delete by id', async () => {
    const customer = await ok('createCustomer', { DisplayName: 'Invoice Test Customer' });
    const invoice = await ok('createInvoice', {
      CustomerRef: { value: customer.Id },
      TxnDate: '2026-02-01',
      Line: [
        { Amount: 300, DetailType: 'SalesItemLineDetail', SalesItemLineDetail: { Qty: 2, UnitPrice: 150 } },
        { Amount: 50, DetailType: 'SalesItemLineDetail', SalesItemLineDetail: { ItemRef: { value: '1' } } },
      ],
    });
    expect(invoice).toMatchObject({ TotalAmt: 350, Balance: 350, DueDate: '2026-03-03', DocNumber: expect.stringMatching(/^\d+$/) });
    const lines = invoice.Line as Array<Record<string, unknown>>;
    expect(lines.at(-1)).toEqual({ Amount: 350, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} });
    expect(lines[0]).toMatchObject({ SalesItemLineDetail: { ItemRef: { value: '1', name: 'Services' }, Qty: 2, UnitPrice: 150 } });
    expect((await ok('getCustomer', customer.Id)).Balance).toBe(350);

    const mismatch = await call(qbo, 'createInvoice', {
      CustomerRef: { value: customer.Id },
      Line: [{ Amount: 10, DetailType: 'SalesItemLineDetail', SalesItemLineDetail: { Qty: 2, UnitPrice: 4 } }],
    });
    expect(fault(mismatch.body)?.code).toBe('6070');

    // node-quickbooks answers void with the whole response ({ Invoice, time }).
    const { Invoice: voided } = await ok<{ Invoice: Entity }>('voidInvoice', { Id: invoice.Id, SyncToken: invoice.SyncToken });
    expect(voided).toMatchObject({ TotalAmt: 0, Balance: 0, PrivateNote: 'Voided', SyncToken: '1' });
    expect((await ok('getCustomer', customer.Id)).Balance).toBe(0);

    // Void through a sparse update with include=void (node-quickbooks' `void: true`) works as well.
    const second = await ok('createInvoice', {
      CustomerRef: { value: customer.Id },
      Line: [{ Amount: 75, DetailType: 'SalesItemLineDetail', SalesItemLineDetail: {} }],
    });
    const voidedByUpdate = await ok('updateInvoice', { Id: second.Id, SyncToken: second.SyncToken, void: true });
    expect(voidedByUpdate).toMatchObject({ TotalAmt: 0, PrivateNote: 'Voided' });

    // node-quickbooks deletes by id: it reads the invoice first, then posts it with operation=delete.
    const deleted = await call<{ Invoice: { status: string } }>(qbo, 'deleteInvoice', invoice.Id);
    expect(deleted.body.Invoice.status).toBe('Deleted');
  });

  it('JournalEntry: balanced lines with an entity; an unbalanced entry is refused', async () => {
    const vendor = await ok('createVendor', { DisplayName: 'Journal Vendor' });
    const insurance = await account('Insurance');
    const prepaid = await account('Prepaid Expenses');
    const entry = await ok('createJournalEntry', {
      TxnDate: '2026-01-31',
      DocNumber: 'ADJ-1',
      Line: [
        {
          Amount: 250.25,
          DetailType: 'JournalEntryLineDetail',
          JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: insurance, Entity: { Type: 'Vendor', EntityRef: { value: vendor.Id } } },
        },
        { Amount: 250.25, DetailType: 'JournalEntryLineDetail', JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: prepaid } },
      ],
    });
    expect(entry).toMatchObject({ TotalAmt: 250.25, Adjustment: false, DocNumber: 'ADJ-1' });
    expect((entry.Line as Array<Record<string, unknown>>)[0]).toMatchObject({
      JournalEntryLineDetail: { Entity: { Type: 'Vendor', EntityRef: { value: vendor.Id, name: 'Journal Vendor' } } },
    });

    const unbalanced = await call(qbo, 'createJournalEntry', {
      Line: [
        { Amount: 10, DetailType: 'JournalEntryLineDetail', JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: insurance } },
        { Amount: 9.99, DetailType: 'JournalEntryLineDetail', JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: prepaid } },
      ],
    });
    expect(unbalanced.status).toBe(400);
    expect(fault(unbalanced.body)).toMatchObject({ code: '6000', Detail: expect.stringContaining('balanced') });

    const updated = await ok('updateJournalEntry', { ...entry, PrivateNote: 'Monthly insurance' });
    expect(updated).toMatchObject({ PrivateNote: 'Monthly insurance', SyncToken: '1', TotalAmt: 250.25 });
    expect((await ok<{ JournalEntry: { status: string } }>('deleteJournalEntry', { Id: entry.Id, SyncToken: '1' })).JournalEntry.status).toBe('Deleted');
  });

  it('Purchase and Deposit: the paying / receiving account must be of the right kind', async () => {
    const card = await account('Company Credit Card');
    const checking = await account('Checking');
    const travel = await account('Travel');
    const services = await account('Services');
    const purchase = await ok('createPurchase', {
      PaymentType: 'CreditCard',
      AccountRef: card,
      Line: [{ Amount: 420.1, DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: travel } }],
    });
    expect(purchase).toMatchObject({ TotalAmt: 420.1, PaymentType: 'CreditCard', AccountRef: { value: card.value, name: 'Company Credit Card' } });
    const wrong = await call(qbo, 'createPurchase', { PaymentType: 'Check', AccountRef: card, Line: purchase.Line });
    expect(fault(wrong.body)?.code).toBe('6000');
    const sparse = await ok('updatePurchase', { Id: purchase.Id, SyncToken: '0', sparse: true, PrivateNote: 'Flight to NYC' });
    expect(sparse).toMatchObject({ PrivateNote: 'Flight to NYC', TotalAmt: 420.1 });
    expect((await ok<{ Purchase: { status: string } }>('deletePurchase', { Id: purchase.Id, SyncToken: '1' })).Purchase.status).toBe('Deleted');

    const deposit = await ok('createDeposit', {
      DepositToAccountRef: checking,
      TxnDate: '2026-02-20',
      DocNumber: 'DEP-0001',
      Line: [
        { Amount: 5000, DetailType: 'DepositLineDetail', DepositLineDetail: { AccountRef: services } },
        { Amount: 12.34, DetailType: 'DepositLineDetail', DepositLineDetail: { AccountRef: await account('Interest Earned') } },
      ],
    });
    expect(deposit).toMatchObject({ TotalAmt: 5012.34, DepositToAccountRef: { value: checking.value }, DocNumber: 'DEP-0001' });
    // A deposit is found by its DocNumber (what a sync retried after a crash looks for).
    const byDoc = await ok<{ QueryResponse: { Deposit?: Array<{ Id: string }> } }>('findDeposits', [{ field: 'DocNumber', value: 'DEP-0001', operator: '=' }]);
    expect(byDoc.QueryResponse.Deposit?.map((d) => d.Id)).toEqual([deposit.Id]);
    const checkingAfter = Number((await ok('getAccount', checking.value)).CurrentBalance);
    const toExpense = await call(qbo, 'createDeposit', { DepositToAccountRef: travel, Line: deposit.Line });
    expect(fault(toExpense.body)?.code).toBe('6000');
    expect((await ok<{ Deposit: { status: string } }>('deleteDeposit', deposit.Id)).Deposit.status).toBe('Deleted');
    expect(Number((await ok('getAccount', checking.value)).CurrentBalance)).toBeCloseTo(checkingAfter - 5012.34, 2);
  });
});

describe('bad input answers a validation fault naming the field, and changes nothing', () => {
  const cases: Array<[string, string, Record<string, unknown>, string, string]> = [
    ['missing VendorRef', 'createBill', { Line: [] }, '2020', 'VendorRef'],
    ['NUL byte in a name', 'createVendor', { DisplayName: 'Bad\u0000Name' }, '2010', 'DisplayName'],
    ['over-long name', 'createVendor', { DisplayName: 'x'.repeat(501) }, '2050', 'DisplayName'],
    ['wrong type', 'createVendor', { DisplayName: 12 }, '2010', 'DisplayName'],
    ['unknown account', 'createPurchase', { PaymentType: 'Cash', AccountRef: { value: '99999' }, Line: [] }, '610', 'AccountRef'],
    ['Line not an array', 'createJournalEntry', { Line: 'x' }, '2010', 'Line'],
  ];
  it.each(cases)('%s', async (_name, method, body, code, field) => {
    const before = sandbox.getCompany(realmId).counts;
    const answer = await call(qbo, method, body);
    expect(answer.status).toBe(400);
    expect(fault(answer.body)?.code).toBe(code);
    expect(JSON.stringify(fault(answer.body))).toContain(field);
    expect(sandbox.getCompany(realmId).counts).toEqual(before);
  });

  it('malformed JSON, an over-large body, an unknown resource', async () => {
    const before = sandbox.getCompany(realmId).counts;
    const post = (path: string, body: string) =>
      fetch(`${sandbox.endpoints.v3EndpointBaseUrl}${realmId}/${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${qbo.token}`, 'Content-Type': 'application/json' },
        body,
      });
    const malformed = await post('vendor', '{"DisplayName": ');
    expect(malformed.status).toBe(400);
    expect(fault(await malformed.json())?.code).toBe('2010');
    const large = await post('vendor', JSON.stringify({ DisplayName: 'Big', Notes: 'x'.repeat(1_100_000) }));
    expect(large.status).toBe(400);
    const array = await post('vendor', '[]');
    expect(array.status).toBe(400);
    const unknown = await post('timetravel', '{}');
    expect(unknown.status).toBe(404);
    expect(fault(await unknown.json())).toBeDefined();
    expect(sandbox.getCompany(realmId).counts).toEqual(before);
  });

  it('a huge amount, three decimals, an impossible date', async () => {
    const rent = await account('Rent & Lease');
    const vendor = (await ok<{ QueryResponse: { Vendor: Entity[] } }>('findVendors', { limit: 1 })).QueryResponse.Vendor[0]!;
    const line = (amount: unknown) => [{ Amount: amount, DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: rent } }];
    for (const [body, field] of [
      [{ VendorRef: { value: vendor.Id }, Line: line(1e20) }, 'Line[0].Amount'],
      [{ VendorRef: { value: vendor.Id }, Line: line(1.005) }, 'Line[0].Amount'],
      [{ VendorRef: { value: vendor.Id }, Line: line(10), TxnDate: '2026-02-30' }, 'TxnDate'],
    ] as const) {
      const answer = await call(qbo, 'createBill', body);
      expect(answer.status).toBe(400);
      expect(fault(answer.body)?.Detail).toContain(field);
    }
  });
});

describe('query', () => {
  it('pages vendors with startposition / maxresults, counts, and fetchAll gets every one exactly once', async () => {
    const count = await ok<{ QueryResponse: { totalCount: number } }>('findVendors', { count: true });
    const total = count.QueryResponse.totalCount;
    expect(total).toBeGreaterThanOrEqual(VENDORS);

    const seen: string[] = [];
    for (let start = 1; ; start += 100) {
      const page = await ok<{ QueryResponse: { Vendor?: Entity[]; startPosition?: number; maxResults?: number } }>('findVendors', {
        limit: 100,
        offset: start,
      });
      const rows = page.QueryResponse.Vendor ?? [];
      if (rows.length === 0) break;
      expect(page.QueryResponse).toMatchObject({ startPosition: start, maxResults: rows.length });
      seen.push(...rows.map((r) => r.Id));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);

    const all = await ok<{ QueryResponse: { Vendor: Entity[] } }>('findVendors', { fetchAll: true, limit: 100 });
    expect(all.QueryResponse.Vendor.map((v) => v.Id)).toEqual(seen);
  });

  it('WHERE on simple fields, LIKE, IN, references, dates, ORDER BY', async () => {
    const bills = (await ok<{ QueryResponse: { Bill: Entity[] } }>('findBills', { limit: 1000 })).QueryResponse.Bill;
    const vendorId = (bills[0]!.VendorRef as { value: string }).value;
    const byVendor = await ok<{ QueryResponse: { Bill: Entity[] } }>('findBills', { VendorRef: vendorId });
    expect(byVendor.QueryResponse.Bill.map((b) => b.Id)).toEqual(bills.filter((b) => (b.VendorRef as { value: string }).value === vendorId).map((b) => b.Id));

    const cut = '2026-01-01';
    const since = await ok<{ QueryResponse: { Bill?: Entity[] } }>('findBills', [
      { field: 'TxnDate', value: cut, operator: '>=' },
      { field: 'asc', value: 'TxnDate' },
    ]);
    const expected = bills.filter((b) => String(b.TxnDate) >= cut);
    expect(since.QueryResponse.Bill?.length ?? 0).toBe(expected.length);
    const dates = (since.QueryResponse.Bill ?? []).map((b) => String(b.TxnDate));
    expect(dates).toEqual([...dates].sort());

    const desc = await ok<{ QueryResponse: { Bill: Entity[] } }>('findBills', { desc: 'TotalAmt', limit: 5 });
    const amounts = desc.QueryResponse.Bill.map((b) => Number(b.TotalAmt));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(amounts[0]).toBe(Math.max(...bills.map((b) => Number(b.TotalAmt))));

    const like = await ok<{ QueryResponse: { Vendor: Entity[] } }>('findVendors', [{ field: 'DisplayName', value: 'Amazon%', operator: 'LIKE' }]);
    expect(like.QueryResponse.Vendor.length).toBeGreaterThan(0);
    expect(like.QueryResponse.Vendor.every((v) => String(v.DisplayName).startsWith('Amazon'))).toBe(true);

    const accounts = await ok<{ QueryResponse: { Account: Entity[] } }>('findAccounts', { AccountType: ['Bank', 'Credit Card'] });
    expect(accounts.QueryResponse.Account.map((a) => a.Name).sort()).toEqual(['Checking', 'Company Credit Card', 'Savings']);
  });

  it('a query the parser refuses answers 4000; OR is refused', async () => {
    const res = await fetch(`${sandbox.endpoints.v3EndpointBaseUrl}${realmId}/query?query=${encodeURIComponent('select * from Vendor where DisplayName = ')}`, {
      headers: { Authorization: `Bearer ${qbo.token}`, Accept: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(fault(await res.json())?.code).toBe('4000');
    const or = await fetch(
      `${sandbox.endpoints.v3EndpointBaseUrl}${realmId}/query?query=${encodeURIComponent("select * from Vendor where Id = '1' or Id = '2'")}`,
      {
        headers: { Authorization: `Bearer ${qbo.token}` },
      },
    );
    expect(fault(await or.json())?.code).toBe('4000');
    const unknown = await call(qbo, 'findVendors', { DisplayNam: 'x' });
    expect(unknown.status).toBe(400);
    expect(fault(unknown.body)).toMatchObject({ code: '4001', Detail: "QueryValidationError: property 'DisplayNam' is not queryable" });
  });

  it('MetaData.LastUpdatedTime selects what changed since a sync (incremental pulls)', async () => {
    clock += 60_000;
    const mark = new Date(clock - 1000).toISOString();
    const changed = await ok('createCustomer', { DisplayName: 'Changed Since Mark' });
    const answer = await ok<{ QueryResponse: { Customer?: Entity[] } }>('findCustomers', [{ field: 'MetaData.LastUpdatedTime', value: mark, operator: '>=' }]);
    expect(answer.QueryResponse.Customer?.map((c) => c.Id)).toEqual([changed.Id]);
  });
});

describe('change data capture', () => {
  it('answers what changed since a time, deletions included', async () => {
    clock += 60_000;
    const since = new Date(clock - 1000);
    const vendor = await ok('createVendor', { DisplayName: 'CDC Vendor' });
    const rent = await account('Rent & Lease');
    const bill = await ok('createBill', {
      VendorRef: { value: vendor.Id },
      Line: [{ Amount: 5, DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: rent } }],
    });
    clock += 1000;
    await ok('deleteBill', { Id: bill.Id, SyncToken: '0' });
    const cdc = await ok<{ CDCResponse: Array<{ QueryResponse: Array<Record<string, Entity[]>> }> }>('changeDataCapture', ['Vendor', 'Bill'], since);
    const [vendors, bills] = cdc.CDCResponse[0]!.QueryResponse;
    expect(vendors!.Vendor!.map((v) => v.DisplayName)).toEqual(['CDC Vendor']);
    expect(bills!.Bill).toEqual([{ domain: 'QBO', status: 'Deleted', Id: bill.Id, MetaData: { LastUpdatedTime: expect.any(String) } }]);

    const tooOld = await call(qbo, 'changeDataCapture', ['Vendor'], new Date(clock - 31 * 86_400_000));
    expect(tooOld.status).toBe(400);
  });
});

describe('generated histories', () => {
  it('the same seed and sizes give the same company; another seed another', () => {
    const size = { vendors: 30, customers: 10, bills: 50, invoices: 30, journalEntries: 5, purchases: 20, deposits: 5 };
    const a = sandbox.createCompany({ seed: 9, ...size });
    const b = sandbox.createCompany({ seed: 9, ...size });
    const c = sandbox.createCompany({ seed: 10, ...size });
    expect(a.counts).toMatchObject({ Vendor: 30, Customer: 10, Bill: 50, Invoice: 30, JournalEntry: 5, Purchase: 20, Deposit: 5 });
    for (const type of ['Account', 'Vendor', 'Customer', 'Bill', 'Invoice', 'JournalEntry', 'Purchase', 'Deposit'] as const) {
      expect(sandbox.entities(b.realmId, type)).toEqual(sandbox.entities(a.realmId, type));
    }
    expect(sandbox.entities(c.realmId, 'Bill')).not.toEqual(sandbox.entities(a.realmId, 'Bill'));
    // Account balances follow the history: checking = deposits − checks, the card = card purchases, A/P = bills.
    const total = (rows: Array<Record<string, unknown>>) => rows.reduce((sum, r) => sum + Math.round(Number(r.TotalAmt) * 100), 0);
    const purchases = sandbox.entities(a.realmId, 'Purchase');
    const balanceOf = (name: string) => Math.round(Number(sandbox.entities(a.realmId, 'Account').find((x) => x.Name === name)!.CurrentBalance) * 100);
    expect(balanceOf('Checking')).toBe(total(sandbox.entities(a.realmId, 'Deposit')) - total(purchases.filter((p) => p.PaymentType === 'Check')));
    expect(balanceOf('Company Credit Card')).toBe(total(purchases.filter((p) => p.PaymentType === 'CreditCard')));
    expect(balanceOf('Accounts Payable (A/P)')).toBe(total(sandbox.entities(a.realmId, 'Bill')));
    expect(balanceOf('Accounts Receivable (A/R)')).toBe(total(sandbox.entities(a.realmId, 'Invoice')));
    expect(balanceOf('Travel')).toBe(0);
    // Every generated journal entry balances; bills total their lines.
    for (const bill of sandbox.entities(a.realmId, 'Bill')) {
      const sum = (bill.Line as Array<{ Amount: number }>).reduce((s, l) => s + Math.round(l.Amount * 100), 0);
      expect(Math.round(Number(bill.TotalAmt) * 100)).toBe(sum);
    }
  });
});

describe('batch', () => {
  it('runs creates, updates, deletes and queries in order; a failing item answers its Fault and the others stand', async () => {
    const vendor = await ok('createVendor', { DisplayName: 'Batch Vendor' });
    const answer = await ok<{ BatchItemResponse: Array<Record<string, unknown>> }>('batch', [
      { bId: 'a', operation: 'create', Vendor: { DisplayName: 'Batch Vendor 2' } },
      { bId: 'b', operation: 'update', Vendor: { Id: vendor.Id, SyncToken: vendor.SyncToken, sparse: true, CompanyName: 'Batched' } },
      { bId: 'c', operation: 'create', Vendor: { DisplayName: 'Batch Vendor' } },
      { bId: 'd', Query: "select * from Vendor where DisplayName like 'Batch Vendor%' orderby Id" },
    ]);
    const [a, b, c, d] = answer.BatchItemResponse;
    expect(a).toMatchObject({ bId: 'a', Vendor: { DisplayName: 'Batch Vendor 2', SyncToken: '0' } });
    expect(b).toMatchObject({ bId: 'b', Vendor: { CompanyName: 'Batched', SyncToken: '1' } });
    expect(c).toMatchObject({ bId: 'c', Fault: { type: 'ValidationFault', Error: [{ code: '6240' }] } });
    expect((d!.QueryResponse as { Vendor: Entity[] }).Vendor.map((v) => v.DisplayName)).toEqual(['Batch Vendor', 'Batch Vendor 2']);

    const tooMany = await call(
      qbo,
      'batch',
      Array.from({ length: 31 }, (_, i) => ({ bId: String(i), Query: 'select * from Vendor maxresults 1' })),
    );
    expect(tooMany.status).toBe(400);
  });
});

it('realm ids are 16 digits and distinct', () => {
  const ids = Array.from({ length: 5 }, () => sandbox.createCompany({ history: false }).realmId);
  expect(new Set(ids).size).toBe(5);
  for (const id of ids) expect(id).toMatch(/^\d{16}$/);
});
