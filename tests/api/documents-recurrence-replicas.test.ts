// THE recurrence test of issue #18: two scheduler replicas (two documents service processes on one database, each with
// its own pools and its own scheduler job) run over 24 simulated months of recurrences — a monthly bill from a month
// end, a weekly invoice until a date, a quarterly manual journal after a count, a daily bill after a count, a bill
// stopped half-way and an invoice paused for a quarter — sweeping at the same moments, with two months where no replica
// runs (caught up after) and one replica restarted. Each occurrence exists exactly once, the ledger holds exactly one
// entry per occurrence, the trial balance stays 0, and Accounts Payable / Receivable equal the open bills / invoices.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, occurrencesUntil, type Schedule } from '../../services/documents/src/domain/recurrence.js';
import {
  accountOfKey,
  categoryIds,
  debitBalance,
  newCustomer,
  newVendor,
  startDocumentsSystem,
  type DocumentsSystem,
  type Tenant,
} from './documents.harness.js';

const START = '2027-01-01';
const END = '2028-12-31';
let now = new Date(`${START}T12:00:00Z`);
const clock = () => now;
const setDay = (day: string) => {
  now = new Date(`${day}T12:00:00Z`);
};

let s: DocumentsSystem;
let t: Tenant;
let c: Record<string, string>;

