// A credit's applied amount and remaining balance (spec documents-parties-integrations §3: vendor credit / credit memo
// appliedAmount, runningBalance) follow what bills and invoices apply of it (connectedVendorCredits /
// connectedCreditMemos), through the real gateway, documents, parties and ledger services: the documents service
// carries the applications on documents.document_changed and the parties service mirrors them through its inbox.
// Apply, change, move to another bill, void, delete: the credit's figures follow. Applying more than a credit's
// remaining balance is a 400 naming the field, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@ledgerline/platform/testing';
import { categoryIds, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

let s: DocumentsSystem;
beforeAll(async () => {
  s = await startDocumentsSystem('credit-applications');
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const eventually = (f: () => Promise<void>) => expectEventually(f, { timeoutMs: 20_000 });
const fields = (body: { errors?: { field: string; message: string }[] }) => (body.errors ?? []).map((e) => [e.field, e.message]);

async function figures(tn: Tenant, path: string, id: string) {
  const one = await s.api('GET', `${path}/${id}`, { tenant: tn });
  expect(one.status, one.text).toBe(200);
  return { totalAmount: one.body.totalAmount, appliedAmount: one.body.appliedAmount, runningBalance: one.body.runningBalance };
}
async function listed(tn: Tenant, path: string, id: string) {
  const list = await s.api('GET', `${path}s?take=100`, { tenant: tn });
  expect(list.status, list.text).toBe(200);
  const c = list.body.data.find((x: { id: string }) => x.id === id);
  return { totalAmount: c.totalAmount, appliedAmount: c.appliedAmount, runningBalance: c.runningBalance };
}
async function follows(tn: Tenant, path: string, id: string, expected: { totalAmount: number; appliedAmount: number; runningBalance: number }) {
  await eventually(async () => {
    expect(await figures(tn, path, id)).toEqual(expected);
  });
  // The list answers the same figures.
  expect(await listed(tn, path, id)).toEqual(expected);
}

describe('vendor credits applied by bills', () => {
  it('apply, change, split over two bills, void, delete: appliedAmount and runningBalance follow; more than the remaining balance is a 400 and changes nothing', async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn);
    const credit = await s.api('POST', '/vendors/vendor-credit', {
      tenant: tn,
      body: {
        paymentDate: '2026-03-01',
        vendorId: vendor.id,
        description: 'Returned goods',
        lineItems: [{ description: 'Goods', categoryId: cats['Office Supplies'], amount: 80 }],
      },
    });
    expect(credit.status, credit.text).toBe(201);
    const creditId = credit.body.vendorCredit.id as string;
    const path = '/vendors/vendor-credit';
    expect(await figures(tn, path, creditId)).toEqual({ totalAmount: 80, appliedAmount: 0, runningBalance: 80 });

    const bodyOf = (amount: number) => ({
      billDate: '2026-03-02',
      vendorId: vendor.id,
      lineItems: [{ serviceName: 'Goods', categoryId: cats['Office Supplies'], amount }],
    });
    const b1 = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...bodyOf(100), connectedVendorCredits: [{ id: creditId, amount: 30 }] } });
    expect(b1.status, b1.text).toBe(201);
    const bill1 = b1.body.bill.id as string;
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 30, runningBalance: 50 });

    // A second bill takes 50 more: the credit is used up.
    const b2 = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...bodyOf(60), connectedVendorCredits: [{ id: creditId, amount: 50 }] } });
    expect(b2.status, b2.text).toBe(201);
    const bill2 = b2.body.bill.id as string;
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 80, runningBalance: 0 });

    // More than the remaining balance: a 400 naming the field; nothing changes.
    const over = await s.api('PUT', `/accounting/bill/${bill1}`, {
      tenant: tn,
      body: { ...bodyOf(100), connectedVendorCredits: [{ id: creditId, amount: 30.01 }] },
    });
    expect(over.status).toBe(400);
    expect(fields(over.body)).toEqual([['connectedVendorCredits.0.amount', expect.stringContaining('remaining balance of 30.00')]]);
    expect((await s.api('GET', `/accounting/bill/${bill1}`, { tenant: tn })).body.connectedVendorCredits).toEqual([{ id: creditId, amount: 30 }]);
    const overNew = await s.api('POST', '/accounting/bill/v2', {
      tenant: tn,
      body: { ...bodyOf(10), connectedVendorCredits: [{ id: creditId, amount: 0.01 }] },
    });
    expect(overNew.status).toBe(400);
    expect(fields(overNew.body)[0]![0]).toBe('connectedVendorCredits.0.amount');

    // Edit the first bill down to 10 of the credit (an edit of its lines too: a new version).
    const edited = await s.api('PUT', `/accounting/bill/${bill1}`, {
      tenant: tn,
      body: { ...bodyOf(90), connectedVendorCredits: [{ id: creditId, amount: 10 }] },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.bill).toMatchObject({ version: 2, connectedVendorCredits: [{ id: creditId, amount: 10 }] });
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 60, runningBalance: 20 });

    // Only the application changes (no new version): taken off the first bill.
    const off = await s.api('PUT', `/accounting/bill/${bill1}`, { tenant: tn, body: { ...bodyOf(90) } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ seq: 0, bill: { version: 2, connectedVendorCredits: [] } });
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 50, runningBalance: 30 });

    // Voiding the second bill releases its 50; deleting a bill releases what it applied.
    expect((await s.api('POST', `/accounting/bill/void/${bill2}`, { tenant: tn })).status).toBe(200);
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 0, runningBalance: 80 });
    const again = await s.api('PUT', `/accounting/bill/${bill1}`, {
      tenant: tn,
      body: { ...bodyOf(90), connectedVendorCredits: [{ id: creditId, amount: 80 }] },
    });
    expect(again.status, again.text).toBe(200);
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 80, runningBalance: 0 });
    expect((await s.api('DELETE', `/accounting/bill/${bill1}`, { tenant: tn })).status).toBe(200);
    await follows(tn, path, creditId, { totalAmount: 80, appliedAmount: 0, runningBalance: 80 });
  });
});

