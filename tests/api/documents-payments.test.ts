// Issue #18 items 3–4 (rest): the invoice PDF (its text extracted by pdftotext, Debian's poppler-utils, which .ci/run
// installs), payments by manual journals, vendor credits and credit memos, the suggestions, and a vendor merge moving
// bills — through the real gateway, ledger, parties and documents services.
import { execFileSync } from 'node:child_process';
import { EventType, publishEvent } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryIds, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;

beforeAll(async () => {
  s = await startDocumentsSystem('documents-payments');
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

/** The PDF's text as pdftotext lays it out (-layout keeps each table row on one line). */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}
async function pdfOf(path: string, tn: Tenant): Promise<{ status: number; headers: Headers; pdf: Buffer; body: unknown }> {
  const res = await fetch(`${s.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId }, signal: AbortSignal.timeout(30_000) });
  const pdf = Buffer.from(await res.arrayBuffer());
  let body: unknown;
  try { body = JSON.parse(pdf.toString('utf8')); } catch { body = undefined; }
  return { status: res.status, headers: res.headers, pdf, body };
}

describe('GET /invoice/{id}/pdf', () => {
  it('renders the invoice: the workspace profile as the company, the customer, each line with qty / rate / amount, subtotal, total, dates and number', async () => {
    s.identity.handlers.listWorkspaces = () => ({ workspaces: [{ id: t.workspaceId, name: 'Northwind Studio LLC', address: '12 Harbor Street, Portland, OR 97201', isDefault: true, role: 'Owner' }] });
    const customer = await newCustomer(s, t, 'Globex Corporation');
    const income = c['Consulting Revenue'] ?? c['Sales'];
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2026-05-04', dueDate: '2026-06-03', customerId: customer.id, referenceNo: 'INV-2026-014', description: 'May engagement',
        lineItems: [{ serviceName: 'Strategy workshop', categoryId: income, quantity: 3, rate: 1250, amount: 3750 }, { serviceName: 'Travel days', categoryId: income, quantity: 2.5, rate: 80.1, amount: 200.25 }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const a = await pdfOf(`/invoice/${r.body.invoice.id}/pdf`, t);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/pdf');
    expect(a.headers.get('content-disposition')).toBe('attachment; filename="invoice_inv-2026-014_2026-05-04.pdf"');
    expect(a.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(a.pdf);
    expect(text).toContain('Northwind Studio LLC');
    expect(text).toContain('12 Harbor Street, Portland, OR 97201');
    expect(text).toContain('INVOICE');
    expect(text).toContain('Globex Corporation');
    expect(text).toMatch(/Invoice no\.\s+INV-2026-014/);
    expect(text).toMatch(/Invoice date\s+May 4, 2026/);
    expect(text).toMatch(/Due date\s+Jun 3, 2026/);
    expect(text).toMatch(/Strategy workshop\s+3\s+\$1,250\.00\s+\$3,750\.00/);
    expect(text).toMatch(/Travel days\s+2\.5\s+\$80\.10\s+\$200\.25/);
    expect(text).toMatch(/Subtotal\s+\$3,950\.25/);
    expect(text).toMatch(/Total\s+\$3,950\.25/);
    expect(text).toMatch(/Balance due\s+\$3,950\.25/);
  });

  it('the invoice\'s own companyName and companyAddress win over the profile; a Viewer may download it', async () => {
    const customer = await newCustomer(s, t, 'Initech');
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2026-07-01', dueDate: '2026-07-31', customerId: customer.id, companyName: 'Northwind Design Division', companyAddress: '1 Market Square, Boston, MA',
        lineItems: [{ serviceName: 'Logo', categoryId: c['Consulting Revenue'] ?? c['Sales'], quantity: 1, rate: 99.99, amount: 99.99 }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const a = await pdfOf(`/invoice/${r.body.invoice.id}/pdf`, { ...t, token: t.viewerToken });
    expect(a.status).toBe(200);
    const text = pdfText(a.pdf);
    expect(text).toContain('Northwind Design Division');
    expect(text).toContain('1 Market Square, Boston, MA');
    expect(text).not.toContain('Northwind Studio LLC');
    expect(text).toContain('Initech');
    expect(text).toMatch(/Due date\s+Jul 31, 2026/);
    expect(text).toMatch(/Total\s+\$99\.99/);
    // No reference: the number is the id's last 6 characters in upper case (spec §5 short ids).
    expect(text).toContain(`INV-${(r.body.invoice.id as string).replace(/-/g, '').slice(-6).toUpperCase()}`);
  });

  it('another workspace\'s invoice, a bill\'s id and an unknown id answer 404; a malformed id 400', async () => {
    const customer = await newCustomer(s, t);
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t, body: { invoiceDate: '2026-07-01', customerId: customer.id, lineItems: [{ serviceName: 'X', categoryId: c['Consulting Revenue'] ?? c['Sales'], quantity: 1, rate: 5, amount: 5 }] },
    });
    expect(r.status).toBe(201);
    const foreign = await s.api('GET', `/invoice/${r.body.invoice.id}/pdf`, { tenant: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].field).toBe('id');
    expect((await s.api('GET', '/invoice/7d4f1c2a-0000-4000-8000-000000000000/pdf', { tenant: t })).status).toBe(404);
    const vendor = await newVendor(s, t);
    const bill = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { billDate: '2026-07-01', vendorId: vendor.id, lineItems: [{ serviceName: 'Paper', categoryId: c['Office Supplies'], amount: 5 }] } });
    expect(bill.status).toBe(201);
    expect((await s.api('GET', `/invoice/${bill.body.bill.id}/pdf`, { tenant: t })).status).toBe(404);
    const bad = await s.api('GET', '/invoice/not-a-uuid/pdf', { tenant: t });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id');
  });
});

describe('a vendor merge moves the merged vendors\' bills (documents consumes vendor.changed)', () => {
  const bill = async (tn: Tenant, vendorId: string, amount: number, category: string) => {
    const r = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { billDate: '2026-02-01', vendorId, lineItems: [{ serviceName: 'Goods', categoryId: category, amount }] } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.bill as { id: string; version: number; journalEntryId: string };
  };
  const inboxHas = (eventId: string) => expectEventually(async () => {
    expect(await s.documentsDb.adminDb('inbox').where({ event_id: eventId }).first()).toBeDefined();
  }, { timeoutMs: 20_000 });

  it('POST /vendors/merge: every bill of the merged vendors (a voided one too) names the kept vendor; the books and versions do not change; a replay moves nothing', async () => {
    const kept = await newVendor(s, t, 'Acme Supplies Inc');
    const dupA = await newVendor(s, t, 'ACME supplies');
    const dupB = await newVendor(s, t, 'Acme Supply Co');
    const bystander = await newVendor(s, t, 'Unrelated Vendor');
    const k1 = await bill(t, kept.id, 10, c['Office Supplies']!);
    const a1 = await bill(t, dupA.id, 20, c['Office Supplies']!);
    const a2 = await bill(t, dupA.id, 30, c['Office Supplies']!);
    const b1 = await bill(t, dupB.id, 40, c['Office Supplies']!);
    const by = await bill(t, bystander.id, 50, c['Office Supplies']!);
    expect((await s.api('POST', `/accounting/bill/void/${a2.id}`, { tenant: t })).status).toBe(200);
    const otherCats = await categoryIds(s, other);
    const foreignVendor = await newVendor(s, other, 'Foreign');
    const foreignBill = await bill(other, foreignVendor.id, 60, otherCats['Office Supplies']!);

    const merge = await s.api('POST', '/vendors/merge', { tenant: t, body: { parentVendorId: kept.id, mergingVendorsId: [dupA.id, dupB.id] } });
    expect(merge.status, JSON.stringify(merge.body)).toBe(200);

    await expectEventually(async () => {
      const listed = await s.api('GET', `/accounting/bills?vendorId=${kept.id}`, { tenant: t });
      expect(listed.status).toBe(200);
      expect((listed.body.data as { id: string }[]).map((d) => d.id).sort()).toEqual([k1.id, a1.id, a2.id, b1.id].sort());
    }, { timeoutMs: 20_000 });
    for (const moved of [a1, a2, b1]) {
      const got = await s.api('GET', `/accounting/bill/${moved.id}`, { tenant: t });
      expect(got.body).toMatchObject({ vendor: { id: kept.id, name: 'Acme Supplies Inc' }, billerName: 'Acme Supplies Inc', version: moved.id === a2.id ? 2 : 1 });
    }
    expect((await s.api('GET', `/accounting/bill/${a1.id}`, { tenant: t })).body.journalEntryId).toBe(a1.journalEntryId);
    expect((await s.api('GET', `/accounting/bill/${by.id}`, { tenant: t })).body.vendor).toEqual({ id: bystander.id, name: 'Unrelated Vendor' });
    expect((await s.api('GET', `/accounting/bill/${foreignBill.id}`, { tenant: other })).body.vendor).toEqual({ id: foreignVendor.id, name: 'Foreign' });

    // The same merge again as a new event (a replay from the stream): nothing left to move, nothing else touched.
    const before = await s.documentsDb.adminDb('documents').orderBy('id').select('id', 'party_id', 'party_name', 'version', 'updated_at');
    const replay = await publishEvent(s.bus, 'parties', { type: EventType.VendorChanged, workspaceId: t.workspaceId, payload: { vendorId: dupA.id, change: 'merged', name: 'ACME supplies', status: 'active', mergedIntoVendorId: kept.id } });
    await inboxHas(replay);
    expect(await s.documentsDb.adminDb('documents').orderBy('id').select('id', 'party_id', 'party_name', 'version', 'updated_at')).toEqual(before);

    // A merge event of one workspace never touches another's bills, even naming that workspace's vendor.
    const cross = await publishEvent(s.bus, 'parties', { type: EventType.VendorChanged, workspaceId: t.workspaceId, payload: { vendorId: foreignVendor.id, change: 'merged', name: 'Foreign', status: 'active', mergedIntoVendorId: kept.id } });
    await inboxHas(cross);
    expect((await s.api('GET', `/accounting/bill/${foreignBill.id}`, { tenant: other })).body.vendor).toEqual({ id: foreignVendor.id, name: 'Foreign' });
  });
});
