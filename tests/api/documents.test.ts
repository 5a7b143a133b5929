// Bills, invoices and manual journals through the real gateway (issue #18 items 1–3, 5): every route, every
// validation message of spec §5, the balanced ledger entry each version posts (accrual basis: a bill debits its
// categories and credits Accounts Payable at billDate; an invoice debits Accounts Receivable and credits income at
// invoiceDate; a manual journal as given), PUT and void as reversals that leave posted lines untouched, delete,
// statuses Posted / Voided and the status filter, CSV exports, the check route, Viewer 403, and another workspace's
// ids (document, vendor, customer, category) answering 404 also inside bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOfKey,
  bankTransactions,
  categoryIds,
  debitBalance,
  entriesOf,
  linesOf,
  newCustomer,
  newVendor,
  startDocumentsSystem,
  type DocumentsSystem,
  type Tenant,
} from './documents.harness.js';

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;

beforeAll(async () => {
  s = await startDocumentsSystem('documents-api');
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const fields = (body: { errors?: { field: string; message: string }[] }) => (body.errors ?? []).map((e) => [e.field, e.message]);

describe('bills', () => {
  it('POST /accounting/bill/v2 creates a bill and posts ONE balanced entry at billDate: each category debited, Accounts Payable credited', async () => {
    const vendor = await newVendor(s, t, 'Paper Mill');
    const r = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: {
        billDate: '2026-03-10',
        dueDate: '2026-04-09',
        vendorId: vendor.id,
        invoiceCode: 'INV-77',
        description: 'March supplies',
        lineItems: [
          { serviceName: 'Toner', categoryId: c['Office Supplies'], amount: 40 },
          { serviceName: 'Licence', categoryId: c['Software and Subscriptions'], amount: 10.5 },
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Bill created',
      bill: {
        billDate: '2026-03-10',
        dueDate: '2026-04-09',
        vendor: { id: vendor.id, name: 'Paper Mill' },
        billerName: 'Paper Mill',
        invoiceCode: 'INV-77',
        description: 'March supplies',
        totalAmount: 50.5,
        voided: false,
        status: 'Posted',
        paymentStatus: 'UNPAID',
        paidAmount: 0,
        differenceMessages: [],
        source: 'manual',
        version: 1,
        lineItems: [
          { serviceName: 'Toner', categoryId: c['Office Supplies'], amount: 40 },
          { serviceName: 'Licence', categoryId: c['Software and Subscriptions'], amount: 10.5 },
        ],
      },
    });
    expect(r.body.seq).toBeGreaterThan(0);
    const bill = r.body.bill;
    const entries = await entriesOf(s, bill.id);
    expect(entries).toEqual([expect.objectContaining({ id: bill.journalEntryId, source_type: 'Bill', entry_date: '2026-03-10', reverses_entry_id: null })]);
    expect(entries[0]!.description).toContain('Bill INV-77: Paper Mill');
    const ap = await accountOfKey(s, t, 'accounts_payable');
    const lines = await linesOf(s, [bill.journalEntryId]);
    expect(lines.map((l) => [l.account_id, l.direction, l.amount_cents]).sort()).toEqual(
      [
        [c['Office Supplies'], 'debit', 4000],
        [c['Software and Subscriptions'], 'debit', 1050],
        [ap, 'credit', 5050],
      ].sort(),
    );

    const got = await s.api('GET', `/accounting/bill/${bill.id}`, { tenant: t });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(bill);
    const viewerGet = await s.api('GET', `/accounting/bill/${bill.id}`, { tenant: t, token: t.viewerToken });
    expect(viewerGet.status).toBe(200);
  });

  it("PUT /accounting/bill/{id} posts a reversal and the new entry; the first entry's lines are untouched; the same body again posts nothing", async () => {
    const vendor = await newVendor(s, t);
    const created = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { billDate: '2026-05-01', vendorId: vendor.id, lineItems: [{ serviceName: 'Hosting', categoryId: c['Hosting and Infrastructure'], amount: 100 }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.bill.id;
    const first = await linesOf(s, [created.body.bill.journalEntryId]);
    const body = {
      billDate: '2026-05-02',
      vendorId: vendor.id,
      lineItems: [{ serviceName: 'Hosting', categoryId: c['Hosting and Infrastructure'], amount: 120 }],
    };
    const put = await s.api('PUT', `/accounting/bill/${id}`, { tenant: t, body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ message: 'Bill updated', bill: { id, billDate: '2026-05-02', totalAmount: 120, version: 2, dueDate: '' } });
    const entries = await entriesOf(s, id);
    expect(entries).toHaveLength(3);
    expect(entries[1]!.reverses_entry_id).toBe(entries[0]!.id);
    expect(entries[2]).toMatchObject({ id: put.body.bill.journalEntryId, entry_date: '2026-05-02', reverses_entry_id: null });
    expect(await linesOf(s, [entries[0]!.id])).toEqual(first);
    const again = await s.api('PUT', `/accounting/bill/${id}`, { tenant: t, body });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ seq: 0, bill: { version: 2 } });
    expect(await entriesOf(s, id)).toHaveLength(3);
  });

  it('void reverses the entry and keeps the bill as Voided (the status filter finds it); a voided bill is not edited; DELETE removes it', async () => {
    const vendor = await newVendor(s, t);
    const ap = await accountOfKey(s, t, 'accounts_payable');
    const before = await debitBalance(s, t, ap);
    const created = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { billDate: '2026-06-01', vendorId: vendor.id, lineItems: [{ serviceName: 'Desk', categoryId: c['Office Supplies'], amount: 300 }] },
    });
    const id = created.body.bill.id;
    expect(await debitBalance(s, t, ap)).toBe(before - 30000);
    const voided = await s.api('POST', `/accounting/bill/void/${id}`, { tenant: t });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body).toMatchObject({ message: 'Bill voided', bill: { id, voided: true, status: 'Voided', journalEntryId: '', version: 2 } });
    expect(await debitBalance(s, t, ap)).toBe(before);
    const entries = await entriesOf(s, id);
    expect(entries.map((e) => e.reverses_entry_id)).toEqual([null, entries[0]!.id]);

    const voidedList = await s.api('GET', `/accounting/bills?status=Voided&vendorId=${vendor.id}`, { tenant: t });
    expect(voidedList.status).toBe(200);
    expect(voidedList.body.data.map((b: { id: string }) => b.id)).toEqual([id]);
    const postedList = await s.api('GET', `/accounting/bills?status=Posted&vendorId=${vendor.id}`, { tenant: t });
    expect(postedList.body.data).toEqual([]);

    const edit = await s.api('PUT', `/accounting/bill/${id}`, {
      tenant: t,
      body: { billDate: '2026-06-01', vendorId: vendor.id, lineItems: [{ serviceName: 'Desk', categoryId: c['Office Supplies'], amount: 1 }] },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('A voided bill cannot be changed');
    const again = await s.api('POST', `/accounting/bill/void/${id}`, { tenant: t });
    expect(again.body).toMatchObject({ seq: 0, bill: { version: 2 } });

    const removed = await s.api('DELETE', `/accounting/bill/${id}`, { tenant: t });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Bill deleted');
    expect(await entriesOf(s, id)).toHaveLength(2);
    expect((await s.api('GET', `/accounting/bill/${id}`, { tenant: t })).status).toBe(404);

    const live = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { billDate: '2026-06-02', vendorId: vendor.id, lineItems: [{ serviceName: 'Chair', categoryId: c['Office Supplies'], amount: 80 }] },
    });
    const del = await s.api('DELETE', `/accounting/bill/${live.body.bill.id}`, { tenant: t });
    expect(del.status).toBe(200);
    expect(del.body.seq).toBeGreaterThan(0);
    expect(await debitBalance(s, t, ap)).toBe(before);
    expect((await s.api('GET', `/accounting/bills?vendorId=${vendor.id}`, { tenant: t })).body.data).toEqual([]);
  });

  it('GET /accounting/bills pages newest first and filters by dates; refuses bad paging, status and dates naming the field', async () => {
    const vendor = await newVendor(s, t);
    for (const d of ['2025-01-05', '2025-02-05', '2025-03-05']) {
      const r = await s.api('POST', '/accounting/bill/v2', {
        tenant: t,
        body: { billDate: d, vendorId: vendor.id, lineItems: [{ serviceName: 'Rent', categoryId: c['Office Supplies'], amount: 10 }] },
      });
      expect(r.status).toBe(201);
    }
    const page = await s.api('GET', `/accounting/bills?vendorId=${vendor.id}&take=2`, { tenant: t });
    expect(page.body.data.map((b: { billDate: string }) => b.billDate)).toEqual(['2025-03-05', '2025-02-05']);
    expect(page.body.meta).toEqual({ page: 1, take: 2, itemCount: 3, pageCount: 2, hasPreviousPage: false, hasNextPage: true });
    const ranged = await s.api('GET', `/accounting/bills?vendorId=${vendor.id}&startDate=2025-02-01&endDate=2025-02-28`, { tenant: t });
    expect(ranged.body.data.map((b: { billDate: string }) => b.billDate)).toEqual(['2025-02-05']);
    expect((await s.api('GET', '/accounting/bills?take=101', { tenant: t })).status).toBe(400);
    const badStatus = await s.api('GET', '/accounting/bills?status=Open', { tenant: t });
    expect(badStatus.status).toBe(400);
    expect(fields(badStatus.body)).toEqual([['status', 'status must be one of: Posted, Voided']]);
    const badDate = await s.api('GET', '/accounting/bills?startDate=2025-13-01', { tenant: t });
    expect(badDate.status).toBe(400);
    expect(fields(badDate.body)).toEqual([['startDate', 'Invalid startDate format']]);
    const reversed = await s.api('GET', '/accounting/bills?startDate=2025-03-01&endDate=2025-02-01', { tenant: t });
    expect(reversed.status).toBe(400);
  });

  it('GET /bills/csv exports every bill matching the filters', async () => {
    const vendor = await newVendor(s, t, 'CSV Vendor');
    await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: {
        billDate: '2024-07-01',
        dueDate: '2024-07-31',
        vendorId: vendor.id,
        invoiceCode: 'A-1',
        lineItems: [{ serviceName: 'x', categoryId: c['Office Supplies'], amount: 12.34 }],
      },
    });
    const r = await s.api('GET', `/bills/csv?vendorId=${vendor.id}`, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect(r.headers.get('content-disposition')).toMatch(/attachment; filename="bills_\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = r.text.replace('\uFEFF', '').trim().split('\r\n');
    expect(rows[0]).toBe('Bill date,Due date,Vendor,Invoice code,Description,Total,Status,Payment status,Bill id');
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^2024-07-01,2024-07-31,CSV Vendor,A-1,,12\.34,Posted,UNPAID,[0-9a-f-]{36}$/)]);
  });

  it('every §5 message: vendor required, dates, line items with the "Line Item N" prefix, max lengths; nothing is stored or posted', async () => {
    const vendor = await newVendor(s, t);
    const before = (await s.api('GET', '/accounting/bills?take=100', { tenant: t })).body.meta.itemCount;
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{ billDate: '2026-01-01', lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }] }, [['vendorId', 'Vendor is required']]],
      [{ vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }] }, [['billDate', 'billDate is required']]],
      [
        { billDate: '2026-02-30', vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }] },
        [['billDate', 'Invalid billDate format']],
      ],
      [
        { billDate: '2026-02-01', dueDate: '01/03/2026', vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }] },
        [['dueDate', 'Invalid dueDate format']],
      ],
      [
        { billDate: '2026-02-01', dueDate: '2026-01-01', vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }] },
        [['dueDate', 'dueDate cannot be before billDate']],
      ],
      [{ billDate: '2026-02-01', vendorId: vendor.id, lineItems: [] }, [['lineItems', 'At least one line item is required']]],
      [{ billDate: '2026-02-01', vendorId: vendor.id }, [['lineItems', 'At least one line item is required']]],
      [
        {
          billDate: '2026-02-01',
          vendorId: vendor.id,
          lineItems: [
            { serviceName: 'ok', categoryId: c['Office Supplies'], amount: 1 },
            { serviceName: ' ', categoryId: '', amount: 0 },
            { serviceName: 'x'.repeat(151), categoryId: c['Office Supplies'] },
          ],
        },
        [
          ['lineItems.1.serviceName', 'Line Item 2: serviceName is required'],
          ['lineItems.1.categoryId', 'Line Item 2: categoryId is required'],
          ['lineItems.1.amount', 'Line Item 2: amount must be greater than 0'],
          ['lineItems.2.serviceName', 'Line Item 3: serviceName must be at most 150 characters'],
          ['lineItems.2.amount', 'Line Item 3: amount is required'],
        ],
      ],
      [
        { billDate: '2026-02-01', vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: -5 }] },
        [['lineItems.0.amount', 'Line Item 1: amount must be greater than 0']],
      ],
      [
        {
          billDate: '2026-02-01',
          vendorId: vendor.id,
          invoiceCode: 'x'.repeat(101),
          lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }],
        },
        [['invoiceCode', 'invoiceCode must be at most 100 characters']],
      ],
      [
        { billDate: '2026-02-01', vendorId: 'not-a-uuid', lineItems: [{ serviceName: 'a', categoryId: 'nope', amount: 1 }] },
        [
          ['vendorId', 'vendorId must be a UUID'],
          ['lineItems.0.categoryId', 'Line Item 1: categoryId must be a UUID'],
        ],
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await s.api('POST', '/accounting/bill/v2', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body), JSON.stringify(body)).toEqual(expected);
      expect(r.body.message).toBe(expected[0]![1]);
    }
    const amountTooPrecise = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { billDate: '2026-02-01', vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1.234 }] },
    });
    expect(amountTooPrecise.status).toBe(400);
    expect(fields(amountTooPrecise.body)[0]![0]).toBe('lineItems.0.amount');
    expect((await s.api('GET', '/accounting/bills?take=100', { tenant: t })).body.meta.itemCount).toBe(before);
  });

  it("a Viewer reads but cannot write (403 with the message); another workspace's bill, vendor and category answer 404 naming the field", async () => {
    const vendor = await newVendor(s, t);
    const body = { billDate: '2026-02-01', vendorId: vendor.id, lineItems: [{ serviceName: 'a', categoryId: c['Office Supplies'], amount: 1 }] };
    const viewer = await s.api('POST', '/accounting/bill/v2', { tenant: t, token: t.viewerToken, body });
    expect(viewer.status).toBe(403);
    expect(viewer.body.message).toBe(VIEWER_MESSAGE);
    expect((await s.api('GET', '/accounting/bills', { tenant: t, token: t.viewerToken })).status).toBe(200);

    const created = await s.api('POST', '/accounting/bill/v2', { tenant: t, body });
    const id = created.body.bill.id;
    for (const [method, path] of [
      ['GET', `/accounting/bill/${id}`],
      ['DELETE', `/accounting/bill/${id}`],
      ['POST', `/accounting/bill/void/${id}`],
    ] as const) {
      const r = await s.api(method, path, { tenant: other });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const put = await s.api('PUT', `/accounting/bill/${id}`, { tenant: other, body: { ...body, vendorId: 'x' } });
    expect(put.status).toBe(404);
    expect(fields(put.body)).toEqual([['id', 'Bill not found']]);

    const otherVendor = await newVendor(s, other);
    const foreignVendor = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { ...body, vendorId: otherVendor.id } });
    expect(foreignVendor.status).toBe(404);
    expect(fields(foreignVendor.body)).toEqual([['vendorId', 'Vendor not found']]);
    const otherCategories = await categoryIds(s, other);
    const foreignCategory = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { ...body, lineItems: [body.lineItems[0], { serviceName: 'b', categoryId: otherCategories['Office Supplies'], amount: 2 }] },
    });
    expect(foreignCategory.status).toBe(404);
    expect(fields(foreignCategory.body)).toEqual([['lineItems.1.categoryId', 'Category not found']]);
    const foreignFilter = await s.api('GET', `/accounting/bills?vendorId=${otherVendor.id}`, { tenant: t });
    expect(foreignFilter.status).toBe(404);
    expect(fields(foreignFilter.body)).toEqual([['vendorId', 'Vendor not found']]);
    // Nothing of the refused ones was kept: the original bill is this vendor's only one.
    expect((await s.api('GET', `/accounting/bills?vendorId=${vendor.id}`, { tenant: t })).body.data.map((b: { id: string }) => b.id)).toEqual([id]);
  });
});