describe('credit memos applied by invoices', () => {
  it("an invoice applying a credit memo moves its figures; another workspace's memo is a 404 and moves nothing", async () => {
    const tn = s.tenant();
    const other = s.tenant();
    const cats = await categoryIds(s, tn);
    const customer = await newCustomer(s, tn);
    const memo = await s.api('POST', '/customers/credit-memo', {
      tenant: tn,
      body: {
        paymentDate: '2026-03-02',
        customerId: customer.id,
        refNo: 'CM-1',
        description: 'Discount',
        lineItems: [{ description: 'Discount', categoryId: cats['Sales'], amount: 40 }],
      },
    });
    expect(memo.status, memo.text).toBe(201);
    const memoId = memo.body.creditMemo.id as string;
    const path = '/customers/credit-memo';
    const body = {
      invoiceDate: '2026-03-03',
      customerId: customer.id,
      lineItems: [{ serviceName: 'Plan', categoryId: cats['Sales'], quantity: 2, rate: 50, amount: 100 }],
    };
    const inv = await s.api('POST', '/accounting/invoice/v2', { tenant: tn, body: { ...body, connectedCreditMemos: [{ id: memoId, amount: 25.5 }] } });
    expect(inv.status, inv.text).toBe(201);
    await follows(tn, path, memoId, { totalAmount: 40, appliedAmount: 25.5, runningBalance: 14.5 });

    // Another workspace cannot apply it (404 naming the field), and its figures do not move.
    const otherCustomer = await newCustomer(s, other);
    const otherCats = await categoryIds(s, other);
    const foreign = await s.api('POST', '/accounting/invoice/v2', {
      tenant: other,
      body: {
        invoiceDate: '2026-03-03',
        customerId: otherCustomer.id,
        lineItems: [{ serviceName: 'Plan', categoryId: otherCats['Sales'], quantity: 1, rate: 10, amount: 10 }],
        connectedCreditMemos: [{ id: memoId, amount: 5 }],
      },
    });
    expect(foreign.status).toBe(404);
    expect(fields(foreign.body)[0]![0]).toBe('connectedCreditMemos.0.id');

    expect((await s.api('POST', `/accounting/invoice/void/${inv.body.invoice.id}`, { tenant: tn })).status).toBe(200);
    await follows(tn, path, memoId, { totalAmount: 40, appliedAmount: 0, runningBalance: 40 });
  });
});
