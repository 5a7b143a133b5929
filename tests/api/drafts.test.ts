// Drafts through the real gateway (issue #19 item 5; spec documents-parties-integrations §3 Draft, §5, §7, §8): every
// route, the first-error rule ('Line Item N' prefix, 'At least one line item is required', 'Please fill all recurring
// details'), the §8 conversion messages exactly, the batch result, conversion through the bills' / invoices' own
// creation (balanced ledger entries), once per draft under concurrent and retried calls and across a failure
// mid-batch, Viewer 403, and another workspace's draft ids answering 404 (also inside the comma-joined list and bodies).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryIds, entriesOf, linesOf, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;
let vendor: { id: string; name: string };
/** When above 0, the ledger's check of the Nth document from now fails as an unreachable ledger would (a crash mid-batch). */
let failCheckIn = 0;

beforeAll(async () => {
  s = await startDocumentsSystem('drafts-api', {
    documentLedger: (real) => ({
      ...real,
      check: (tn, p) => {
        if (failCheckIn > 0 && --failCheckIn === 0) return Promise.reject(new Error('the ledger went away'));
        return real.check(tn, p);
      },
    }),
  });
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
  vendor = await newVendor(s, t, 'Paper Mill');
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const fields = (body: { errors?: { field: string; message: string }[] }) => (body.errors ?? []).map((e) => [e.field, e.message]);
const billMeta = (over: Record<string, unknown> = {}) => ({
  billDate: '2026-03-10',
  dueDate: '2026-04-09',
  vendorId: vendor.id,
  invoiceCode: 'INV-1',
  description: 'From a scan',
  lineItems: [{ serviceName: 'Toner', categoryId: c['Office Supplies'], amount: 40 }],
  ...over,
});
async function draft(tn: Tenant, entityType: string, metaData: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const r = await s.api('POST', '/drafts', { tenant: tn, body: { entityType, metaData, ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.draft as { id: string; firstError: { field: string; message: string } | null; metaData: Record<string, unknown> };
}
async function openIds(tn: Tenant, query = ''): Promise<string[]> {
  const r = await s.api('GET', `/drafts?take=100${query}`, { tenant: tn });
  expect(r.status).toBe(200);
  return (r.body.data as { id: string }[]).map((d) => d.id);
}
async function billCount(tn: Tenant): Promise<number> {
  const r = await s.api('GET', '/accounting/bills?take=100', { tenant: tn });
  expect(r.status).toBe(200);
  return r.body.meta.itemCount as number;
}

describe('POST, GET, PATCH /drafts', () => {
  it('saves a bill in progress, lists it with its first error, and posts nothing', async () => {
    const r = await s.api('POST', '/drafts', {
      tenant: t,
      body: {
        entityType: 'bill',
        draftType: 'upload',
        publishedAt: '2026-03-11',
        metaData: { ...billMeta(), vendorId: '', uploadId: '6f9619ff-8b86-4011-b42d-00c04fc964ff', extracted: { merchantName: 'Paper Mill', total: 40 } },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      message: 'Draft saved',
      draft: {
        entityType: 'bill',
        draftType: 'upload',
        publishedDate: '2026-03-11T00:00:00.000Z',
        bulkUploadId: '',
        firstError: { field: 'vendorId', message: 'Vendor is required' },
      },
    });
    expect(r.body.draft.metaData.extracted).toEqual({ merchantName: 'Paper Mill', total: 40 });
    const list = await s.api('GET', '/drafts?entityType=bill', { tenant: t });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).toContain(r.body.draft.id);
    expect(await entriesOf(s, r.body.draft.id)).toEqual([]);
    expect(await billCount(t)).toBe(0);
  });

  it('reports each draft by its FIRST problem, named by field, with the Line Item N prefix (spec §5)', async () => {
    expect((await draft(t, 'bill', billMeta({ lineItems: [] }))).firstError).toEqual({ field: 'lineItems', message: 'At least one line item is required' });
    expect(
      (
        await draft(
          t,
          'bill',
          billMeta({
            lineItems: [
              { serviceName: 'Toner', categoryId: c['Office Supplies'], amount: 40 },
              { serviceName: 'Ink', categoryId: c['Office Supplies'], amount: 0 },
            ],
          }),
        )
      ).firstError,
    ).toEqual({ field: 'lineItems.1.amount', message: 'Line Item 2: amount must be greater than 0' });
    expect((await draft(t, 'bill', billMeta({ lineItems: [{ categoryId: c['Office Supplies'], amount: 5 }] }))).firstError).toEqual({
      field: 'lineItems.0.serviceName',
      message: 'Line Item 1: serviceName is required',
    });
    expect((await draft(t, 'bill', billMeta({ recurringStartDate: '2026-04-01', interval: 'monthly' }))).firstError).toEqual({
      field: 'recurringEndDate',
      message: 'Please fill all recurring details',
    });
    expect((await draft(t, 'bill', billMeta({ isRecurring: true }))).firstError).toEqual({
      field: 'recurringStartDate',
      message: 'Please fill all recurring details',
    });
    expect((await draft(t, 'bill', billMeta({ billDate: '' }))).firstError).toEqual({ field: 'billDate', message: 'billDate is required' });
    const customer = await newCustomer(s, t);
    expect(
      (
        await draft(t, 'invoice', {
          invoiceDate: '2026-03-10',
          customerId: customer.id,
          lineItems: [{ serviceName: 'Work', categoryId: c['Sales'] ?? c['Office Supplies'], quantity: 2, rate: 10, amount: 25 }],
        })
      ).firstError,
    ).toEqual({ field: 'lineItems.0.amount', message: 'Line Item 1: Amount must equal quantity multiplied by rate' });
    expect((await draft(t, 'bill', billMeta())).firstError).toBeNull();
  });

  it('refuses bad input naming the field, and nothing is saved', async () => {
    const before = await openIds(t);
    const cases: [unknown, string, string][] = [
      [{ metaData: {} }, 'entityType', 'entityType is required'],
      [{ entityType: 'receipt' }, 'entityType', 'entityType must be one of: bill, invoice'],
      [{ entityType: 'bill', draftType: 'fax' }, 'draftType', 'draftType must be one of: manual, upload, bulk_upload, email'],
      [{ entityType: 'bill', publishedAt: 'yesterday' }, 'publishedAt', 'publishedAt must be a date (YYYY-MM-DD) or an ISO date-time'],
      [{ entityType: 'bill', bulkUploadId: 'batch-7' }, 'bulkUploadId', 'bulkUploadId must be a UUID'],
    ];
    for (const [body, field, message] of cases) {
      const r = await s.api('POST', '/drafts', { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body)).toContainEqual([field, message]);
    }
    const shape = await s.api('POST', '/drafts', { tenant: t, body: { entityType: 'bill', metaData: { lineItems: 'many' } } });
    expect(shape.status).toBe(400);
    expect(JSON.stringify(shape.body.errors)).toContain('lineItems');
    const viewer = await s.api('POST', '/drafts', { token: t.viewerToken, tenant: { ...t, token: t.viewerToken }, body: { entityType: 'bill' } });
    expect(viewer.status).toBe(403);
    expect(viewer.body.message).toBe(VIEWER_MESSAGE);
    expect(await openIds(t)).toEqual(before);
  });

  it("another workspace's vendor or category inside metaData is a 404 naming it", async () => {
    const theirs = await newVendor(s, other, 'Theirs');
    const r = await s.api('POST', '/drafts', { tenant: t, body: { entityType: 'bill', metaData: billMeta({ vendorId: theirs.id }) } });
    expect(r.status).toBe(404);
    expect(fields(r.body)).toEqual([['metaData.vendorId', 'Vendor not found']]);
    const theirCategory = (await categoryIds(s, other))['Office Supplies'];
    const r2 = await s.api('POST', '/drafts', {
      tenant: t,
      body: { entityType: 'bill', metaData: billMeta({ lineItems: [{ serviceName: 'x', categoryId: theirCategory, amount: 1 }] }) },
    });
    expect(r2.status).toBe(404);
    expect(fields(r2.body)).toEqual([['metaData.lineItems.0.categoryId', 'Category not found']]);
    // A bulk upload or an uploaded file belongs to the workspace whose drafts first named it.
    const batch = '9a1c2e5d-7f8a-4b0c-8d4a-4f7b3f2b8c1e';
    const file = '2e5d7f8a-9b0c-4f7b-9a1c-3f2b8c1e6d4a';
    await draft(other, 'bill', { uploadId: file }, { bulkUploadId: batch });
    const bulk = await s.api('POST', '/drafts', { tenant: t, body: { entityType: 'bill', bulkUploadId: batch } });
    expect(bulk.status).toBe(404);
    expect(fields(bulk.body)).toEqual([['bulkUploadId', 'Bulk upload not found']]);
    const upload = await s.api('POST', '/drafts', { tenant: t, body: { entityType: 'bill', metaData: { uploadId: file } } });
    expect(upload.status).toBe(404);
    expect(fields(upload.body)).toEqual([['metaData.uploadId', 'Upload not found']]);
    expect((await s.api('GET', `/drafts?bulkUploadId=${batch}`, { tenant: t })).status).toBe(404);
    expect((await s.api('GET', `/drafts?bulkUploadId=${batch}`, { tenant: other })).status).toBe(200);
  });

  it("PATCH replaces metaData and recomputes the first error; another workspace's draft is a 404 and stays as it was", async () => {
    const d = await draft(t, 'bill', billMeta({ lineItems: [] }));
    const r = await s.api('PATCH', '/drafts', { tenant: t, body: { id: d.id, metaData: billMeta({ invoiceCode: 'INV-9' }), draftType: 'email' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.draft).toMatchObject({ id: d.id, draftType: 'email', firstError: null, metaData: { invoiceCode: 'INV-9' } });
    const theirs = await s.api('PATCH', '/drafts', { tenant: other, body: { id: d.id, metaData: {} } });
    expect(theirs.status).toBe(404);
    expect(fields(theirs.body)).toEqual([['id', 'Draft not found']]);
    const bad = await s.api('PATCH', '/drafts', { tenant: t, body: { id: d.id, draftType: 'fax' } });
    expect(bad.status).toBe(400);
    const list = await s.api('GET', '/drafts?take=100', { tenant: t });
    expect(list.body.data.find((x: { id: string }) => x.id === d.id)).toMatchObject({ draftType: 'email', metaData: { invoiceCode: 'INV-9' } });
  });

  it('GET /drafts pages and filters, refusing bad query values by name', async () => {
    expect((await s.api('GET', '/drafts?take=0', { tenant: t })).status).toBe(400);
    const r = await s.api('GET', '/drafts?draftType=fax', { tenant: t });
    expect(r.status).toBe(400);
    expect(fields(r.body)).toContainEqual(['draftType', 'draftType must be one of: manual, upload, bulk_upload, email']);
    const page = await s.api('GET', '/drafts?take=1&page=1', { tenant: t });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta).toMatchObject({ page: 1, take: 1, hasNextPage: true });
    const mine = await openIds(t);
    expect(mine.length).toBeGreaterThan(1);
    expect((await openIds(other)).filter((id) => mine.includes(id))).toEqual([]);
  });
});

describe('POST /accounting/drafts/create-bills and create-invoices', () => {
  it('creates each valid draft as a bill with its balanced entry; the §8 message counts created and failed', async () => {
    const a = await draft(t, 'bill', billMeta({ invoiceCode: 'A-1' }));
    const b = await draft(t, 'bill', billMeta({ invoiceCode: 'B-1', lineItems: [{ serviceName: 'Paper', categoryId: c['Office Supplies'], amount: 12.5 }] }));
    const bad = await draft(t, 'bill', billMeta({ lineItems: [] }));
    const before = await billCount(t);
    const r = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [a.id, b.id, bad.id] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ message: '2 bills created, 1 failed.', createdCount: 2, failedCount: 1, success: false, deletedCount: 2 });
    expect(r.body.results[2]).toEqual({ draftId: bad.id, documentId: '', error: { field: 'lineItems', message: 'At least one line item is required' } });
    expect(await billCount(t)).toBe(before + 2);
    const bill = await s.api('GET', `/accounting/bill/${r.body.results[1].documentId}`, { tenant: t });
    expect(bill.body).toMatchObject({ invoiceCode: 'B-1', totalAmount: 12.5, vendor: { id: vendor.id }, status: 'Posted' });
    const lines = await linesOf(s, [bill.body.journalEntryId]);
    expect(lines.filter((l) => l.direction === 'debit').reduce((x, l) => x + l.amount_cents, 0)).toBe(1250);
    expect(lines.filter((l) => l.direction === 'credit').reduce((x, l) => x + l.amount_cents, 0)).toBe(1250);
    const open = await openIds(t);
    expect(open).toContain(bad.id);
    expect(open).not.toContain(a.id);
    expect(open).not.toContain(b.id);
  });

  it('all failed: "Failed to create {n} bills"; none failed: "{n} invoices created"', async () => {
    const x = await draft(t, 'bill', billMeta({ vendorId: '' }));
    const y = await draft(t, 'bill', billMeta({ lineItems: [] }));
    const r = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [x.id, y.id] } });
    expect(r.body).toMatchObject({ message: 'Failed to create 2 bills', createdCount: 0, failedCount: 2, success: false, deletedCount: 0 });
    expect(r.body.results.map((q: { error: { field: string } }) => q.error.field)).toEqual(['vendorId', 'lineItems']);

    const customer = await newCustomer(s, t);
    const income = c['Sales'] ?? c['Office Supplies'];
    const inv = (ref: string) => ({
      invoiceDate: '2026-03-10',
      customerId: customer.id,
      referenceNo: ref,
      lineItems: [{ serviceName: 'Work', categoryId: income, quantity: 2, rate: 10, amount: 20 }],
    });
    const i1 = await draft(t, 'invoice', inv('R-1'));
    const i2 = await draft(t, 'invoice', inv('R-2'));
    const ok = await s.api('POST', '/accounting/drafts/create-invoices', { tenant: t, body: { draftIds: [i1.id, i2.id] } });
    expect(ok.body).toMatchObject({ message: '2 invoices created', createdCount: 2, failedCount: 0, success: true, deletedCount: 2 });
    const one = await s.api('GET', `/accounting/invoice/${ok.body.results[0].documentId}`, { tenant: t });
    expect(one.body).toMatchObject({ referenceNo: 'R-1', totalAmount: 20, customer: { id: customer.id } });

    const none = await s.api('POST', '/accounting/drafts/create-invoices', { tenant: t, body: { draftIds: [y.id] } });
    expect(none.body).toMatchObject({ message: 'Failed to create 1 invoices', failedCount: 1 });
    expect(none.body.results[0].error).toEqual({ field: 'entityType', message: 'This draft is a bill, not an invoice' });
  });

  it('a draft asking to recur becomes a recurring bill', async () => {
    const d = await draft(t, 'bill', billMeta({ recurringStartDate: '2026-05-01', recurringEndDate: '2026-07-31', interval: 'monthly' }));
    const r = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [d.id] } });
    expect(r.body.createdCount).toBe(1);
    const bill = await s.api('GET', `/accounting/bill/${r.body.results[0].documentId}`, { tenant: t });
    expect(bill.body.recurrence).toMatchObject({
      isRecurredParent: true,
      recurringStartDate: '2026-05-01',
      recurringEndDate: '2026-07-31',
      interval: 'monthly',
    });
  });

  it("the vendor's refusal at creation is the draft's error (a vendor deleted since)", async () => {
    const gone = await newVendor(s, t, 'Soon gone');
    const d = await draft(t, 'bill', billMeta({ vendorId: gone.id }));
    expect((await s.api('DELETE', `/vendors/${gone.id}`, { tenant: t })).status).toBeLessThan(300);
    const r = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [d.id] } });
    expect(r.body).toMatchObject({ message: 'Failed to create 1 bills', failedCount: 1 });
    expect(r.body.results[0].error).toEqual({ field: 'vendorId', message: 'Vendor not found' });
  });

  it('two concurrent calls with the same draftIds make one bill per draft, and a retry answers the same bills', async () => {
    const ds = [];
    for (let i = 0; i < 4; i++) ds.push(await draft(t, 'bill', billMeta({ invoiceCode: `C-${i}` })));
    const ids = ds.map((d) => d.id);
    const before = await billCount(t);
    const [r1, r2] = await Promise.all([
      s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: ids } }),
      s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [...ids].reverse() } }),
    ]);
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect(await billCount(t)).toBe(before + 4);
    const docs = (r: { body: { results: { draftId: string; documentId: string }[] } }) =>
      Object.fromEntries(r.body.results.map((x) => [x.draftId, x.documentId]));
    expect(docs(r2)).toEqual(docs(r1));
    expect(r1.body).toMatchObject({ message: '4 bills created', createdCount: 4 });
    const again = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: ids } });
    expect(docs(again)).toEqual(docs(r1));
    expect(await billCount(t)).toBe(before + 4);
    for (const id of Object.values(docs(r1))) expect((await entriesOf(s, id)).filter((e) => e.source_type === 'Bill')).toHaveLength(1);
  });

  it('a failure mid-batch loses nothing and duplicates nothing: the retry converts the rest once', async () => {
    const ds = [];
    for (let i = 0; i < 3; i++) ds.push(await draft(t, 'bill', billMeta({ invoiceCode: `F-${i}` })));
    const ids = ds.map((d) => d.id);
    const before = await billCount(t);
    failCheckIn = 2;
    const broken = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: ids } });
    expect(broken.status).toBeGreaterThanOrEqual(500);
    // The first draft became a bill (document and consumed draft committed together); the second rolled back whole.
    expect(await billCount(t)).toBe(before + 1);
    const open = await openIds(t);
    expect(open).not.toContain(ids[0]);
    expect(open).toEqual(expect.arrayContaining([ids[1], ids[2]]));
    const retry = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: ids } });
    expect(retry.body).toMatchObject({ message: '3 bills created', createdCount: 3, failedCount: 0 });
    expect(await billCount(t)).toBe(before + 3);
    const bills = await s.api('GET', '/accounting/bills?take=100', { tenant: t });
    const codes = (bills.body.data as { invoiceCode: string }[])
      .map((b) => b.invoiceCode)
      .filter((x) => x.startsWith('F-'))
      .sort();
    expect(codes).toEqual(['F-0', 'F-1', 'F-2']);
  });

  it("refuses an empty or malformed list, a Viewer, and another workspace's draft id (404, nothing created)", async () => {
    const mine = await draft(t, 'bill', billMeta());
    const theirs = await draft(other, 'bill', {});
    const empty = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [] } });
    expect(empty.status).toBe(400);
    expect(fields(empty.body)).toEqual([['draftIds', 'At least one draft is required']]);
    const notUuid = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: ['x'] } });
    expect(fields(notUuid.body)).toEqual([['draftIds', 'draftIds must hold UUIDs']]);
    const before = await billCount(t);
    const foreign = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [mine.id, theirs.id] } });
    expect(foreign.status).toBe(404);
    expect(fields(foreign.body)).toEqual([['draftIds', 'Draft not found']]);
    expect(await billCount(t)).toBe(before);
    expect(await openIds(t)).toContain(mine.id);
    const viewer = await s.api('POST', '/accounting/drafts/create-bills', {
      token: t.viewerToken,
      tenant: { ...t, token: t.viewerToken },
      body: { draftIds: [mine.id] },
    });
    expect(viewer.status).toBe(403);
  });

  it('PATCH of a converted draft is refused (409)', async () => {
    const d = await draft(t, 'bill', billMeta());
    await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [d.id] } });
    const r = await s.api('PATCH', '/drafts', { tenant: t, body: { id: d.id, metaData: {} } });
    expect(r.status).toBe(409);
    expect(fields(r.body)).toEqual([['id', 'This draft was converted already']]);
  });
});

