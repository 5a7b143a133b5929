// Recurrence in the create and PUT bodies of bills, invoices and manual journals (spec documents-parties-integrations
// §5 payloads: recurringStartDate, recurringEndDate, interval; issue #18), through the real gateway: the schedule is
// saved in the document's own transaction, under the recur route's rules and messages ('Please fill all recurring
// details'); a 400 changes nothing (no document, no schedule); a PUT without the fields leaves the schedule alone; the
// scheduler then makes the occurrences. Also: a payment list sent on the wrong kind of document is a 400 naming it;
// billerName / customerName and the suggestedVendor / suggestedCustomer GET answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryIds, entriesOf, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

let now = new Date('2027-03-20T09:00:00Z');
let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;

beforeAll(async () => {
  s = await startDocumentsSystem('documents-body-fields', { clock: () => now });
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const fields = (body: { errors?: { field: string; message: string }[] }) => (body.errors ?? []).map((e) => [e.field, e.message]);
const sweep = () => s.documents.scheduler.runOnce();

async function listOf(path: string, tn: Tenant = t): Promise<Record<string, unknown>[]> {
  const r = await s.api('GET', `${path}?take=100`, { tenant: tn });
  expect(r.status).toBe(200);
  return r.body.data as Record<string, unknown>[];
}
const madeFrom = async (path: string, key: string, templateId: string) =>
  (await listOf(path))
    .filter((d) => (d.recurrence as { recurredFromId: string }).recurredFromId === templateId)
    .map((d) => ({ id: d.id as string, date: d[key] as string }))
    .sort((a, b) => a.date.localeCompare(b.date));

async function billBody(tn: Tenant = t, billDate = '2027-01-31') {
  const vendor = await newVendor(s, tn);
  return {
    billDate,
    dueDate: billDate,
    vendorId: vendor.id,
    invoiceCode: 'RENT',
    lineItems: [{ serviceName: 'Rent', categoryId: c['Office Supplies'], amount: 120 }],
  };
}

describe('recurrence in the create body', () => {
  it('a bill created with recurringStartDate, recurringEndDate and interval is a template at once; the scheduler makes each due date once, booked by the ledger', async () => {
    const body = { ...(await billBody()), recurringStartDate: '2027-01-31', recurringEndDate: '2027-06-30', interval: 'monthly' };
    const r = await s.api('POST', '/accounting/bill/v2', { tenant: t, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.bill.recurrence).toMatchObject({
      isRecurredParent: true,
      recurringStartDate: '2027-01-31',
      recurringEndDate: '2027-06-30',
      interval: 'monthly',
      recurringEndType: 'date',
      activity: 'Active',
    });
    const id = r.body.bill.id as string;
    await sweep();
    const made = await madeFrom('/accounting/bills', 'billDate', id);
    // Jan 31 is the template itself; Feb 28 is due; Mar 31 is after today (Mar 20).
    expect(made.map((m) => m.date)).toEqual(['2027-02-28']);
    expect(await entriesOf(s, made[0]!.id)).toEqual([expect.objectContaining({ source_type: 'Bill', entry_date: '2027-02-28', reverses_entry_id: null })]);
    expect(await sweep()).toBe(0);
    now = new Date('2027-07-15T00:00:00Z');
    try {
      await sweep();
      expect((await madeFrom('/accounting/bills', 'billDate', id)).map((m) => m.date)).toEqual([
        '2027-02-28',
        '2027-03-31',
        '2027-04-30',
        '2027-05-31',
        '2027-06-30',
      ]);
    } finally {
      now = new Date('2027-03-20T09:00:00Z');
    }
  });

  it('an invoice with recurringEndType count and recurringCount, a manual journal weekly: both recur from their create', async () => {
    const customer = await newCustomer(s, t);
    const inv = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2027-03-01',
        dueDate: '2027-03-15',
        customerId: customer.id,
        referenceNo: 'SUB',
        lineItems: [{ serviceName: 'Plan', categoryId: c['Sales'], quantity: 1, rate: 50, amount: 50 }],
        recurringStartDate: '2027-03-01',
        recurringEndType: 'count',
        recurringCount: 3,
        interval: 'weekly',
      },
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect(inv.body.invoice.recurrence).toMatchObject({ isRecurredParent: true, recurringEndType: 'count', recurringCount: 3, interval: 'weekly' });
    const je = await s.api('POST', '/accounting/manual-entry/v2', {
      tenant: t,
      body: {
        memo: 'Weekly accrual',
        postingDate: '2027-03-06',
        recurringStartDate: '2027-03-06',
        interval: 'weekly',
        lineItems: [
          { categoryId: c['Office Supplies'], type: 'debit', amount: 10 },
          { categoryId: c['Sales'], type: 'credit', amount: 10 },
        ],
      },
    });
    expect(je.status, JSON.stringify(je.body)).toBe(201);
    expect(je.body.manualEntry.recurrence).toMatchObject({ isRecurredParent: true, recurringEndType: 'never', interval: 'weekly' });
    await sweep();
    // Count 3: Mar 1 (the template), Mar 8, Mar 15. Never-ending weekly from Mar 6: Mar 13 and Mar 20 (today).
    const invoices = await madeFrom('/accounting/invoices', 'invoiceDate', inv.body.invoice.id);
    expect(invoices.map((m) => m.date)).toEqual(['2027-03-08', '2027-03-15']);
    expect((await listOf('/accounting/invoices')).find((d) => d.id === invoices[0]!.id)).toMatchObject({
      dueDate: '2027-03-22',
      totalAmount: 50,
      source: 'recurring',
    });
    expect((await madeFrom('/accounting/manual-entries', 'postingDate', je.body.manualEntry.id)).map((m) => m.date)).toEqual(['2027-03-13', '2027-03-20']);
  });

  it('each recurrence message of the create body names its field, and nothing is created (no document, no schedule)', async () => {
    const base = await billBody(t, '2027-03-01');
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{ interval: 'monthly' }, [['recurringStartDate', 'Please fill all recurring details']]],
      [{ recurringEndDate: '2027-06-01' }, [['recurringStartDate', 'Please fill all recurring details']]],
      [{ recurringStartDate: '', interval: 'weekly' }, [['recurringStartDate', 'Please fill all recurring details']]],
      [{ recurringStartDate: '2027-03-01', recurringEndType: 'date' }, [['recurringEndDate', 'Please fill all recurring details']]],
      [{ recurringStartDate: '2027-03-01', recurringEndType: 'count' }, [['recurringCount', 'Please fill all recurring details']]],
      [{ recurringStartDate: '2027-03-01', recurringCount: 0 }, [['recurringCount', 'Recurrence occurrence count must be a positive integer']]],
      [{ recurringStartDate: '2027-03-01', recurringCount: 1.5 }, [['recurringCount', 'Recurrence occurrence count must be a positive integer']]],
      [{ recurringStartDate: '03/01/2027' }, [['recurringStartDate', 'Invalid recurringStartDate format']]],
      [{ recurringStartDate: '2027-03-01', recurringEndDate: '2027-02-01' }, [['recurringStartDate', 'Start date cannot be greater than End date']]],
      [
        { recurringStartDate: '2027-03-01', recurringEndDate: '2027-05-01', recurringCount: 2 },
        [['recurringCount', 'Give either recurringEndDate or recurringCount, not both']],
      ],
      [{ recurringStartDate: '2027-03-01', interval: 'fortnightly' }, [['interval', 'interval must be one of: daily, weekly, monthly, quarterly, yearly']]],
      [{ recurringStartDate: '2027-03-01', recurringEndType: 'soon' }, [['recurringEndType', 'recurringEndType must be one of: never, date, count']]],
    ];
    const before = (await listOf('/accounting/bills')).length;
    for (const [extra, expected] of cases) {
      const r = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { ...base, ...extra } });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(fields(r.body), JSON.stringify(extra)).toEqual(expected);
      expect(r.body.message).toBe(expected[0]![1]);
    }
    // The document's own problems and the recurrence's come together.
    const both = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { ...base, billDate: '', interval: 'weekly' } });
    expect(both.status).toBe(400);
    expect(fields(both.body).map((f) => f[0])).toEqual(expect.arrayContaining(['billDate', 'recurringStartDate']));
    expect((await listOf('/accounting/bills')).length).toBe(before);
    // Blank recurrence fields (an editor's empty inputs) are no request: the bill is created, not recurring.
    const blank = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { ...base, recurringStartDate: '', recurringEndDate: '', interval: '' } });
    expect(blank.status, JSON.stringify(blank.body)).toBe(201);
    expect(blank.body.bill.recurrence.isRecurredParent).toBe(false);
  });
});