beforeAll(async () => {
  s = await startDocumentsSystem('documents-recurrence-replicas', { clock });
  t = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

async function create(path: string, body: Record<string, unknown>, key: string): Promise<string> {
  const r = await s.api('POST', path, { tenant: t, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body[key].id as string;
}
async function recur(kindPath: string, id: string, body: Record<string, unknown>): Promise<void> {
  const r = await s.api('POST', `/accounting/${kindPath}/recur/${id}`, { tenant: t, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

it('two replicas over 24 simulated months: each occurrence once, one ledger entry each, the books balanced', async () => {
  const vendor = await newVendor(s, t);
  const customer = await newCustomer(s, t);
  const billBody = (billDate: string, amount: number) => ({
    billDate,
    vendorId: vendor.id,
    lineItems: [{ serviceName: 'Rent', categoryId: c['Office Supplies'], amount }],
  });
  const invoiceBody = (invoiceDate: string) => ({
    invoiceDate,
    customerId: customer.id,
    lineItems: [{ serviceName: 'Retainer', categoryId: c['Sales'], quantity: 1, rate: 75, amount: 75 }],
  });

  // The templates, made recurring on Jan 1 2027.
  const t1 = await create('/accounting/bill/v2', billBody('2027-01-31', 1000), 'bill');
  const t2 = await create('/accounting/invoice/v2', invoiceBody('2027-01-01'), 'invoice');
  const t3 = await create(
    '/accounting/manual-entry/v2',
    {
      postingDate: '2027-01-01',
      memo: 'Quarterly accrual',
      lineItems: [
        { categoryId: c['Office Supplies'], type: 'debit', amount: 30 },
        { categoryId: c['Opening Balance Equity'], type: 'credit', amount: 30 },
      ],
    },
    'manualEntry',
  );
  const t4 = await create('/accounting/bill/v2', billBody('2027-01-10', 40), 'bill');
  const t5 = await create('/accounting/invoice/v2', invoiceBody('2027-01-02'), 'invoice');
  const t6 = await create('/accounting/bill/v2', billBody('2027-01-01', 5), 'bill');
  const schedules: Record<string, Schedule> = {
    [t1]: { startDate: '2027-01-31', interval: 'monthly', endDate: '', count: 0 },
    [t2]: { startDate: '2027-01-04', interval: 'weekly', endDate: '2027-12-31', count: 0 },
    [t3]: { startDate: '2027-02-28', interval: 'quarterly', endDate: '', count: 6 },
    [t4]: { startDate: '2027-01-15', interval: 'monthly', endDate: '', count: 0 },
    [t5]: { startDate: '2027-01-10', interval: 'monthly', endDate: '', count: 0 },
    [t6]: { startDate: '2027-03-01', interval: 'daily', endDate: '', count: 10 },
  };
  await recur('bill', t1, { recurringStartDate: '2027-01-31' });
  await recur('invoice', t2, { recurringStartDate: '2027-01-04', recurringEndDate: '2027-12-31', interval: 'weekly' });
  await recur('manual-entry', t3, { recurringStartDate: '2027-02-28', interval: 'quarterly', recurringCount: 6 });
  await recur('bill', t4, { recurringStartDate: '2027-01-15' });
  await recur('invoice', t5, { recurringStartDate: '2027-01-10' });
  await recur('bill', t6, { recurringStartDate: '2027-03-01', interval: 'daily', recurringEndType: 'count', recurringCount: 10 });

  // The second replica; the first is the system's own documents service. Both share the simulated clock.
  const a = s.documents;
  let b = await s.replica(clock);
  const sweepBoth = async () => {
    await Promise.all([a.scheduler.runOnce(), b.scheduler.runOnce(), a.scheduler.runOnce(), b.scheduler.runOnce()]);
  };

  const events: Record<string, () => Promise<void>> = {
    '2027-04-01': () => recur('invoice', t5, { recurringStartDate: '2027-01-10', activity: 'Paused' }),
    '2027-06-20': async () => {
      const r = await s.api('POST', `/accounting/stop-recurring/${t4}`, { tenant: t, body: { entityType: 'Bill' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
    '2027-07-01': () => recur('invoice', t5, { recurringStartDate: '2027-01-10' }),
    // A restart of the second replica in the middle of its sweep: the new process's first sweep picks up where it was.
    '2027-12-31': async () => {
      const sweeping = b.scheduler.runOnce();
      await b.stop();
      await sweeping;
      b = await s.replica(clock);
    },
  };
  const days = new Set<string>(Object.keys(events));
  for (let d = addDays(START, 7); d < END; d = addDays(d, 7)) days.add(d);
  days.add(END);
  // No replica runs in September and October 2027: the dates due then are caught up on November 1.
  const down = (d: string) => d >= '2027-09-01' && d < '2027-11-01';
  days.add('2027-11-01');
  for (const day of [...days].sort()) {
    setDay(day);
    if (!down(day)) await sweepBoth();
    await events[day]?.();
  }
  await sweepBoth();

  // What each template should have made, from its schedule: not its own date, not the dates passed while paused,
  // nothing after the stop.
  const expected: Record<string, string[]> = {};
  const templateDates: Record<string, string> = {
    [t1]: '2027-01-31',
    [t2]: '2027-01-01',
    [t3]: '2027-01-01',
    [t4]: '2027-01-10',
    [t5]: '2027-01-02',
    [t6]: '2027-01-01',
  };
  for (const [id, sc] of Object.entries(schedules)) {
    expected[id] = occurrencesUntil(sc, END)
      .map((o) => o.date)
      .filter((d) => d !== templateDates[id])
      .filter((d) => id !== t4 || d <= '2027-06-20')
      .filter((d) => id !== t5 || d < '2027-04-01' || d >= '2027-07-01');
  }
  expect(Object.fromEntries(Object.entries(expected).map(([id, d]) => [id, d.length]))).toEqual({ [t1]: 23, [t2]: 52, [t3]: 6, [t4]: 6, [t5]: 21, [t6]: 10 });
  expect(expected[t1]!.slice(0, 4)).toEqual(['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
  expect(expected[t1]).toContain('2028-02-29');

  const docs = s.documentsDb.adminDb;
  const made = (
    await docs.raw(
      `select o.template_id::text as template_id, to_char(o.occurrence_date, 'YYYY-MM-DD') as date, d.id::text as id, to_char(d.doc_date, 'YYYY-MM-DD') as doc_date, d.source
       from recurrence_occurrences o join documents d on d.id = o.document_id where o.workspace_id = ? and o.document_id <> o.template_id order by o.template_id, o.occurrence_date`,
      [t.workspaceId],
    )
  ).rows as { template_id: string; date: string; id: string; doc_date: string; source: string }[];
  for (const id of Object.keys(schedules)) {
    expect(
      made.filter((m) => m.template_id === id).map((m) => m.date),
      id,
    ).toEqual(expected[id]);
  }
  expect(made.every((m) => m.doc_date === m.date && m.source === 'recurring')).toBe(true);
  // Every recurring document of the workspace is one of these, once.
  const recurringDocs = (await docs.raw("select id::text from documents where workspace_id = ? and source = 'recurring'", [t.workspaceId])).rows as {
    id: string;
  }[];
  expect(recurringDocs).toHaveLength(118);
  expect(new Set(made.map((m) => m.id))).toEqual(new Set(recurringDocs.map((d) => d.id)));

  // The ledger: exactly one entry per occurrence (none reversed), and the template's own single entry.
  const ids = made.map((m) => m.id);
  await expectEventually(
    async () => {
      const rows = (
        await s.ledger.db.adminDb.raw(
          'select source_id::text as id, count(*)::int as n, count(reverses_entry_id)::int as reversals from journal_entries where workspace_id = ? and source_id = any(?::uuid[]) group by source_id',
          [t.workspaceId, [...ids, ...Object.keys(schedules)]],
        )
      ).rows as { id: string; n: number; reversals: number }[];
      expect(rows).toHaveLength(ids.length + 6);
      expect(rows.filter((r) => r.n !== 1 || r.reversals !== 0)).toEqual([]);
    },
    { timeoutMs: 30_000 },
  );

  // The trial balance is 0; AP = the open bills, AR = the open invoices (in cents).
  const tb = (
    await s.ledger.db.adminDb.raw(
      "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?",
      [t.workspaceId],
    )
  ).rows as { b: string }[];
  expect(Number(tb[0]!.b)).toBe(0);
  const open = (
    await docs.raw(
      'select kind, sum(total_cents)::bigint as total from documents where workspace_id = ? and voided_at is null and deleted_at is null group by kind',
      [t.workspaceId],
    )
  ).rows as { kind: string; total: string }[];
  const total = (k: string) => Number(open.find((o) => o.kind === k)?.total ?? 0);
  expect(total('bill')).toBe(100_000 * 24 + 4000 * 7 + 500 * 11);
  expect(total('invoice')).toBe(7500 * (53 + 22));
  expect(await debitBalance(s, t, await accountOfKey(s, t, 'accounts_payable'))).toBe(-total('bill'));
  expect(await debitBalance(s, t, await accountOfKey(s, t, 'accounts_receivable'))).toBe(total('invoice'));

  // The templates' state as the API shows it.
  const stopped = await s.api('GET', `/accounting/bill/${t4}`, { tenant: t });
  expect(stopped.body.recurrence).toMatchObject({ activity: 'Stopped', isRecurredParent: true, nextRecurrenceDate: '' });
  const resumed = await s.api('GET', `/accounting/invoice/${t5}`, { tenant: t });
  expect(resumed.body.recurrence).toMatchObject({ activity: 'Active', nextRecurrenceDate: '2029-01-10' });
  const counted = await s.api('GET', `/accounting/manual-entry/${t3}`, { tenant: t });
  expect(counted.body.recurrence.recurringSchedule.filter((d: { isRecurred: boolean }) => d.isRecurred)).toHaveLength(6);
  expect(counted.body.recurrence.nextRecurrenceDate).toBe('');
}, 600_000);
