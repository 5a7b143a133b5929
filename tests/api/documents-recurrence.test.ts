// Recurrence through the real gateway (issue #18 item 6; spec §3, §5, §7, §9): POST /accounting/{bill|invoice|
// manual-entry}/recur/{id} and POST /accounting/stop-recurring/{id}, every recurrence validation message, Viewer 403,
// another workspace's document 404, and what the scheduler then makes: one normal document per due date (source
// recurring, recurredFromId), each booked by the ledger exactly once; pause skips the dates that pass while paused;
// stop ends it. The documents service runs on a simulated clock (the scheduler's "today").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryIds, entriesOf, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

const VIEWER_MESSAGE = 'Editing actions are disabled for your account';
let now = new Date('2027-03-20T09:00:00Z');
let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;

beforeAll(async () => {
  s = await startDocumentsSystem('documents-recurrence', { clock: () => now });
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const fields = (body: { errors?: { field: string; message: string }[] }) => (body.errors ?? []).map((e) => [e.field, e.message]);
const sweep = () => s.documents.scheduler.runOnce();

async function bill(tn: Tenant, billDate: string, amount = 100): Promise<{ id: string; vendorId: string }> {
  const vendor = await newVendor(s, tn);
  const r = await s.api('POST', '/accounting/bill/v2', {
    tenant: tn,
    body: {
      billDate,
      dueDate: billDate,
      vendorId: vendor.id,
      invoiceCode: 'RENT',
      lineItems: [{ serviceName: 'Rent', categoryId: c['Office Supplies'], amount }],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.bill.id, vendorId: vendor.id };
}
/** The documents of a kind a template made, by the list route (source recurring, recurredFromId the template). */
async function madeFrom(path: string, key: string, templateId: string): Promise<{ id: string; date: string; body: Record<string, unknown> }[]> {
  const r = await s.api('GET', `${path}?take=100`, { tenant: t });
  expect(r.status).toBe(200);
  return (r.body.data as Record<string, unknown>[])
    .filter((d) => (d.recurrence as { recurredFromId: string }).recurredFromId === templateId)
    .map((d) => ({ id: d.id as string, date: d[key] as string, body: d }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

describe('recur', () => {
  it('a bill recurs monthly from a past date: the due dates are caught up at once, month ends clamped, each a normal bill booked once; the template is its own first date', async () => {
    const b = await bill(t, '2026-12-31', 250);
    const r = await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body: { recurringStartDate: '2026-12-31', recurringCount: 6 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('Bill recurrence saved');
    expect(r.body.bill).toMatchObject({
      id: b.id,
      recurrence: {
        isRecurredParent: true,
        recurringStartDate: '2026-12-31',
        recurringEndDate: '',
        interval: 'monthly',
        recurringEndType: 'count',
        recurringCount: 6,
        activity: 'Active',
        recurredFromId: '',
      },
    });
    await sweep();
    const made = await madeFrom('/accounting/bills', 'billDate', b.id);
    // Dec 31 is the template itself; then Jan 31, Feb 28, Mar 20 is today: Mar 31 is not due yet.
    expect(made.map((m) => m.date)).toEqual(['2027-01-31', '2027-02-28']);
    for (const m of made) {
      expect(m.body).toMatchObject({
        source: 'recurring',
        totalAmount: 250,
        invoiceCode: 'RENT',
        status: 'Posted',
        paymentStatus: 'UNPAID',
        dueDate: m.date,
        vendor: { id: b.vendorId },
      });
      const entries = await entriesOf(s, m.id);
      expect(entries).toEqual([expect.objectContaining({ source_type: 'Bill', entry_date: m.date, reverses_entry_id: null })]);
    }
    const got = await s.api('GET', `/accounting/bill/${b.id}`, { tenant: t });
    expect(got.body.recurrence.recurringSchedule).toEqual([
      { recurrenceDate: '2026-12-31', isRecurred: true, documentId: b.id },
      { recurrenceDate: '2027-01-31', isRecurred: true, documentId: made[0]!.id },
      { recurrenceDate: '2027-02-28', isRecurred: true, documentId: made[1]!.id },
      { recurrenceDate: '2027-03-31', isRecurred: false, documentId: '' },
      { recurrenceDate: '2027-04-30', isRecurred: false, documentId: '' },
      { recurrenceDate: '2027-05-31', isRecurred: false, documentId: '' },
    ]);
    expect(got.body.recurrence.nextRecurrenceDate).toBe('2027-03-31');
    // A document a recurrence made does not recur itself (its template does).
    const again = await s.api('POST', `/accounting/bill/recur/${made[0]!.id}`, { tenant: t, body: { recurringStartDate: '2027-05-01' } });
    expect(again.status).toBe(409);

    // The clock moves on: the next sweep makes Mar 31 and Apr 30; a second sweep makes nothing more.
    now = new Date('2027-05-01T00:00:00Z');
    await sweep();
    expect(await sweep()).toBe(0);
    expect((await madeFrom('/accounting/bills', 'billDate', b.id)).map((m) => m.date)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    now = new Date('2027-03-20T09:00:00Z');
  });

  it('an invoice recurs weekly until a date; a manual journal quarterly, never ending', async () => {
    const customer = await newCustomer(s, t);
    const inv = await s.api('POST', '/accounting/invoice/v2', {
      tenant: t,
      body: {
        invoiceDate: '2027-02-01',
        dueDate: '2027-02-15',
        customerId: customer.id,
        referenceNo: 'W',
        lineItems: [{ serviceName: 'Cleaning', categoryId: c['Sales'], quantity: 2, rate: 30, amount: 60 }],
      },
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    const id = inv.body.invoice.id;
    const r = await s.api('POST', `/accounting/invoice/recur/${id}`, {
      tenant: t,
      body: { recurringStartDate: '2027-02-22', recurringEndDate: '2027-03-08', interval: 'weekly' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.invoice.recurrence).toMatchObject({ recurringEndType: 'date', recurringEndDate: '2027-03-08', interval: 'weekly' });
    await sweep();
    const made = await madeFrom('/accounting/invoices', 'invoiceDate', id);
    expect(made.map((m) => m.date)).toEqual(['2027-02-22', '2027-03-01', '2027-03-08']);
    // The due date keeps its distance from the document's date (14 days).
    expect(made.map((m) => m.body.dueDate)).toEqual(['2027-03-08', '2027-03-15', '2027-03-22']);
    expect(made[0]!.body).toMatchObject({ totalAmount: 60, referenceNo: 'W', customer: { id: customer.id } });

    const me = await s.api('POST', '/accounting/manual-entry/v2', {
      tenant: t,
      body: {
        postingDate: '2026-06-30',
        memo: 'Quarterly accrual',
        lineItems: [
          { categoryId: c['Office Supplies'], type: 'debit', amount: 90 },
          { categoryId: c['Opening Balance Equity'], type: 'credit', amount: 90 },
        ],
      },
    });
    expect(me.status, JSON.stringify(me.body)).toBe(201);
    const meId = me.body.manualEntry.id;
    const rm = await s.api('POST', `/accounting/manual-entry/recur/${meId}`, {
      tenant: t,
      body: { recurringStartDate: '2026-09-30', interval: 'quarterly', recurringEndType: 'never' },
    });
    expect(rm.status, JSON.stringify(rm.body)).toBe(200);
    await sweep();
    const journals = await madeFrom('/accounting/manual-entries', 'postingDate', meId);
    expect(journals.map((m) => m.date)).toEqual(['2026-09-30', '2026-12-30']);
    for (const j of journals) expect(await entriesOf(s, j.id)).toHaveLength(1);
    expect(journals[0]!.body).toMatchObject({ memo: 'Quarterly accrual', totalAmount: 90, source: 'recurring' });
  });

  it('pause skips the dates that pass while paused; Active again resumes from today; stop ends it, and stopping again changes nothing', async () => {
    const b = await bill(t, '2027-01-05');
    const body = { recurringStartDate: '2027-01-10', interval: 'daily' };
    const paused = await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body: { ...body, activity: 'Paused' } });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.bill.recurrence).toMatchObject({ activity: 'Paused', nextRecurrenceDate: '', recurringSchedule: [] });
    await sweep();
    expect(await madeFrom('/accounting/bills', 'billDate', b.id)).toEqual([]);
    const resumed = await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body });
    // Resumed on Mar 20: the dates from Jan 10 passed while paused are not coming.
    expect(resumed.body.bill.recurrence).toMatchObject({ activity: 'Active', nextRecurrenceDate: '2027-03-20' });
    await sweep();
    // Resumed on Mar 20: only today's date is due, Jan 10 .. Mar 19 passed while paused.
    expect((await madeFrom('/accounting/bills', 'billDate', b.id)).map((m) => m.date)).toEqual(['2027-03-20']);

    const stop = await s.api('POST', `/accounting/stop-recurring/${b.id}`, { tenant: t, body: { entityType: 'Bill' } });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body).toMatchObject({
      message: 'Recurring stopped',
      id: b.id,
      entityType: 'Bill',
      recurrence: { activity: 'Stopped', isRecurredParent: true, nextRecurrenceDate: '' },
    });
    now = new Date('2027-03-25T09:00:00Z');
    await sweep();
    expect(await madeFrom('/accounting/bills', 'billDate', b.id)).toHaveLength(1);
    const twice = await s.api('POST', `/accounting/stop-recurring/${b.id}`, { tenant: t, body: { entityType: 'bill' } });
    expect(twice.status).toBe(200);
    expect(twice.body.recurrence.activity).toBe('Stopped');
    now = new Date('2027-03-20T09:00:00Z');
  });

  it('a voided template recurs no more; a voided document cannot start recurring', async () => {
    const b = await bill(t, '2027-03-01');
    expect((await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body: { recurringStartDate: '2027-04-01' } })).status).toBe(200);
    expect((await s.api('POST', `/accounting/bill/void/${b.id}`, { tenant: t })).status).toBe(200);
    now = new Date('2027-05-02T09:00:00Z');
    await sweep();
    expect(await madeFrom('/accounting/bills', 'billDate', b.id)).toEqual([]);
    expect((await s.api('GET', `/accounting/bill/${b.id}`, { tenant: t })).body.recurrence.activity).toBe('Stopped');
    now = new Date('2027-03-20T09:00:00Z');
    const again = await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body: { recurringStartDate: '2027-04-01' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A voided bill cannot recur');
  });
});

describe('recurrence validation', () => {
  it('every message of the recur body, each naming its field; nothing is saved', async () => {
    const b = await bill(t, '2027-03-01');
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{}, [['recurringStartDate', 'Please fill all recurring details']]],
      [{ recurringStartDate: '' }, [['recurringStartDate', 'Please fill all recurring details']]],
      [{ recurringStartDate: '2027-04-01', recurringEndType: 'date' }, [['recurringEndDate', 'Please fill all recurring details']]],
      [{ recurringStartDate: '2027-04-01', recurringEndType: 'count' }, [['recurringCount', 'Please fill all recurring details']]],
      [{ recurringStartDate: '2027-04-01', recurringCount: 0 }, [['recurringCount', 'Recurrence occurrence count must be a positive integer']]],
      [{ recurringStartDate: '2027-04-01', recurringCount: -2 }, [['recurringCount', 'Recurrence occurrence count must be a positive integer']]],
      [{ recurringStartDate: '2027-04-01', recurringCount: 2.5 }, [['recurringCount', 'Recurrence occurrence count must be a positive integer']]],
      [{ recurringStartDate: '04/01/2027' }, [['recurringStartDate', 'Invalid recurringStartDate format']]],
      [{ recurringStartDate: '2027-04-01', recurringEndDate: '2027-02-30' }, [['recurringEndDate', 'Invalid recurringEndDate format']]],
      [{ recurringStartDate: '2027-04-01', recurringEndDate: '2027-03-31' }, [['recurringStartDate', 'Start date cannot be greater than End date']]],
      [
        { recurringStartDate: '2027-04-01', recurringEndDate: '2027-05-31', recurringCount: 3 },
        [['recurringCount', 'Give either recurringEndDate or recurringCount, not both']],
      ],
      [{ recurringStartDate: '2027-04-01', interval: 'fortnightly' }, [['interval', 'interval must be one of: daily, weekly, monthly, quarterly, yearly']]],
      [{ recurringStartDate: '2027-04-01', recurringEndType: 'later' }, [['recurringEndType', 'recurringEndType must be one of: never, date, count']]],
      [{ recurringStartDate: '2027-04-01', activity: 'Stopped' }, [['activity', 'activity must be one of: Active, Paused']]],
    ];
    for (const [body, expected] of cases) {
      const r = await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body), JSON.stringify(body)).toEqual(expected);
      expect(r.body.message).toBe(expected[0]![1]);
    }
    // A body of the wrong shape is the gateway's 400 naming the field.
    const shape = await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: t, body: { recurringStartDate: '2027-04-01', recurringCount: 'three' } });
    expect(shape.status).toBe(400);
    expect(JSON.stringify(shape.body)).toContain('recurringCount');
    const got = await s.api('GET', `/accounting/bill/${b.id}`, { tenant: t });
    expect(got.body.recurrence).toMatchObject({ isRecurredParent: false, activity: '', recurringSchedule: [] });
  });

  it('stop-recurring: entityType required and known; a document that never recurred is 409; the kind must match', async () => {
    const b = await bill(t, '2027-03-01');
    const cases: [unknown, number, [string, string][]][] = [
      [{}, 400, [['entityType', 'entityType is required']]],
      [{ entityType: 'Vendor' }, 400, [['entityType', 'entityType must be one of: Bill, Invoice, ManualEntry']]],
      [{ entityType: 'Bill' }, 409, [['id', 'This bill is not recurring']]],
      [{ entityType: 'Invoice' }, 404, [['id', 'Invoice not found']]],
    ];
    for (const [body, status, expected] of cases) {
      const r = await s.api('POST', `/accounting/stop-recurring/${b.id}`, { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(fields(r.body), JSON.stringify(body)).toEqual(expected);
    }
  });

  it("a Viewer cannot recur or stop (403); another workspace's document is 404; an id that is not a UUID is 400", async () => {
    const b = await bill(t, '2027-03-01');
    const body = { recurringStartDate: '2027-04-01' };
    for (const [path, send] of [
      [`/accounting/bill/recur/${b.id}`, body],
      [`/accounting/stop-recurring/${b.id}`, { entityType: 'Bill' }],
    ] as const) {
      const viewer = await s.api('POST', path, { tenant: t, token: t.viewerToken, body: send });
      expect(viewer.status).toBe(403);
      expect(viewer.body.message).toBe(VIEWER_MESSAGE);
      const foreign = await s.api('POST', path, { tenant: other, body: send });
      expect(foreign.status, path).toBe(404);
      expect(fields(foreign.body)).toEqual([['id', 'Bill not found']]);
    }
    // Another workspace's document answers 404 before its body is judged.
    expect((await s.api('POST', `/accounting/bill/recur/${b.id}`, { tenant: other, body: {} })).status).toBe(404);
    const unknownKind = await s.api('POST', `/accounting/stop-recurring/${b.id}`, { tenant: other, body: { entityType: 'Vendor' } });
    expect(unknownKind.status).toBe(404);
    expect(fields(unknownKind.body)).toEqual([['id', 'Document not found']]);
    for (const path of ['/accounting/invoice/recur/not-a-uuid', '/accounting/manual-entry/recur/not-a-uuid', '/accounting/stop-recurring/not-a-uuid']) {
      expect((await s.api('POST', path, { tenant: t, body: { ...body, entityType: 'Bill' } })).status, path).toBe(400);
    }
    expect((await s.api('GET', `/accounting/bill/${b.id}`, { tenant: t })).body.recurrence.isRecurredParent).toBe(false);
  });
});
