// Issue #18 items 3–4 (rest): the invoice PDF (its text extracted by pdftotext, Debian's poppler-utils, which .ci/run
// installs), payments by manual journals, vendor credits and credit memos, the suggestions, and a vendor merge moving
// bills — through the real gateway, ledger, parties and documents services.
import { execFileSync } from 'node:child_process';
import { EventType, publishEvent } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOfKey,
  bankTransactions,
  categoryIds,
  debitBalance,
  newCustomer,
  newVendor,
  startDocumentsSystem,
  type DocumentsSystem,
  type Tenant,
} from './documents.harness.js';

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
  const res = await fetch(`${s.gatewayUrl}${path}`, {
    headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId },
    signal: AbortSignal.timeout(30_000),
  });
  const pdf = Buffer.from(await res.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(pdf.toString('utf8'));
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, pdf, body };
}

describe('GET /invoice/{id}/pdf', () => {
  it('renders the invoice: the workspace profile as the company, the customer, each line with qty / rate / amount, subtotal, total, dates and number', async () => {
    s.identity.handlers.listWorkspaces = () => ({
      workspaces: [{ id: t.workspaceId, name: 'Northwind Studio LLC', address: '12 Harbor Street, Portland, OR 97201', isDefault: true, role: 'Owner' }],
    });
    const customer = await newCustomer(s, t, 'Globex Corporation');
    const income = c['Consulting Revenue'] ?? c['Sales'];
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2026-05-04',
        dueDate: '2026-06-03',
        customerId: customer.id,
        referenceNo: 'INV-2026-014',
        description: 'May engagement',
        lineItems: [
          { serviceName: 'Strategy workshop', categoryId: income, quantity: 3, rate: 1250, amount: 3750 },
          { serviceName: 'Travel days', categoryId: income, quantity: 2.5, rate: 80.1, amount: 200.25 },
        ],
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

  it("the invoice's own companyName and companyAddress win over the profile; a Viewer may download it", async () => {
    const customer = await newCustomer(s, t, 'Initech');
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2026-07-01',
        dueDate: '2026-07-31',
        customerId: customer.id,
        companyName: 'Northwind Design Division',
        companyAddress: '1 Market Square, Boston, MA',
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

  it("another workspace's invoice, a bill's id and an unknown id answer 404; a malformed id 400", async () => {
    const customer = await newCustomer(s, t);
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2026-07-01',
        customerId: customer.id,
        lineItems: [{ serviceName: 'X', categoryId: c['Consulting Revenue'] ?? c['Sales'], quantity: 1, rate: 5, amount: 5 }],
      },
    });
    expect(r.status).toBe(201);
    const foreign = await s.api('GET', `/invoice/${r.body.invoice.id}/pdf`, { tenant: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].field).toBe('id');
    expect((await s.api('GET', '/invoice/7d4f1c2a-0000-4000-8000-000000000000/pdf', { tenant: t })).status).toBe(404);
    const vendor = await newVendor(s, t);
    const bill = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { billDate: '2026-07-01', vendorId: vendor.id, lineItems: [{ serviceName: 'Paper', categoryId: c['Office Supplies'], amount: 5 }] },
    });
    expect(bill.status).toBe(201);
    expect((await s.api('GET', `/invoice/${bill.body.bill.id}/pdf`, { tenant: t })).status).toBe(404);
    const bad = await s.api('GET', '/invoice/not-a-uuid/pdf', { tenant: t });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id');
  });
});

