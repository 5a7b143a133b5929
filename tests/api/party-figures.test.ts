// Vendors' bill figures and customers' invoice figures (spec documents-parties-integrations §3) through the real
// gateway, parties, documents and ledger services: the parties service keeps a read model of the documents
// service's bills and invoices (fed by documents.document_changed), so creating, paying, voiding and deleting
// documents moves billCount / billAmount / dueBillCount / dueBillAmount / overdueAmount and the customer's
// invoice, due-invoice and overduePaymentAmount figures; "overdue" is decided against today's date at the read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@ledgerline/platform/testing';
import { bankTransactions, categoryIds, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

let s: DocumentsSystem;

beforeAll(async () => {
  s = await startDocumentsSystem('party-figures');
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const PAST = '2026-02-04';
const FUTURE = '2099-01-01';
const eventually = <T>(f: () => Promise<T>) => expectEventually(f, { timeoutMs: 20_000 });

async function vendorFigures(tn: Tenant, id: string) {
  const one = await s.api('GET', `/vendors/${id}`, { tenant: tn });
  expect(one.status).toBe(200);
  const list = await s.api('GET', '/vendors?take=100', { tenant: tn });
  expect(list.status, list.text).toBe(200);
  const listed = list.body.data.find((v: { id: string }) => v.id === id);
  const pick = (v: Record<string, unknown>) => ({
    billCount: v.billCount,
    billAmount: v.billAmount,
    dueBillCount: v.dueBillCount,
    dueBillAmount: v.dueBillAmount,
    overdueAmount: v.overdueAmount,
  });
  // The list and the single read answer the same figures.
  expect(pick(listed)).toEqual(pick(one.body));
  return pick(one.body);
}

async function customerFigures(tn: Tenant, id: string) {
  const one = await s.api('GET', `/customers/${id}`, { tenant: tn });
  expect(one.status).toBe(200);
  const list = await s.api('GET', '/customers?take=100', { tenant: tn });
  expect(list.status, list.text).toBe(200);
  const listed = list.body.data.find((c: { id: string }) => c.id === id);
  const pick = (c: Record<string, unknown>) => ({
    invoiceCount: c.invoiceCount,
    invoiceAmount: c.invoiceAmount,
    dueInvoiceCount: c.dueInvoiceCount,
    dueInvoiceAmount: c.dueInvoiceAmount,
    overduePaymentAmount: c.overduePaymentAmount,
  });
  expect(pick(listed)).toEqual(pick(one.body));
  return pick(one.body);
}

describe('vendor bill figures', () => {
  it('count and amount of live bills, due bills and what they owe, overdue by due date against today; payments, void, delete and merge move them', async () => {
    const tn = s.tenant();
    const other = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn);
    const line = (amount: number) => [{ serviceName: 'Supplies', categoryId: cats['Office Supplies'], amount }];
    const bill = async (body: Record<string, unknown>) => {
      const r = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { vendorId: vendor.id, ...body } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.bill as { id: string };
    };
    expect(await vendorFigures(tn, vendor.id)).toEqual({ billCount: 0, billAmount: 0, dueBillCount: 0, dueBillAmount: 0, overdueAmount: 0 });

    const [pay30, pay40] = await bankTransactions(s, tn, [-3000, -4000]);
    const overdue = await bill({ billDate: '2026-01-05', dueDate: PAST, lineItems: line(100) });
    const notYetDue = await bill({ billDate: '2026-03-01', dueDate: FUTURE, lineItems: line(50) });
    await bill({ billDate: '2026-01-10', lineItems: line(30), connectedTransactions: [{ id: pay30, amount: 30 }] });
    const voided = await bill({ billDate: '2026-01-11', dueDate: PAST, lineItems: line(20) });
    expect((await s.api('POST', `/accounting/bill/void/${voided.id}`, { tenant: tn })).status).toBe(200);
    const deleted = await bill({ billDate: '2026-01-12', dueDate: PAST, lineItems: line(10) });
    expect((await s.api('DELETE', `/accounting/bill/${deleted.id}`, { tenant: tn })).status).toBe(200);

    // Live: 100 (overdue), 50 (due later), 30 (paid). The voided and the deleted bill count nowhere.
    await eventually(async () =>
      expect(await vendorFigures(tn, vendor.id)).toEqual({ billCount: 3, billAmount: 180, dueBillCount: 2, dueBillAmount: 150, overdueAmount: 100 }),
    );

    // A part payment of the overdue bill: 60 still owed, still overdue.
    const put = await s.api('PUT', `/accounting/bill/${overdue.id}`, {
      tenant: tn,
      body: { billDate: '2026-01-05', dueDate: PAST, vendorId: vendor.id, lineItems: line(100), connectedTransactions: [{ id: pay40, amount: 40 }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await eventually(async () =>
      expect(await vendorFigures(tn, vendor.id)).toEqual({ billCount: 3, billAmount: 180, dueBillCount: 2, dueBillAmount: 110, overdueAmount: 60 }),
    );

    // Its due date moved into the future: still due, no longer overdue (decided against today, not a stored flag).
    const later = await s.api('PUT', `/accounting/bill/${overdue.id}`, {
      tenant: tn,
      body: { billDate: '2026-01-05', dueDate: FUTURE, vendorId: vendor.id, lineItems: line(100), connectedTransactions: [{ id: pay40, amount: 40 }] },
    });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    await eventually(async () =>
      expect(await vendorFigures(tn, vendor.id)).toEqual({ billCount: 3, billAmount: 180, dueBillCount: 2, dueBillAmount: 110, overdueAmount: 0 }),
    );

    expect((await s.api('POST', `/accounting/bill/void/${notYetDue.id}`, { tenant: tn })).status).toBe(200);
    expect((await s.api('DELETE', `/accounting/bill/${overdue.id}`, { tenant: tn })).status).toBe(200);
    await eventually(async () =>
      expect(await vendorFigures(tn, vendor.id)).toEqual({ billCount: 1, billAmount: 30, dueBillCount: 0, dueBillAmount: 0, overdueAmount: 0 }),
    );

    // A vendor with bills is made inactive, not deleted (its bills would lose their vendor).
    const del = await s.api('DELETE', `/vendors/${vendor.id}`, { tenant: tn });
    expect(del).toMatchObject({
      status: 200,
      body: {
        deleted: false,
        message: 'This vendor has 1 bill, so it was made inactive instead of deleted',
        vendor: { id: vendor.id, status: 'inactive', billCount: 1 },
      },
    });

    // Merging a vendor brings its bills' figures to the parent at once.
    const merged = await newVendor(s, tn);
    const r = await s.api('POST', '/accounting/bill/v2', {
      tenant: tn,
      body: { vendorId: merged.id, billDate: '2026-01-20', dueDate: PAST, lineItems: line(25) },
    });
    expect(r.status).toBe(201);
    await eventually(async () => expect(await vendorFigures(tn, merged.id)).toMatchObject({ billCount: 1, overdueAmount: 25 }));
    const merge = await s.api('POST', '/vendors/merge', { tenant: tn, body: { parentVendorId: vendor.id, mergingVendorsId: [merged.id] } });
    expect(merge.status, JSON.stringify(merge.body)).toBe(200);
    expect(merge.body.vendor).toMatchObject({ billCount: 2, billAmount: 55, dueBillCount: 1, dueBillAmount: 25, overdueAmount: 25 });

    // Another workspace sees none of it.
    const theirs = await newVendor(s, other);
    expect(await vendorFigures(other, theirs.id)).toEqual({ billCount: 0, billAmount: 0, dueBillCount: 0, dueBillAmount: 0, overdueAmount: 0 });
    expect((await s.api('GET', `/vendors/${vendor.id}`, { tenant: other })).status).toBe(404);
  });
});

describe('customer invoice figures', () => {
  it('invoice count and amount, due invoices and what they owe, overduePaymentAmount against today; payment, void and delete move them', async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const income = cats['Consulting Revenue'] ?? cats['Sales'];
    const customer = await newCustomer(s, tn);
    const line = (amount: number) => [{ serviceName: 'Consulting', categoryId: income, quantity: 1, rate: amount, amount }];
    const invoice = async (body: Record<string, unknown>) => {
      const r = await s.api('POST', '/accounting/invoice/v2', { tenant: tn, body: { customerId: customer.id, ...body } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.invoice as { id: string };
    };
    const [received] = await bankTransactions(s, tn, [12000]);
    const late = await invoice({ invoiceDate: '2026-01-05', dueDate: PAST, lineItems: line(300), connectedTransactions: [{ id: received, amount: 120 }] });
    await invoice({ invoiceDate: '2026-03-01', dueDate: FUTURE, lineItems: line(200) });
    const gone = await invoice({ invoiceDate: '2026-01-06', dueDate: PAST, lineItems: line(75) });

    await eventually(async () =>
      expect(await customerFigures(tn, customer.id)).toEqual({
        invoiceCount: 3,
        invoiceAmount: 575,
        dueInvoiceCount: 3,
        dueInvoiceAmount: 455,
        overduePaymentAmount: 255,
      }),
    );

    expect((await s.api('POST', `/accounting/invoice/void/${gone.id}`, { tenant: tn })).status).toBe(200);
    await eventually(async () =>
      expect(await customerFigures(tn, customer.id)).toEqual({
        invoiceCount: 2,
        invoiceAmount: 500,
        dueInvoiceCount: 2,
        dueInvoiceAmount: 380,
        overduePaymentAmount: 180,
      }),
    );
    expect((await s.api('DELETE', `/accounting/invoice/${late.id}`, { tenant: tn })).status).toBe(200);
    await eventually(async () =>
      expect(await customerFigures(tn, customer.id)).toEqual({
        invoiceCount: 1,
        invoiceAmount: 200,
        dueInvoiceCount: 1,
        dueInvoiceAmount: 200,
        overduePaymentAmount: 0,
      }),
    );

    // A customer with invoices is made inactive, not deleted.
    const del = await s.api('DELETE', `/customers/${customer.id}`, { tenant: tn });
    expect(del).toMatchObject({ status: 200, body: { deleted: false, message: 'This customer has 1 invoice, so it was made inactive instead of deleted' } });
    expect((await s.api('GET', `/customers/${customer.id}`, { tenant: tn })).body).toMatchObject({ status: 'inactive', invoiceCount: 1 });
  });
});