describe('invoices', () => {
  it('POST /accounting/invoice/v2 posts Accounts Receivable debited and income credited at invoiceDate; PUT, void, delete, GET, list and CSV', async () => {
    const customer = await newCustomer(s, t, 'Globex');
    const body = {
      invoiceDate: '2026-04-01',
      dueDate: '2026-05-01',
      customerId: customer.id,
      referenceNo: 'R-9',
      description: 'April work',
      companyName: 'Acme Inc',
      companyAddress: '1 Main St',
      lineItems: [
        { serviceName: 'Consulting', categoryId: c['Consulting Revenue'] ?? c['Sales'], quantity: 3, rate: 150, amount: 450 },
        { serviceName: 'Setup', categoryId: c['Consulting Revenue'] ?? c['Sales'], quantity: 2.5, rate: 10.01, amount: 25.03 },
      ],
    };
    const r = await s.api('POST', '/accounting/invoice/v2', { tenant: t, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Invoice created',
      invoice: {
        invoiceDate: '2026-04-01',
        dueDate: '2026-05-01',
        customer: { id: customer.id, name: 'Globex' },
        referenceNo: 'R-9',
        companyName: 'Acme Inc',
        companyAddress: '1 Main St',
        totalAmount: 475.03,
        status: 'Posted',
        paymentStatus: 'UNPAID',
        lineItems: [
          { serviceName: 'Consulting', quantity: 3, rate: 150, amount: 450 },
          { quantity: 2.5, rate: 10.01, amount: 25.03 },
        ],
      },
    });
    const inv = r.body.invoice;
    const ar = await accountOfKey(s, t, 'accounts_receivable');
    const lines = await linesOf(s, [inv.journalEntryId]);
    expect(lines.filter((l) => l.account_id === ar)).toEqual([expect.objectContaining({ direction: 'debit', amount_cents: 47503 })]);
    expect(lines.filter((l) => l.account_id !== ar).map((l) => [l.direction, l.amount_cents])).toEqual([
      ['credit', 45000],
      ['credit', 2503],
    ]);
    expect((await entriesOf(s, inv.id))[0]).toMatchObject({ source_type: 'Invoice', entry_date: '2026-04-01' });

    expect((await s.api('GET', `/accounting/invoice/${inv.id}`, { tenant: t })).body).toEqual(inv);
    const put = await s.api('PUT', `/accounting/invoice/${inv.id}`, { tenant: t, body: { ...body, lineItems: [body.lineItems[0]] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.invoice).toMatchObject({ totalAmount: 450, version: 2 });
    expect(await debitBalance(s, t, ar)).toBe(45000);

    const list = await s.api('GET', `/accounting/invoices?customerId=${customer.id}`, { tenant: t });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([inv.id]);
    const csv = await s.api('GET', `/invoices/csv?customerId=${customer.id}`, { tenant: t });
    expect(csv.status).toBe(200);
    const rows = csv.text.replace('\uFEFF', '').trim().split('\r\n');
    expect(rows[0]).toBe('Invoice date,Due date,Customer,Reference no,Description,Company name,Total,Status,Payment status,Invoice id');
    expect(rows[1]).toBe(`2026-04-01,2026-05-01,Globex,R-9,April work,Acme Inc,450.00,Posted,UNPAID,${inv.id}`);

    const voided = await s.api('POST', `/accounting/invoice/void/${inv.id}`, { tenant: t });
    expect(voided.body).toMatchObject({ message: 'Invoice voided', invoice: { status: 'Voided', voided: true } });
    expect(await debitBalance(s, t, ar)).toBe(0);
    expect((await s.api('DELETE', `/accounting/invoice/${inv.id}`, { tenant: t })).status).toBe(200);
    expect((await s.api('GET', `/accounting/invoice/${inv.id}`, { tenant: t })).status).toBe(404);
  });

  it('every §5 message: customer required, quantity × rate = amount within 0.01, max lengths 150/100/100/300', async () => {
    const customer = await newCustomer(s, t);
    const cat = c['Consulting Revenue'] ?? c['Sales'];
    const line = { serviceName: 'a', categoryId: cat, quantity: 1, rate: 10, amount: 10 };
    const base = { invoiceDate: '2026-01-01', customerId: customer.id, lineItems: [line] };
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{ ...base, customerId: undefined }, [['customerId', 'Customer is required']]],
      [{ ...base, invoiceDate: '2026/01/01' }, [['invoiceDate', 'Invalid invoiceDate format']]],
      [{ ...base, lineItems: [{ ...line, amount: 10.02 }] }, [['lineItems.0.amount', 'Line Item 1: Amount must equal quantity multiplied by rate']]],
      [{ ...base, lineItems: [line, { ...line, quantity: 0 }] }, [['lineItems.1.quantity', 'Line Item 2: quantity must be greater than 0']]],
      [{ ...base, lineItems: [{ ...line, rate: undefined }] }, [['lineItems.0.rate', 'Line Item 1: rate is required']]],
      [{ ...base, lineItems: [{ ...line, quantity: undefined }] }, [['lineItems.0.quantity', 'Line Item 1: quantity is required']]],
      [{ ...base, referenceNo: 'r'.repeat(101) }, [['referenceNo', 'referenceNo must be at most 100 characters']]],
      [{ ...base, companyName: 'n'.repeat(101) }, [['companyName', 'companyName must be at most 100 characters']]],
      [{ ...base, companyAddress: 'a'.repeat(301) }, [['companyAddress', 'companyAddress must be at most 300 characters']]],
      [
        { ...base, lineItems: [{ ...line, serviceName: 's'.repeat(151) }] },
        [['lineItems.0.serviceName', 'Line Item 1: serviceName must be at most 150 characters']],
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await s.api('POST', '/accounting/invoice/v2', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body), JSON.stringify(body)).toEqual(expected);
    }
    // Within the tolerance: 3 × 3.33 = 9.99, sent as 10.00.
    const within = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: { ...base, lineItems: [{ ...line, quantity: 3, rate: 3.33, amount: 10 }] },
    });
    expect(within.status, JSON.stringify(within.body)).toBe(201);
    // Empty optional text is absent; exactly at the limits is fine.
    const limits = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: { ...base, referenceNo: 'r'.repeat(100), companyName: '', companyAddress: 'a'.repeat(300), lineItems: [{ ...line, serviceName: 's'.repeat(150) }] },
    });
    expect(limits.status, JSON.stringify(limits.body)).toBe(201);
    expect(limits.body.invoice.companyName).toBe('');

    const otherCustomer = await newCustomer(s, other);
    const foreign = await s.api('POST', '/accounting/invoice/v2', { tenant: t, body: { ...base, customerId: otherCustomer.id } });
    expect(foreign.status).toBe(404);
    expect(fields(foreign.body)).toEqual([['customerId', 'Customer not found']]);
  });
});