describe("a vendor merge moves the merged vendors' bills (documents consumes vendor.changed)", () => {
  const bill = async (tn: Tenant, vendorId: string, amount: number, category: string) => {
    const r = await s.api('POST', '/accounting/bill/v2', {
      tenant: tn,
      body: { billDate: '2026-02-01', vendorId, lineItems: [{ serviceName: 'Goods', categoryId: category, amount }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.bill as { id: string; version: number; journalEntryId: string };
  };
  const inboxHas = (eventId: string) =>
    expectEventually(
      async () => {
        expect(await s.documentsDb.adminDb('inbox').where({ event_id: eventId }).first()).toBeDefined();
      },
      { timeoutMs: 20_000 },
    );

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

    await expectEventually(
      async () => {
        const listed = await s.api('GET', `/accounting/bills?vendorId=${kept.id}`, { tenant: t });
        expect(listed.status).toBe(200);
        expect((listed.body.data as { id: string }[]).map((d) => d.id).sort()).toEqual([k1.id, a1.id, a2.id, b1.id].sort());
      },
      { timeoutMs: 20_000 },
    );
    for (const moved of [a1, a2, b1]) {
      const got = await s.api('GET', `/accounting/bill/${moved.id}`, { tenant: t });
      expect(got.body).toMatchObject({
        vendor: { id: kept.id, name: 'Acme Supplies Inc' },
        billerName: 'Acme Supplies Inc',
        version: moved.id === a2.id ? 2 : 1,
      });
    }
    expect((await s.api('GET', `/accounting/bill/${a1.id}`, { tenant: t })).body.journalEntryId).toBe(a1.journalEntryId);
    expect((await s.api('GET', `/accounting/bill/${by.id}`, { tenant: t })).body.vendor).toEqual({ id: bystander.id, name: 'Unrelated Vendor' });
    expect((await s.api('GET', `/accounting/bill/${foreignBill.id}`, { tenant: other })).body.vendor).toEqual({ id: foreignVendor.id, name: 'Foreign' });

    // The same merge again as a new event (a replay from the stream): nothing left to move, nothing else touched.
    const before = await s.documentsDb.adminDb('documents').orderBy('id').select('id', 'party_id', 'party_name', 'version', 'updated_at');
    const replay = await publishEvent(s.bus, 'parties', {
      type: EventType.VendorChanged,
      workspaceId: t.workspaceId,
      payload: { vendorId: dupA.id, change: 'merged', name: 'ACME supplies', status: 'active', mergedIntoVendorId: kept.id },
    });
    await inboxHas(replay);
    expect(await s.documentsDb.adminDb('documents').orderBy('id').select('id', 'party_id', 'party_name', 'version', 'updated_at')).toEqual(before);

    // A merge event of one workspace never touches another's bills, even naming that workspace's vendor.
    const cross = await publishEvent(s.bus, 'parties', {
      type: EventType.VendorChanged,
      workspaceId: t.workspaceId,
      payload: { vendorId: foreignVendor.id, change: 'merged', name: 'Foreign', status: 'active', mergedIntoVendorId: kept.id },
    });
    await inboxHas(cross);
    expect((await s.api('GET', `/accounting/bill/${foreignBill.id}`, { tenant: other })).body.vendor).toEqual({ id: foreignVendor.id, name: 'Foreign' });
  });
});

describe('payments by vendor credits, credit memos and manual journals (none posts anything; the books stay right)', () => {
  const errorsOf = (body: { errors?: { field: string; message: string }[] }) => (body.errors ?? []).map((e) => [e.field, e.message]);
  const newBill = async (tn: Tenant, cats: Record<string, string>, vendorId: string, amount: number, extra: Record<string, unknown> = {}) => {
    const body = { billDate: '2026-03-01', vendorId, lineItems: [{ serviceName: 'Goods', categoryId: cats['Office Supplies'], amount }] };
    const r = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, ...extra } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { id: r.body.bill.id as string, body };
  };
  const vendorCredit = async (tn: Tenant, cats: Record<string, string>, vendorId: string, amount: number) => {
    const r = await s.api('POST', '/vendors/vendor-credit', {
      tenant: tn,
      body: {
        paymentDate: '2026-03-05',
        vendorId,
        description: 'Returned goods',
        lineItems: [{ description: 'Goods', categoryId: cats['Office Supplies'], amount }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.vendorCredit.id as string;
  };
  const journal = async (tn: Tenant, lines: { categoryId: string; type: string; amount: number }[], extra: Record<string, unknown> = {}) => {
    const r = await s.api('POST', '/accounting/manual-entry/v2', {
      tenant: tn,
      body: { memo: 'Paid by journal', postingDate: '2026-03-20', lineItems: lines, ...extra },
    });
    return r;
  };

  it("a vendor credit applied to a bill counts as paid (PARTIALLY_PAID, PAID), posts no new version, at most its remaining balance, of the bill's vendor; AP = open bills − unapplied credits", async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn, 'Credit Vendor');
    const otherVendor = await newVendor(s, tn, 'Someone Else');
    const bill = await newBill(tn, cats, vendor.id, 100);
    const credit = await vendorCredit(tn, cats, vendor.id, 30);
    const ap = await accountOfKey(s, tn, 'accounts_payable');
    expect(await debitBalance(s, tn, ap)).toBe(-7000);

    const applied = await s.api('PUT', `/accounting/bill/${bill.id}`, {
      tenant: tn,
      body: { ...bill.body, connectedVendorCredits: [{ id: credit, amount: 30 }] },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({
      seq: 0,
      bill: {
        version: 1,
        paymentStatus: 'PARTIALLY_PAID',
        paidAmount: 30,
        connectedVendorCredits: [{ id: credit, amount: 30 }],
        connectedManualEntries: [],
        differenceMessages: ['Payments of 30.00 leave 70.00 of 100.00 unpaid'],
      },
    });
    // Nothing posted: AP is what the bill and the credit booked, 100 owed less 30 credited.
    expect(await debitBalance(s, tn, ap)).toBe(-7000);
    expect((await s.api('GET', `/accounting/bill/${bill.id}`, { tenant: tn })).body).toMatchObject({
      paidAmount: 30,
      connectedVendorCredits: [{ id: credit, amount: 30 }],
    });

    // The credit is used up: another bill of the vendor cannot take it; a credit of another vendor is refused.
    const second = await newBill(tn, cats, vendor.id, 10);
    const exceeded = await s.api('PUT', `/accounting/bill/${second.id}`, {
      tenant: tn,
      body: { ...second.body, connectedVendorCredits: [{ id: credit, amount: 0.01 }] },
    });
    expect(exceeded.status).toBe(400);
    expect(errorsOf(exceeded.body)).toEqual([
      ['connectedVendorCredits.0.amount', "Connected vendor credit 1: amount exceeds the vendor credit's remaining balance of 0.00"],
    ]);
    const foreignVendorsCredit = await vendorCredit(tn, cats, otherVendor.id, 5);
    const wrongVendor = await s.api('PUT', `/accounting/bill/${second.id}`, {
      tenant: tn,
      body: { ...second.body, connectedVendorCredits: [{ id: foreignVendorsCredit, amount: 5 }] },
    });
    expect(wrongVendor.status).toBe(400);
    expect(errorsOf(wrongVendor.body)).toEqual([['connectedVendorCredits.0.id', 'The vendor credit is of another vendor']]);
    const dup = await s.api('PUT', `/accounting/bill/${second.id}`, {
      tenant: tn,
      body: {
        ...second.body,
        connectedVendorCredits: [
          { id: credit, amount: 1 },
          { id: credit, amount: 1 },
        ],
      },
    });
    expect(errorsOf(dup.body)).toEqual([['connectedVendorCredits.1.id', 'Connected vendor credit 2: is listed twice']]);

    // Less of the credit on the first bill frees the rest for the second.
    expect(
      (await s.api('PUT', `/accounting/bill/${bill.id}`, { tenant: tn, body: { ...bill.body, connectedVendorCredits: [{ id: credit, amount: 20 }] } })).body
        .bill.paidAmount,
    ).toBe(20);
    const second2 = await s.api('PUT', `/accounting/bill/${second.id}`, {
      tenant: tn,
      body: { ...second.body, connectedVendorCredits: [{ id: credit, amount: 10 }] },
    });
    expect(second2.body.bill).toMatchObject({ paymentStatus: 'PAID', paidAmount: 10, version: 1 });

    // Voiding the second bill releases what it took of the credit.
    expect((await s.api('POST', `/accounting/bill/void/${second.id}`, { tenant: tn })).status).toBe(200);
    expect(
      (await s.api('PUT', `/accounting/bill/${bill.id}`, { tenant: tn, body: { ...bill.body, connectedVendorCredits: [{ id: credit, amount: 30 }] } })).body
        .bill.paidAmount,
    ).toBe(30);
    // AP: the bill's 100 less the credits' 30 and 5 (the voided bill's entry reversed).
    expect(await debitBalance(s, tn, ap)).toBe(-6500);
  });

  it("a credit memo applied to an invoice: PAID within 0.01; another customer's memo refused; AR = open invoices", async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const customer = await newCustomer(s, tn, 'Memo Customer');
    const body = {
      invoiceDate: '2026-03-01',
      customerId: customer.id,
      lineItems: [{ serviceName: 'Work', categoryId: cats['Sales'], quantity: 1, rate: 50, amount: 50 }],
    };
    const inv = await s.api('POST', '/accounting/invoice/v2', { tenant: tn, body });
    expect(inv.status).toBe(201);
    const memo = await s.api('POST', '/customers/credit-memo', {
      tenant: tn,
      body: {
        paymentDate: '2026-03-02',
        customerId: customer.id,
        refNo: 'CM-1',
        description: 'Discount',
        lineItems: [{ description: 'Discount', categoryId: cats['Sales'], amount: 49.99 }],
      },
    });
    expect(memo.status, JSON.stringify(memo.body)).toBe(201);
    const r = await s.api('PUT', `/accounting/invoice/${inv.body.invoice.id}`, {
      tenant: tn,
      body: { ...body, connectedCreditMemos: [{ id: memo.body.creditMemo.id, amount: 49.99 }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.invoice).toMatchObject({
      paymentStatus: 'PAID',
      paidAmount: 49.99,
      connectedCreditMemos: [{ id: memo.body.creditMemo.id, amount: 49.99 }],
      differenceMessages: [],
    });
    const ar = await accountOfKey(s, tn, 'accounts_receivable');
    expect(await debitBalance(s, tn, ar)).toBe(1);

    const stranger = await newCustomer(s, tn, 'Stranger');
    const other = await s.api('POST', '/customers/credit-memo', {
      tenant: tn,
      body: { paymentDate: '2026-03-02', customerId: stranger.id, refNo: 'CM-2', lineItems: [{ description: 'x', categoryId: cats['Sales'], amount: 5 }] },
    });
    const refused = await s.api('PUT', `/accounting/invoice/${inv.body.invoice.id}`, {
      tenant: tn,
      body: { ...body, connectedCreditMemos: [{ id: other.body.creditMemo.id, amount: 5 }] },
    });
    expect(refused.status).toBe(400);
    expect(errorsOf(refused.body)).toEqual([['connectedCreditMemos.0.id', 'The credit memo is of another customer']]);
  });

  it('a manual journal pays bills up to its net debit to Accounts Payable, from either side; paidBills; voiding the journal unpays the bill', async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn, 'Journal Vendor');
    const bill = await newBill(tn, cats, vendor.id, 200);
    const ap = await accountOfKey(s, tn, 'accounts_payable');
    const cash = cats['Opening Balance Equity']!;
    const j1 = await journal(
      tn,
      [
        { categoryId: ap, type: 'debit', amount: 150 },
        { categoryId: cash, type: 'credit', amount: 150 },
      ],
      { connectedBills: [{ id: bill.id, amount: 150 }] },
    );
    expect(j1.status, JSON.stringify(j1.body)).toBe(201);
    expect(j1.body.manualEntry).toMatchObject({ paidBills: [{ id: bill.id, amount: 150 }], paidInvoices: [] });
    expect((await s.api('GET', `/accounting/bill/${bill.id}`, { tenant: tn })).body).toMatchObject({
      paymentStatus: 'PARTIALLY_PAID',
      paidAmount: 150,
      connectedManualEntries: [{ id: j1.body.manualEntry.id, amount: 150 }],
    });
    // The journal's change announces the bill it pays: the vendor's figures (parties' read model) follow.
    const dueOf = () =>
      expectEventually(
        async () => {
          const v = (await s.api('GET', `/vendors/${vendor.id}`, { tenant: tn })).body as { dueBillCount: number; dueBillAmount: number };
          return { dueBillCount: v.dueBillCount, dueBillAmount: v.dueBillAmount };
        },
        { timeoutMs: 20_000 },
      );
    await expectEventually(async () => expect(await dueOf()).toEqual({ dueBillCount: 1, dueBillAmount: 50 }), { timeoutMs: 20_000 });

    // More than the journal moves on AP: refused from the journal's side and from the bill's.
    const tooMuch = await journal(
      tn,
      [
        { categoryId: ap, type: 'debit', amount: 10 },
        { categoryId: cash, type: 'credit', amount: 10 },
      ],
      { connectedBills: [{ id: bill.id, amount: 10.01 }] },
    );
    expect(tooMuch.status).toBe(400);
    expect(errorsOf(tooMuch.body)).toEqual([
      ['connectedBills', "connectedBills pay 10.01, more than the manual entry's net debit to Accounts Payable (10.00)"],
    ]);
    const noAp = await journal(tn, [
      { categoryId: cats['Office Supplies']!, type: 'debit', amount: 50 },
      { categoryId: cash, type: 'credit', amount: 50 },
    ]);
    expect(noAp.status).toBe(201);
    const j2 = await journal(tn, [
      { categoryId: ap, type: 'debit', amount: 50 },
      { categoryId: cash, type: 'credit', amount: 50 },
    ]);
    const viaBill = await s.api('PUT', `/accounting/bill/${bill.id}`, {
      tenant: tn,
      body: {
        ...bill.body,
        connectedManualEntries: [
          { id: j1.body.manualEntry.id, amount: 150 },
          { id: noAp.body.manualEntry.id, amount: 50 },
        ],
      },
    });
    expect(viaBill.status).toBe(400);
    expect(errorsOf(viaBill.body)).toEqual([
      ['connectedManualEntries.1.amount', "Connected manual entry 2: amount exceeds what the manual entry's debits to Accounts Payable leave to apply (0.00)"],
    ]);
    const paid = await s.api('PUT', `/accounting/bill/${bill.id}`, {
      tenant: tn,
      body: {
        ...bill.body,
        connectedManualEntries: [
          { id: j1.body.manualEntry.id, amount: 150 },
          { id: j2.body.manualEntry.id, amount: 50 },
        ],
      },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.bill).toMatchObject({ paymentStatus: 'PAID', paidAmount: 200, version: 1 });
    expect((await s.api('GET', `/accounting/manual-entry/${j2.body.manualEntry.id}`, { tenant: tn })).body.paidBills).toEqual([{ id: bill.id, amount: 50 }]);
    // The bill is paid and AP holds nothing for it: 200 owed, 150 + 50 debited by the journals.
    expect(await debitBalance(s, tn, ap)).toBe(0);
    await expectEventually(async () => expect(await dueOf()).toEqual({ dueBillCount: 0, dueBillAmount: 0 }), { timeoutMs: 20_000 });

    // Another workspace's journal inside the body is a 404 naming it.
    const foreign = await journal(other, [
      { categoryId: (await categoryIds(s, other))['Office Supplies']!, type: 'debit', amount: 1 },
      { categoryId: (await categoryIds(s, other))['Opening Balance Equity']!, type: 'credit', amount: 1 },
    ]);
    expect(foreign.status).toBe(201);
    const cross = await s.api('PUT', `/accounting/bill/${bill.id}`, {
      tenant: tn,
      body: { ...bill.body, connectedManualEntries: [{ id: foreign.body.manualEntry.id, amount: 1 }] },
    });
    expect(cross.status).toBe(404);
    expect(errorsOf(cross.body)).toEqual([['connectedManualEntries.0.id', 'Manual entry not found']]);

    // Voiding a journal: its entry is reversed and it no longer pays the bill.
    expect((await s.api('POST', `/accounting/manual-entry/void/${j2.body.manualEntry.id}`, { tenant: tn })).status).toBe(200);
    expect((await s.api('GET', `/accounting/bill/${bill.id}`, { tenant: tn })).body).toMatchObject({
      paymentStatus: 'PARTIALLY_PAID',
      paidAmount: 150,
      connectedManualEntries: [{ id: j1.body.manualEntry.id, amount: 150 }],
    });
    expect(await debitBalance(s, tn, ap)).toBe(-5000);
    // Voiding the journal announces the bill it paid: due again by 50.
    await expectEventually(async () => expect(await dueOf()).toEqual({ dueBillCount: 1, dueBillAmount: 50 }), { timeoutMs: 20_000 });
  });

  it("POST /accounting/payment-details/check: what a payment would leave of each bill, without writing; another workspace's bill 404", async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn, 'Details Vendor');
    const bill = await newBill(tn, cats, vendor.id, 80);
    const credit = await vendorCredit(tn, cats, vendor.id, 20);
    expect(
      (await s.api('PUT', `/accounting/bill/${bill.id}`, { tenant: tn, body: { ...bill.body, connectedVendorCredits: [{ id: credit, amount: 20 }] } })).status,
    ).toBe(200);
    const r = await s.api('POST', '/accounting/payment-details/check', { tenant: tn, body: { connectedBills: [{ id: bill.id, amount: 70 }] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({
      bills: [
        {
          id: bill.id,
          kind: 'bill',
          party: { id: vendor.id, name: 'Details Vendor' },
          reference: '',
          totalAmount: 80,
          paidAmount: 20,
          amount: 70,
          remainingAmount: -10,
          paymentStatus: 'OVERPAID',
          differenceMessages: ['Payments of 90.00 exceed the total of 80.00 by 10.00'],
        },
      ],
      invoices: [],
      totalAmount: 70,
    });
    expect((await s.api('GET', `/accounting/bill/${bill.id}`, { tenant: tn })).body.paidAmount).toBe(20);
    const foreign = await s.api('POST', '/accounting/payment-details/check', { tenant: other, body: { connectedBills: [{ id: bill.id, amount: 1 }] } });
    expect(foreign.status).toBe(404);
    expect(errorsOf(foreign.body)).toEqual([['connectedBills.0.id', 'Bill not found']]);
    const bad = await s.api('POST', '/accounting/payment-details/check', { tenant: tn, body: { connectedBills: [{ id: 'nope', amount: 0 }] } });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([
      ['connectedBills.0.id', 'Connected bill 1: id must be a UUID'],
      ['connectedBills.0.amount', 'Connected bill 1: amount must be greater than 0'],
    ]);
  });
});

describe('GET /accounting/payment-suggestions: the bill or invoice a bank transaction most likely pays', () => {
  it("ranks open bills for money out by amount, vendor and date; a paid bill and invoices are not suggested; another workspace's transaction 404", async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const vendor = await newVendor(s, tn, 'Harbor Freight');
    const customer = await newCustomer(s, tn, 'Money In Co');
    const [out1, out2, in1] = await bankTransactions(s, tn, [-12050, -12050, 12050]);
    const bill = async (amount: number, dueDate: string) => {
      const r = await s.api('POST', '/accounting/bill/v2', {
        tenant: tn,
        body: { billDate: '2026-01-01', dueDate, vendorId: vendor.id, lineItems: [{ serviceName: 'Tools', categoryId: cats['Office Supplies'], amount }] },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.bill.id as string;
    };
    const exact = await bill(120.5, '2026-04-14');
    const near = await bill(118, '2026-02-01');
    const unrelated = await bill(500, '2026-06-30');
    const inv = await s.api('POST', '/accounting/invoice/v2', {
      tenant: tn,
      body: {
        invoiceDate: '2026-04-10',
        dueDate: '2026-04-15',
        customerId: customer.id,
        lineItems: [{ serviceName: 'Work', categoryId: cats['Sales'], quantity: 1, rate: 120.5, amount: 120.5 }],
      },
    });
    expect(inv.status).toBe(201);

    const r = await s.api('GET', `/accounting/payment-suggestions?transactionId=${out1}`, { tenant: tn });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const got = (r.body.suggestions as { kind: string; score: number; reasons: string[]; bill: { id: string } }[]).map((x) => [
      x.kind,
      x.bill.id,
      x.score,
      x.reasons,
    ]);
    expect(got[0]).toEqual(['bill', exact, 75, ['amount', 'date']]);
    expect(got[1]).toEqual(['bill', near, 25, ['amount within 5%']]);
    expect(got.map((x) => x[1])).not.toContain(unrelated);
    expect(got).toHaveLength(2);

    // Money in: the invoice (amount, date).
    const incoming = await s.api('GET', `/accounting/payment-suggestions?transactionId=${in1}`, { tenant: tn });
    expect(incoming.body.suggestions.map((x: { kind: string; invoice: { id: string } }) => [x.kind, x.invoice.id])).toEqual([['invoice', inv.body.invoice.id]]);

    // Once the exact bill is paid by the other transaction, it is no longer suggested.
    const paid = await s.api('PUT', `/accounting/bill/${exact}`, {
      tenant: tn,
      body: {
        billDate: '2026-01-01',
        dueDate: '2026-04-14',
        vendorId: vendor.id,
        lineItems: [{ serviceName: 'Tools', categoryId: cats['Office Supplies'], amount: 120.5 }],
        connectedTransactions: [{ id: out2, amount: 120.5 }],
      },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const after = await s.api('GET', `/accounting/payment-suggestions?transactionId=${out1}`, { tenant: tn });
    expect(after.body.suggestions.map((x: { bill: { id: string } }) => x.bill.id)).toEqual([near]);

    const foreign = await s.api('GET', `/accounting/payment-suggestions?transactionId=${out1}`, { tenant: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].field).toBe('transactionId');
    expect((await s.api('GET', '/accounting/payment-suggestions?transactionId=nope', { tenant: tn })).status).toBe(400);
  });
});