describe('DELETE /drafts and /drafts/bulk-delete', () => {
  it("deletes the listed drafts (comma-joined); another workspace's id inside the list is a 404 and nothing is deleted", async () => {
    const a = await draft(t, 'bill', {});
    const b = await draft(t, 'invoice', {});
    const theirs = await draft(other, 'bill', {});
    const foreign = await s.api('DELETE', `/drafts?draftIds=${a.id},${theirs.id}`, { tenant: t });
    expect(foreign.status).toBe(404);
    expect(fields(foreign.body)).toEqual([['draftIds', 'Draft not found']]);
    expect(await openIds(t)).toEqual(expect.arrayContaining([a.id, b.id]));
    const r = await s.api('DELETE', `/drafts?draftIds=${a.id},${b.id}`, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: '2 drafts deleted', deletedCount: 2, success: true, createdCount: 0, failedCount: 0 });
    const open = await openIds(t);
    expect(open).not.toContain(a.id);
    expect(open).not.toContain(b.id);
    const again = await s.api('DELETE', `/drafts?draftIds=${a.id}`, { tenant: t });
    expect(again.body).toMatchObject({ deletedCount: 0, success: true });
    const converted = await s.api('POST', '/accounting/drafts/create-bills', { tenant: t, body: { draftIds: [a.id] } });
    expect(converted.status).toBe(404);
    const bad = await s.api('DELETE', '/drafts?draftIds=nope', { tenant: t });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual([['draftIds', 'draftIds must hold UUIDs']]);
    expect(await openIds(other)).toContain(theirs.id);
  });

  it('bulk-delete removes the open drafts of one bulk upload only; an unknown bulk upload is a 404', async () => {
    const batch = '3f2b8c1e-6d4a-4f7b-9a1c-2e5d7f8a9b0c';
    const x = await draft(t, 'bill', {}, { bulkUploadId: batch, draftType: 'bulk_upload' });
    const y = await draft(t, 'invoice', {}, { bulkUploadId: batch, draftType: 'bulk_upload' });
    const keep = await draft(t, 'bill', {});
    expect(await openIds(t, `&bulkUploadId=${batch}`)).toEqual([x.id, y.id]);
    const theirs = await s.api('DELETE', `/drafts/bulk-delete?bulkUploadId=${batch}`, { tenant: other });
    expect(theirs.status).toBe(404);
    expect(fields(theirs.body)).toEqual([['bulkUploadId', 'Bulk upload not found']]);
    const r = await s.api('DELETE', `/drafts/bulk-delete?bulkUploadId=${batch}`, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: '2 drafts deleted', deletedCount: 2, success: true });
    expect(await openIds(t, `&bulkUploadId=${batch}`)).toEqual([]);
    expect(await openIds(t)).toContain(keep.id);
    const again = await s.api('DELETE', `/drafts/bulk-delete?bulkUploadId=${batch}`, { tenant: t });
    expect(again.body).toMatchObject({ deletedCount: 0 });
    expect((await s.api('DELETE', '/drafts/bulk-delete?bulkUploadId=x', { tenant: t })).status).toBe(400);
  });
});