describe('manual journals', () => {
  it('POST /accounting/manual-entry/v2 posts its lines as given; PUT reverses and reposts; void makes it Voided; status filter; delete', async () => {
    const body = {
      postingDate: '2026-02-28',
      memo: 'Accrue February rent',
      lineItems: [
        { categoryId: c['Office Supplies'], type: 'debit', amount: 1200, description: 'Rent' },
        { categoryId: c["Owner's Equity"] ?? c['Opening Balance Equity'], type: 'credit', amount: 1200 },
      ],
    };
    const r = await s.api('POST', '/accounting/manual-entry/v2', { tenant: t, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Manual entry created',
      manualEntry: {
        postingDate: '2026-02-28',
        memo: 'Accrue February rent',
        status: 'Posted',
        voided: false,
        totalAmount: 1200,
        lineItems: [
          { type: 'debit', debit: 1200, credit: 0, description: 'Rent' },
          { type: 'credit', debit: 0, credit: 1200 },
        ],
      },
    });
    const me = r.body.manualEntry;
    const lines = await linesOf(s, [me.journalEntryId]);
    expect(lines.map((l) => [l.account_id, l.direction, l.amount_cents]).sort()).toEqual(
      [
        [body.lineItems[0]!.categoryId, 'debit', 120000],
        [body.lineItems[1]!.categoryId, 'credit', 120000],
      ].sort(),
    );
    expect((await entriesOf(s, me.id))[0]).toMatchObject({ source_type: 'ManualEntry', entry_date: '2026-02-28' });

    expect((await s.api('GET', `/accounting/manual-entry/${me.id}`, { tenant: t })).body).toEqual(me);
    const put = await s.api('PUT', `/accounting/manual-entry/${me.id}`, {
      tenant: t,
      body: { ...body, lineItems: body.lineItems.map((l) => ({ ...l, amount: 1300 })) },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.manualEntry).toMatchObject({ totalAmount: 1300, version: 2 });
    expect(await entriesOf(s, me.id)).toHaveLength(3);

    const voided = await s.api('POST', `/accounting/manual-entry/void/${me.id}`, { tenant: t });
    expect(voided.body).toMatchObject({ message: 'Manual entry voided', manualEntry: { status: 'Voided' } });
    const voidedList = await s.api('GET', '/accounting/manual-entries?status=Voided', { tenant: t });
    expect(voidedList.body.data.map((m: { id: string }) => m.id)).toContain(me.id);
    const postedList = await s.api('GET', '/accounting/manual-entries?status=Posted', { tenant: t });
    expect(postedList.body.data.map((m: { id: string }) => m.id)).not.toContain(me.id);
    expect((await s.api('DELETE', `/accounting/manual-entry/${me.id}`, { tenant: t })).status).toBe(200);
    expect((await s.api('GET', `/accounting/manual-entry/${me.id}`, { tenant: t })).status).toBe(404);
    expect((await s.api('GET', `/accounting/manual-entry/${me.id}`, { tenant: other })).status).toBe(404);
  });

  it('refuses an unbalanced or incomplete journal naming the field; nothing posted', async () => {
    const a = c['Office Supplies'];
    const b = c['Software and Subscriptions'];
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [
        {
          postingDate: '2026-01-01',
          lineItems: [
            { categoryId: a, type: 'debit', amount: 5 },
            { categoryId: b, type: 'credit', amount: 5 },
          ],
        },
        [['memo', 'memo is required']],
      ],
      [
        {
          memo: 'm',
          lineItems: [
            { categoryId: a, type: 'debit', amount: 5 },
            { categoryId: b, type: 'credit', amount: 5 },
          ],
        },
        [['postingDate', 'postingDate is required']],
      ],
      [{ memo: 'm', postingDate: '2026-01-01', lineItems: [] }, [['lineItems', 'At least one line item is required']]],
      [
        {
          memo: 'm',
          postingDate: '2026-01-01',
          lineItems: [
            { categoryId: a, type: 'debit', amount: 5 },
            { categoryId: b, type: 'credit', amount: 4 },
          ],
        },
        [['lineItems', 'Total debits (5.00) must equal total credits (4.00)']],
      ],
      [
        {
          memo: 'm',
          postingDate: '2026-01-01',
          lineItems: [
            { categoryId: a, type: 'debit', amount: 5 },
            { type: 'sideways', amount: 5 },
          ],
        },
        [
          ['lineItems.1.categoryId', 'Line Item 2: categoryId is required'],
          ['lineItems.1.type', 'Line Item 2: type must be debit or credit'],
        ],
      ],
      [
        {
          memo: 'm',
          postingDate: '2026-01-01',
          lineItems: [
            { categoryId: a, amount: 5 },
            { categoryId: b, type: 'credit' },
          ],
        },
        [
          ['lineItems.0.type', 'Line Item 1: type is required'],
          ['lineItems.1.amount', 'Line Item 2: amount is required'],
        ],
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await s.api('POST', '/accounting/manual-entry/v2', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body), JSON.stringify(body)).toEqual(expected);
    }
  });

  it("POST /accounting/manual-entry/check answers the balance and each account's difference without posting", async () => {
    const a = c['Office Supplies']!;
    const b = c['Software and Subscriptions']!;
    // Something on both accounts first, so their opening balances are not zero.
    const seed = await s.api('POST', '/accounting/manual-entry/v2', {
      tenant: t,
      body: {
        memo: 'seed',
        postingDate: '2025-12-15',
        lineItems: [
          { categoryId: a, type: 'debit', amount: 12.34 },
          { categoryId: b, type: 'credit', amount: 12.34 },
        ],
      },
    });
    expect(seed.status).toBe(201);
    const before = (await s.api('GET', '/accounting/manual-entries?take=100', { tenant: t })).body.meta.itemCount;
    const off = await s.api('POST', '/accounting/manual-entry/check', {
      tenant: t,
      body: {
        memo: 'm',
        postingDate: '2026-01-01',
        lineItems: [
          { categoryId: a, type: 'debit', amount: 10 },
          { categoryId: b, type: 'credit', amount: 7.5 },
        ],
      },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    // openingBalance: each account's balance the day before postingDate (2026-01-01), in its normal direction
    // (expenses: debit − credit, for that fiscal year — 2025, the seed's and earlier tests' 2025 lines).
    const before2026 = async (account: string) =>
      Number(
        (
          (
            await s.ledger.db.adminDb.raw(
              "select coalesce(sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end), 0)::bigint as b from journal_lines l join journal_entries e on e.id = l.entry_id where l.workspace_id = ? and l.account_id = ? and e.entry_date between '2025-01-01' and '2025-12-31'",
              [t.workspaceId, account],
            )
          ).rows as { b: string }[]
        )[0]!.b,
      ) / 100;
    const openA = await before2026(a);
    const openB = await before2026(b);
    expect(openA).not.toBe(0);
    expect(openB).toBe(-12.34);
    expect(off.body).toEqual({
      balanced: false,
      totalDebit: 10,
      totalCredit: 7.5,
      difference: 2.5,
      differenceData: {
        differences: [
          { accountId: a, amount: 10, flag: 'debit', openingBalance: openA },
          { accountId: b, amount: 7.5, flag: 'credit', openingBalance: openB },
        ],
        differenceMessages: ['The entry does not balance: debits exceed credits by 2.50'],
      },
    });
    const ok = await s.api('POST', '/accounting/manual-entry/check', {
      tenant: t,
      body: {
        memo: 'm',
        postingDate: '2026-01-01',
        lineItems: [
          { categoryId: a, type: 'debit', amount: 3 },
          { categoryId: b, type: 'credit', amount: 3 },
        ],
      },
    });
    expect(ok.body).toMatchObject({ balanced: true, difference: 0, differenceData: { differenceMessages: [] } });
    const bad = await s.api('POST', '/accounting/manual-entry/check', {
      tenant: t,
      body: { postingDate: '2026-01-01', lineItems: [{ categoryId: a, type: 'debit', amount: 3 }] },
    });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual([['memo', 'memo is required']]);
    const otherCategories = await categoryIds(s, other);
    const foreign = await s.api('POST', '/accounting/manual-entry/check', {
      tenant: t,
      body: {
        memo: 'm',
        postingDate: '2026-01-01',
        lineItems: [
          { categoryId: a, type: 'debit', amount: 3 },
          { categoryId: otherCategories['Office Supplies'], type: 'credit', amount: 3 },
        ],
      },
    });
    expect(foreign.status).toBe(404);
    expect(fields(foreign.body)).toEqual([['lineItems.1.categoryId', 'Category not found']]);
    expect((await s.api('GET', '/accounting/manual-entries?take=100', { tenant: t })).body.meta.itemCount).toBe(before);
  });
});

describe('payments: connected bank transactions', () => {
  it('a bill paid by a bank transaction is PAID; the transaction is re-booked against Accounts Payable and cannot be edited; void releases it', async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn);
    const [out1, out2, in1] = await bankTransactions(s, tn, [-5050, -4000, 20000]);
    const body = {
      billDate: '2026-04-01',
      vendorId: vendor.id,
      lineItems: [
        { serviceName: 'Toner', categoryId: cats['Office Supplies'], amount: 40 },
        { serviceName: 'Paper', categoryId: cats['Office Supplies'], amount: 10.5 },
      ],
    };
    const r = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, connectedTransactions: [{ id: out1, amount: 50.5 }] } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.bill).toMatchObject({ paymentStatus: 'PAID', paidAmount: 50.5, differenceMessages: [], connectedTransactions: [{ id: out1, amount: 50.5 }] });
    const ap = await accountOfKey(s, tn, 'accounts_payable');
    const txn = (await s.ledger.client.getTransaction({ id: out1! }, s.ledger.as(tn.workspaceId))).transaction!;
    expect(txn).toMatchObject({ entityType: 'Bill', entityId: r.body.bill.id, category: { id: ap } });
    expect(await debitBalance(s, tn, ap)).toBe(0);
    const edit = await s.api('PATCH', `/transactions/${out1}`, { tenant: tn, body: { categoryId: cats['Travel'] } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('This transaction is linked to a bill and cannot be edited here');

    // The same transaction cannot pay a second bill; money in cannot pay a bill; no more than the transaction's amount.
    const second = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, connectedTransactions: [{ id: out1, amount: 1 }] } });
    expect(second.status).toBe(409);
    const wrongWay = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, connectedTransactions: [{ id: in1, amount: 1 }] } });
    expect(wrongWay.status).toBe(400);
    expect(fields(wrongWay.body)).toEqual([['connectedTransactions.0.id', 'Connected transaction 1: a bill is paid by money going out']]);
    const tooMuch = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, connectedTransactions: [{ id: out2, amount: 40.01 }] } });
    expect(tooMuch.status).toBe(400);
    expect(fields(tooMuch.body)).toEqual([
      ['connectedTransactions.0.amount', "Connected transaction 1: amount cannot be more than the transaction's amount (40.00)"],
    ]);
    const bad = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, connectedTransactions: [{ id: 'nope', amount: 0 }, { id: out2 }] } });
    expect(fields(bad.body)).toEqual([
      ['connectedTransactions.0.id', 'Connected transaction 1: id must be a UUID'],
      ['connectedTransactions.0.amount', 'Connected transaction 1: amount must be greater than 0'],
      ['connectedTransactions.1.amount', 'Connected transaction 2: amount is required'],
    ]);
    const [theirs] = await bankTransactions(s, other, [-100]);
    const foreign = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, connectedTransactions: [{ id: theirs, amount: 1 }] } });
    expect(foreign.status).toBe(404);
    expect(fields(foreign.body)).toEqual([['connectedTransactions.0.id', 'Transaction not found']]);
    expect((await s.api('GET', `/accounting/bills?vendorId=${vendor.id}`, { tenant: tn })).body.data).toHaveLength(1);

    // PUT adds a partial payment of another bill's worth: PARTIALLY_PAID is for a second bill paid 40 of 100.
    const partial = await s.api('POST', '/accounting/bill/v2', {
      tenant: tn,
      body: {
        billDate: '2026-04-02',
        vendorId: vendor.id,
        lineItems: [{ serviceName: 'Desk', categoryId: cats['Office Supplies'], amount: 100 }],
        connectedTransactions: [{ id: out2, amount: 40 }],
      },
    });
    expect(partial.body.bill).toMatchObject({
      paymentStatus: 'PARTIALLY_PAID',
      paidAmount: 40,
      differenceMessages: ['Payments of 40.00 leave 60.00 of 100.00 unpaid'],
    });
    expect(await debitBalance(s, tn, ap)).toBe(-6000);
    // PUT without the payment releases the transaction to Uncategorised Expense; the bill is UNPAID.
    const released = await s.api('PUT', `/accounting/bill/${partial.body.bill.id}`, {
      tenant: tn,
      body: { billDate: '2026-04-02', vendorId: vendor.id, lineItems: [{ serviceName: 'Desk', categoryId: cats['Office Supplies'], amount: 100 }] },
    });
    expect(released.body.bill).toMatchObject({ paymentStatus: 'UNPAID', connectedTransactions: [] });
    expect((await s.ledger.client.getTransaction({ id: out2! }, s.ledger.as(tn.workspaceId))).transaction).toMatchObject({
      entityType: '',
      category: { id: cats['Uncategorised Expense'] },
    });
    expect(await debitBalance(s, tn, ap)).toBe(-10000);

    // Void the paid bill: its entry is reversed and the transaction released.
    const voided = await s.api('POST', `/accounting/bill/void/${r.body.bill.id}`, { tenant: tn });
    expect(voided.body.bill).toMatchObject({ status: 'Voided', connectedTransactions: [] });
    expect((await s.ledger.client.getTransaction({ id: out1! }, s.ledger.as(tn.workspaceId))).transaction).toMatchObject({ entityType: '', entityId: '' });
    expect((await s.api('PATCH', `/transactions/${out1}`, { tenant: tn, body: { categoryId: cats['Travel'] } })).status).toBe(200);
    expect(await debitBalance(s, tn, ap)).toBe(-10000);
    const trial = (
      await s.ledger.db.adminDb.raw(
        "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?",
        [tn.workspaceId],
      )
    ).rows as { b: string }[];
    expect(Number(trial[0]!.b)).toBe(0);
  });

  it('an invoice paid by money coming in: OVERPAID beyond 0.01, against Accounts Receivable', async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const customer = await newCustomer(s, tn);
    const [in1] = await bankTransactions(s, tn, [20000]);
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: tn,
      body: {
        invoiceDate: '2026-04-01',
        customerId: customer.id,
        lineItems: [{ serviceName: 'Work', categoryId: cats['Sales'], quantity: 1, rate: 100, amount: 100 }],
        connectedTransactions: [{ id: in1, amount: 150 }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.invoice).toMatchObject({
      paymentStatus: 'OVERPAID',
      paidAmount: 150,
      differenceMessages: ['Payments of 150.00 exceed the total of 100.00 by 50.00'],
    });
    const ar = await accountOfKey(s, tn, 'accounts_receivable');
    expect((await s.ledger.client.getTransaction({ id: in1! }, s.ledger.as(tn.workspaceId))).transaction).toMatchObject({
      entityType: 'Invoice',
      category: { id: ar },
    });
    // AR: the invoice's 100 debited, the whole 200 received credited.
    expect(await debitBalance(s, tn, ar)).toBe(-10000);
    const edit = await s.api('PATCH', `/transactions/${in1}`, { tenant: tn, body: { categoryId: cats['Sales'] } });
    expect(edit.body.message).toBe('This transaction is linked to a invoice and cannot be edited here');
    expect((await s.api('DELETE', `/accounting/invoice/${r.body.invoice.id}`, { tenant: tn })).status).toBe(200);
    expect((await s.ledger.client.getTransaction({ id: in1! }, s.ledger.as(tn.workspaceId))).transaction).toMatchObject({
      entityType: '',
      category: { id: cats['Uncategorised Income'] },
    });
    expect(await debitBalance(s, tn, ar)).toBe(0);
  });
});