describe('recurrence in the PUT body', () => {
  it('a PUT with the fields makes the bill recur (also when nothing else changed); a PUT without them leaves the schedule; a new schedule replaces it', async () => {
    const body = await billBody(t, '2027-02-10');
    const created = await s.api('POST', '/accounting/bill/v2', { tenant: t, body });
    expect(created.status).toBe(201);
    const id = created.body.bill.id as string;
    // Nothing but the schedule changes: no new version, the schedule is saved.
    const put = await s.api('PUT', `/accounting/bill/${id}`, {
      tenant: t,
      body: { ...body, recurringStartDate: '2027-02-10', interval: 'monthly', recurringCount: 4 },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      seq: 0,
      bill: {
        version: 1,
        recurrence: { isRecurredParent: true, recurringStartDate: '2027-02-10', recurringEndType: 'count', recurringCount: 4, activity: 'Active' },
      },
    });
    // A PUT that edits the bill without the fields keeps the schedule as it is.
    const edit = await s.api('PUT', `/accounting/bill/${id}`, { tenant: t, body: { ...body, invoiceCode: 'RENT-2' } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.bill).toMatchObject({ version: 2, invoiceCode: 'RENT-2', recurrence: { isRecurredParent: true, recurringCount: 4, interval: 'monthly' } });
    await sweep();
    const made = await madeFrom('/accounting/bills', 'billDate', id);
    expect(made.map((m) => m.date)).toEqual(['2027-03-10']);
    // (Saving an Active schedule wakes the scheduler, so Mar 10 may have been made before or after the edit.)
    expect((await listOf('/accounting/bills')).find((d) => d.id === made[0]!.id)).toMatchObject({ source: 'recurring', totalAmount: 120 });
    // A new schedule in a PUT replaces the old one (the dates already handled stay handled).
    const again = await s.api('PUT', `/accounting/bill/${id}`, {
      tenant: t,
      body: { ...body, invoiceCode: 'RENT-2', recurringStartDate: '2027-02-10', interval: 'weekly', recurringEndDate: '2027-03-03' },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.bill.recurrence).toMatchObject({ interval: 'weekly', recurringEndType: 'date', recurringEndDate: '2027-03-03', recurringCount: 0 });
    await sweep();
    expect((await madeFrom('/accounting/bills', 'billDate', id)).map((m) => m.date)).toEqual(['2027-02-17', '2027-02-24', '2027-03-03', '2027-03-10']);
  });

  it("a bad schedule in a PUT is a 400 naming it and changes nothing; another workspace's bill is 404 whatever the body; a document a recurrence made cannot be given a schedule (409)", async () => {
    const body = await billBody(t, '2027-03-05');
    const created = await s.api('POST', '/accounting/bill/v2', {
      tenant: t,
      body: { ...body, recurringStartDate: '2027-03-05', recurringCount: 2, interval: 'daily' },
    });
    expect(created.status).toBe(201);
    const id = created.body.bill.id as string;
    const bad = await s.api('PUT', `/accounting/bill/${id}`, { tenant: t, body: { ...body, invoiceCode: 'CHANGED', interval: 'yearly' } });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual([['recurringStartDate', 'Please fill all recurring details']]);
    const got = await s.api('GET', `/accounting/bill/${id}`, { tenant: t });
    expect(got.body).toMatchObject({ version: 1, invoiceCode: 'RENT', recurrence: { interval: 'daily', recurringCount: 2 } });
    const foreign = await s.api('PUT', `/accounting/bill/${id}`, { tenant: other, body: { ...body, interval: 'yearly' } });
    expect(foreign.status).toBe(404);
    await sweep();
    const made = await madeFrom('/accounting/bills', 'billDate', id);
    expect(made.map((m) => m.date)).toEqual(['2027-03-06']);
    const occurrence = await s.api('GET', `/accounting/bill/${made[0]!.id}`, { tenant: t });
    const occBody = { billDate: occurrence.body.billDate, dueDate: occurrence.body.dueDate, vendorId: occurrence.body.vendor.id, lineItems: body.lineItems };
    const refused = await s.api('PUT', `/accounting/bill/${made[0]!.id}`, { tenant: t, body: { ...occBody, recurringStartDate: '2027-04-01' } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This bill was created by a recurrence; make its template recur instead');
  });
});

describe('payment lists on the wrong kind of document', () => {
  it('each list a kind does not take is a 400 naming it, on create and PUT; nothing is created or changed; an empty list is ignored', async () => {
    const body = await billBody(t, '2027-03-02');
    const customer = await newCustomer(s, t);
    const invoiceBody = {
      invoiceDate: '2027-03-02',
      customerId: customer.id,
      lineItems: [{ serviceName: 'Plan', categoryId: c['Sales'], quantity: 2, rate: 10, amount: 20 }],
    };
    const journalBody = {
      memo: 'Accrual',
      postingDate: '2027-03-02',
      lineItems: [
        { categoryId: c['Office Supplies'], type: 'debit', amount: 5 },
        { categoryId: c['Sales'], type: 'credit', amount: 5 },
      ],
    };
    const list = [{ id: '6f1c1b7e-1d52-4b8a-9a53-2a5a3f3f0c11', amount: 5 }];
    const cases: [string, string, Record<string, unknown>, string, string][] = [
      ['/accounting/invoice/v2', 'invoices', invoiceBody, 'connectedVendorCredits', 'connectedVendorCredits is not accepted on an invoice'],
      ['/accounting/invoice/v2', 'invoices', invoiceBody, 'connectedBills', 'connectedBills is not accepted on an invoice'],
      ['/accounting/invoice/v2', 'invoices', invoiceBody, 'connectedInvoices', 'connectedInvoices is not accepted on an invoice'],
      ['/accounting/bill/v2', 'bills', body, 'connectedCreditMemos', 'connectedCreditMemos is not accepted on a bill'],
      ['/accounting/bill/v2', 'bills', body, 'connectedBills', 'connectedBills is not accepted on a bill'],
      ['/accounting/bill/v2', 'bills', body, 'connectedInvoices', 'connectedInvoices is not accepted on a bill'],
      ['/accounting/manual-entry/v2', 'manual-entries', journalBody, 'connectedVendorCredits', 'connectedVendorCredits is not accepted on a manual entry'],
      ['/accounting/manual-entry/v2', 'manual-entries', journalBody, 'connectedCreditMemos', 'connectedCreditMemos is not accepted on a manual entry'],
      ['/accounting/manual-entry/v2', 'manual-entries', journalBody, 'connectedManualEntries', 'connectedManualEntries is not accepted on a manual entry'],
    ];
    for (const [path, plural, base, field, message] of cases) {
      const before = (await listOf(`/accounting/${plural}`)).length;
      const r = await s.api('POST', path, { tenant: t, body: { ...base, [field]: list } });
      expect(r.status, `${path} ${field}`).toBe(400);
      expect(fields(r.body)).toEqual([[field, message]]);
      expect((await listOf(`/accounting/${plural}`)).length).toBe(before);
    }
    const created = await s.api('POST', '/accounting/invoice/v2', { tenant: t, body: { ...invoiceBody, connectedVendorCredits: [] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.invoice.id as string;
    const put = await s.api('PUT', `/accounting/invoice/${id}`, { tenant: t, body: { ...invoiceBody, referenceNo: 'CHANGED', connectedVendorCredits: list } });
    expect(put.status).toBe(400);
    expect(fields(put.body)).toEqual([['connectedVendorCredits', 'connectedVendorCredits is not accepted on an invoice']]);
    expect((await s.api('GET', `/accounting/invoice/${id}`, { tenant: t })).body).toMatchObject({ version: 1, referenceNo: '' });
  });
});

describe('suggestedVendor and suggestedCustomer', () => {
  it("a bill whose billerName names another existing vendor suggests it on GET; its own vendor's name, an unknown name or none: null", async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const acme = await newVendor(s, tn, 'Acme Office Supplies');
    const apex = await newVendor(s, tn, 'Apex Legal LLP');
    const body = { billDate: '2027-03-01', vendorId: apex.id, lineItems: [{ serviceName: 'Paper', categoryId: cats['Office Supplies'], amount: 12 }] };
    const wrong = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, billerName: 'ACME OFFICE SUPPLIES, INC.' } });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(201);
    expect(wrong.body.bill).toMatchObject({ billerName: 'ACME OFFICE SUPPLIES, INC.', vendor: { id: apex.id }, version: 1 });
    const got = await s.api('GET', `/accounting/bill/${wrong.body.bill.id}`, { tenant: tn });
    expect(got.body).toMatchObject({ billerName: 'ACME OFFICE SUPPLIES, INC.', suggestedVendor: { id: acme.id, name: 'Acme Office Supplies' } });
    // Another workspace's vendors are never suggested: its GET of this bill is a 404, and its own bill suggests none of ours.
    expect((await s.api('GET', `/accounting/bill/${wrong.body.bill.id}`, { tenant: other })).status).toBe(404);
    const otherCats = await categoryIds(s, other);
    const otherVendor = await newVendor(s, other, 'Zeta Supplies');
    const theirs = await s.api('POST', '/accounting/bill/v2', {
      tenant: other,
      body: {
        billDate: '2027-03-01',
        vendorId: otherVendor.id,
        billerName: 'Acme Office Supplies',
        lineItems: [{ serviceName: 'x', categoryId: otherCats['Office Supplies'], amount: 1 }],
      },
    });
    expect(theirs.status).toBe(201);
    expect((await s.api('GET', `/accounting/bill/${theirs.body.bill.id}`, { tenant: other })).body.suggestedVendor).toBeNull();

    // The PUT fixes the vendor: the written name now names it, no suggestion; billerName is kept when a PUT leaves it out.
    const fixed = await s.api('PUT', `/accounting/bill/${wrong.body.bill.id}`, { tenant: tn, body: { ...body, vendorId: acme.id } });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    const after = await s.api('GET', `/accounting/bill/${wrong.body.bill.id}`, { tenant: tn });
    expect(after.body).toMatchObject({ billerName: 'ACME OFFICE SUPPLIES, INC.', vendor: { id: acme.id }, suggestedVendor: null });

    for (const billerName of [undefined, 'Apex Legal', 'Zenith Plumbing']) {
      const r = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, billerName } });
      expect(r.status).toBe(201);
      const g = await s.api('GET', `/accounting/bill/${r.body.bill.id}`, { tenant: tn });
      expect(g.body.suggestedVendor, String(billerName)).toBeNull();
      expect(g.body.billerName).toBe(billerName ?? 'Apex Legal LLP');
    }
    const long = await s.api('POST', '/accounting/bill/v2', { tenant: tn, body: { ...body, billerName: 'x'.repeat(151) } });
    expect(long.status).toBe(400);
    expect(fields(long.body)[0]![0]).toBe('billerName');
  });

  it("an invoice whose customerName is close to another customer's name suggests that customer", async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const blue = await newCustomer(s, tn, 'Blue Bottle Coffee');
    const red = await newCustomer(s, tn, 'Red Door Bakery');
    const r = await s.api('POST', '/accounting/invoice/v2', {
      tenant: tn,
      body: {
        invoiceDate: '2027-03-01',
        customerId: red.id,
        customerName: 'Blue Botle Cofee',
        lineItems: [{ serviceName: 'Beans', categoryId: cats['Sales'], quantity: 1, rate: 30, amount: 30 }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const got = await s.api('GET', `/accounting/invoice/${r.body.invoice.id}`, { tenant: tn });
    expect(got.body).toMatchObject({
      customerName: 'Blue Botle Cofee',
      customer: { id: red.id },
      suggestedCustomer: { id: blue.id, name: 'Blue Bottle Coffee' },
    });
    // The list answers billerName / customerName; the suggestion only in the GET of one.
    const listed = (await listOf('/accounting/invoices', tn)).find((d) => d.id === r.body.invoice.id);
    expect(listed).toMatchObject({ customerName: 'Blue Botle Cofee', suggestedCustomer: null });
  });
});
