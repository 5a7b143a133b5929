// Idempotent creates (RELIABILITY 3) of bills, invoices and manual journals through the gateway: 50 concurrent
// POSTs with one Idempotency-Key make one document and one ledger entry and get 50 identical answers; the same key
// with another body is refused (409 naming Idempotency-Key) and changes nothing; keys are scoped per workspace and
// per kind; a malformed key is a 400 naming it. Without the header every POST is a new document, as before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { categoryIds, entriesOf, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;
beforeAll(async () => {
  s = await startDocumentsSystem('documents-idempotency');
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const count = async (path: string, tn: Tenant) => ((await s.api('GET', `${path}?take=100`, { tenant: tn })).body.data as unknown[]).length;

it('50 concurrent creates with one key: one bill, one entry, 50 identical answers; another body with the key is refused', async () => {
  const vendor = await newVendor(s, t);
  const body = {
    billDate: '2027-01-15',
    dueDate: '2027-02-15',
    vendorId: vendor.id,
    invoiceCode: 'IDEM-1',
    lineItems: [{ serviceName: 'Paper', categoryId: c['Office Supplies'], amount: 42.5 }],
  };
  const key = 'create-bill-7f3a';
  const before = await count('/accounting/bills', t);
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => s.api('POST', '/accounting/bill/v2', { tenant: t, body, headers: { 'Idempotency-Key': key } })),
  );
  for (const a of answers) expect(a.status, a.text).toBe(201);
  const ids = new Set(answers.map((a) => a.body.bill.id as string));
  expect(ids.size).toBe(1);
  const distinct = [...new Set(answers.map((a) => JSON.stringify(a.body)))];
  if (distinct.length > 1) console.warn(distinct.join('\n'));
  expect(distinct.length).toBe(1);
  expect(await count('/accounting/bills', t)).toBe(before + 1);
  const [id] = [...ids];
  expect(await entriesOf(s, id!)).toHaveLength(1);

  const changed = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { ...body, invoiceCode: 'IDEM-2' }, headers: { 'Idempotency-Key': key } });
  expect(changed.status).toBe(409);
  expect(changed.body).toMatchObject({ appErrorCode: 'IDEMPOTENCY_KEY_REUSED', errors: [{ field: 'Idempotency-Key' }] });
  expect(await count('/accounting/bills', t)).toBe(before + 1);

  // Without the header, the same body is a second bill.
  expect((await s.api('POST', '/accounting/bill/v2', { tenant: t, body })).status).toBe(201);
  expect(await count('/accounting/bills', t)).toBe(before + 2);
});

it('keys are scoped per workspace and per kind of document; a malformed key is a 400 naming it and nothing is made', async () => {
  const key = 'shared-key-1';
  const customer = await newCustomer(s, t);
  const invoice = {
    invoiceDate: '2027-01-15',
    dueDate: '2027-02-15',
    customerId: customer.id,
    referenceNo: 'INV-IDEM',
    lineItems: [{ serviceName: 'Advice', categoryId: c['Sales'], quantity: 2, rate: 50, amount: 100 }],
  };
  const first = await s.api('POST', '/accounting/invoice/v2', { tenant: t, body: invoice, headers: { 'Idempotency-Key': key } });
  expect(first.status, first.text).toBe(201);
  const journal = {
    memo: 'Accrual',
    postingDate: '2027-01-31',
    lineItems: [
      { categoryId: c['Office Supplies'], amount: 10, type: 'debit' },
      { categoryId: c['Sales'], amount: 10, type: 'credit' },
    ],
  };
  const otherKind = await s.api('POST', '/accounting/manual-entry/v2', { tenant: t, body: journal, headers: { 'Idempotency-Key': key } });
  expect(otherKind.status, otherKind.text).toBe(201);
  expect(otherKind.body.manualEntry.id).not.toBe(first.body.invoice.id);

  const oc = await categoryIds(s, other);
  const theirs = await newCustomer(s, other);
  const elsewhere = await s.api('POST', '/accounting/invoice/v2', {
    tenant: other,
    body: { ...invoice, customerId: theirs.id, lineItems: [{ ...invoice.lineItems[0], categoryId: oc['Sales'] }] },
    headers: { 'Idempotency-Key': key },
  });
  expect(elsewhere.status, elsewhere.text).toBe(201);
  expect(elsewhere.body.invoice.id).not.toBe(first.body.invoice.id);

  const before = await count('/accounting/invoices', t);
  for (const bad of ['', 'x'.repeat(256), 'has space', 'caf\u00e9']) {
    const r = await s.api('POST', '/accounting/invoice/v2', { tenant: t, body: { ...invoice, referenceNo: 'INV-BAD' }, headers: { 'Idempotency-Key': bad } });
    expect(r.status, JSON.stringify(bad)).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
  }
  expect(await count('/accounting/invoices', t)).toBe(before);
});
