// Fixed assets and schedules through the gateway (issue #19 items 6, 7): the real ledger, documents and gateway on fresh
// databases, real NATS. A purchase becomes an asset (re-booked to the asset account, linked, not editable); every bad
// input is a 400 naming the field and changes nothing; another workspace's ids answer 404; the scheduler posts each
// month once (two replicas racing, a restart, missed months caught up); stop ends depreciation; delete reverses all of
// it; the books stay balanced throughout; the schedules show prepaid expenses and depreciation with their balances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bankTransactions,
  categoryIds,
  debitBalance,
  entriesOf,
  linesOf,
  startDocumentsSystem,
  type DocumentsSystem,
  type Tenant,
} from './documents.harness.js';

let now = new Date('2026-04-20T12:00:00Z');
const clock = () => now;
const setDay = (day: string) => {
  now = new Date(`${day}T12:00:00Z`);
};

let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let c: Record<string, string>;

beforeAll(async () => {
  s = await startDocumentsSystem('fixed-assets', { clock });
  t = s.tenant();
  other = s.tenant();
  c = await categoryIds(s, t);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const ledgerTxn = async (tn: Tenant, id: string) => (await s.ledger.client.getTransaction({ id }, s.ledger.as(tn.workspaceId))).transaction;
/** Sum of every line's debits minus credits of the workspace: 0 when every entry balances. */
async function trialBalance(tn: Tenant): Promise<number> {
  const r = (
    await s.ledger.db.adminDb.raw(
      "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?",
      [tn.workspaceId],
    )
  ).rows as { b: string }[];
  return Number(r[0]?.b);
}
const accountByName = async (tn: Tenant, name: string) =>
  (
    (await s.ledger.db.adminDb.raw('select id::text from accounts where workspace_id = ? and name = ? and level >= 3', [tn.workspaceId, name])).rows as {
      id: string;
    }[]
  )[0]!.id;
const assetsOf = async (tn: Tenant) => (await s.api('GET', '/accounting/fixed-assets', { tenant: tn })).body.data as { id: string }[];
const sweep = () => s.documents.depreciation.runOnce();

describe('POST /accounting/fixed-asset', () => {
  it('re-books the purchase to the asset account, links it (not editable) and draws the straight-line schedule', async () => {
    const [truck] = await bankTransactions(s, t, [-1_300_000]);
    const before = await ledgerTxn(t, truck!);
    const r = await s.api('POST', '/accounting/fixed-asset', {
      tenant: t,
      body: {
        transactionId: truck,
        purchaseDate: '2026-04-15',
        depreciationStartDate: '2026-04-15',
        description: 'Delivery truck',
        assetTypeId: c['Property and Equipment'],
        cost: 13000,
        salvageValue: 1000,
        usefulLife: 5,
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const a = r.body.fixedAsset;
    expect(r.body.message).toBe('Fixed asset created');
    expect(a).toMatchObject({
      referenceWorkspaceTransaction: truck,
      purchaseDate: '2026-04-15',
      description: 'Delivery truck',
      assetType: { id: c['Property and Equipment'], name: 'Property and Equipment' },
      usefulLife: 5,
      cost: 13000,
      salvageValue: 1000,
      method: 'STRAIGHT_LINE',
      status: 'Active',
      stoppedOn: null,
      accumulatedDepreciation: 0,
      carryingValue: 13000,
    });
    expect(a.schedule).toHaveLength(60);
    expect(a.schedule[0]).toMatchObject({
      depreciationDateTime: '2026-04-30',
      depreciationAsset: a.id,
      isDepreciated: false,
      beginningCarryingValue: 13000,
      depreciationAmount: 200,
      accumulatedDepreciation: 200,
      endingCarryingValue: 12800,
    });
    expect(a.schedule[59]).toMatchObject({ depreciationDateTime: '2031-03-31', accumulatedDepreciation: 12000, endingCarryingValue: 1000 });

    const after = await ledgerTxn(t, truck!);
    expect(after).toMatchObject({ entityType: 'FixedAsset', entityId: a.id, category: { id: c['Property and Equipment'] } });
    expect(before?.category?.id).not.toBe(c['Property and Equipment']);
    expect(await debitBalance(s, t, c['Property and Equipment']!)).toBe(1_300_000);
    expect(await debitBalance(s, t, before!.category!.id)).toBe(0);
    // Linked to a fixed asset: not editable directly (spec "Transactions linked to a ... fixed asset cannot be edited").
    const edit = await s.api('PATCH', `/transactions/${truck}`, { tenant: t, body: { categoryId: c['Office Supplies'] } });
    expect(edit.status, edit.text).toBe(409);
    expect(await trialBalance(t)).toBe(0);

    // The same transaction again: 409 naming it, nothing made.
    const again = await s.api('POST', '/accounting/fixed-asset', {
      tenant: t,
      body: {
        transactionId: truck,
        purchaseDate: '2026-04-15',
        depreciationStartDate: '2026-04-15',
        assetTypeId: c['Property and Equipment'],
        cost: 13000,
        usefulLife: 5,
      },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].field).toBe('transactionId');

    const one = await s.api('GET', `/accounting/fixed-asset/${a.id}`, { tenant: t });
    expect(one.status).toBe(200);
    expect(one.body.schedule).toHaveLength(60);
    expect((await assetsOf(t)).map((x) => x.id)).toContain(a.id);
  });

  it("refuses bad input with a 400 naming the field, changing nothing; another workspace's transaction or account is 404", async () => {
    const [laptop, refund] = await bankTransactions(s, t, [-240_000, 50_000]);
    const [foreign] = await bankTransactions(s, other, [-240_000]);
    const good = {
      transactionId: laptop,
      purchaseDate: '2026-04-15',
      depreciationStartDate: '2026-05-01',
      description: 'Laptop',
      assetTypeId: c['Computer Equipment'],
      cost: 2400,
      salvageValue: 0,
      usefulLife: 3,
    };
    const count = (await assetsOf(t)).length;
    const bad = async (body: Record<string, unknown>, status: number, field: string, message?: string) => {
      const r = await s.api('POST', '/accounting/fixed-asset', { tenant: t, body });
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.errors?.[0]?.field, JSON.stringify(r.body)).toBe(field);
      if (message) expect(r.body.errors[0].message).toBe(message);
    };
    await bad({ ...good, cost: -2400 }, 400, 'cost', 'cost cannot be negative');
    await bad({ ...good, salvageValue: -1 }, 400, 'salvageValue', 'salvageValue cannot be negative');
    await bad({ ...good, usefulLife: -3 }, 400, 'usefulLife', 'usefulLife cannot be negative');
    await bad(
      { ...good, method: 'UNITS_OF_PRODUCTION', totalEstimatedUnits: -5, unitProducedPerYear: 10 },
      400,
      'totalEstimatedUnits',
      'totalEstimatedUnits cannot be negative',
    );
    await bad(
      { ...good, method: 'UNITS_OF_PRODUCTION', totalEstimatedUnits: 50, unitProducedPerYear: -10 },
      400,
      'unitProducedPerYear',
      'unitProducedPerYear cannot be negative',
    );
    await bad({ ...good, salvageValue: 3000 }, 400, 'salvageValue', 'salvageValue cannot be more than cost');
    await bad({ ...good, method: 'MAGIC' }, 400, 'method');
    await bad({ ...good, purchaseDate: undefined }, 400, 'purchaseDate', 'purchaseDate is required');
    await bad({ ...good, depreciationStartDate: '2026-04-01' }, 400, 'depreciationStartDate', 'depreciationStartDate cannot be before purchaseDate');
    await bad({ ...good, transactionId: 'nope' }, 400, 'transactionId');
    await bad({ ...good, cost: 2000 }, 400, 'cost', "cost must equal the purchase transaction's amount (2400.00)");
    await bad({ ...good, transactionId: refund, cost: 500 }, 400, 'transactionId', 'transactionId must be a purchase (money going out)');
    await bad({ ...good, assetTypeId: c['Office Supplies'] }, 400, 'assetTypeId');
    await bad({ ...good, transactionId: foreign }, 404, 'transactionId', 'Transaction not found');
    const otherCats = await categoryIds(s, other);
    await bad({ ...good, assetTypeId: otherCats['Computer Equipment'] }, 404, 'assetTypeId', 'Asset type not found');
    // A Viewer never writes.
    expect((await s.api('POST', '/accounting/fixed-asset', { token: t.viewerToken, tenant: { ...t, token: t.viewerToken }, body: good })).status).toBe(403);

    expect((await assetsOf(t)).length).toBe(count);
    expect((await ledgerTxn(t, laptop!))?.entityType).toBe('');
    expect(await debitBalance(s, t, c['Computer Equipment']!)).toBe(0);
  });
});

describe('the scheduler, stop and delete', () => {
  it('posts each due month once with two replicas racing and after a restart; catches up missed months; stop ends it; the books balance', async () => {
    const [press] = await bankTransactions(s, t, [-50_000_000]);
    const made = await s.api('POST', '/accounting/fixed-asset', {
      tenant: t,
      body: {
        transactionId: press,
        purchaseDate: '2026-04-15',
        depreciationStartDate: '2026-04-15',
        description: 'Crane',
        assetTypeId: c['Property and Equipment'],
        cost: 500000,
        salvageValue: 50000,
        usefulLife: 5,
        method: 'SUM_OF_YEARS_DIGITS',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.fixedAsset.id as string;
    const rows = made.body.fixedAsset.schedule as { id: string; depreciationAmount: number }[];
    // Kieso's crane, sum of the years' digits: 150,000 in the first year, 12,500 a month.
    expect(rows.slice(0, 12).reduce((t2, r) => t2 + r.depreciationAmount, 0)).toBe(150000);

    // Nothing ran from April to mid-August: four months are due (Apr, May, Jun, Jul) and are caught up.
    setDay('2026-08-10');
    const replica = await s.replica(clock);
    await Promise.all([sweep(), replica.depreciation.runOnce(), sweep(), replica.depreciation.runOnce()]);
    await replica.stop();
    const posted = async () => (await s.api('GET', `/accounting/fixed-asset/${id}`, { tenant: t })).body;
    let body = await posted();
    expect(
      body.schedule.filter((r: { isDepreciated: boolean }) => r.isDepreciated).map((r: { depreciationDateTime: string }) => r.depreciationDateTime),
    ).toEqual(['2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31']);
    expect(body.accumulatedDepreciation).toBe(50000);
    for (const r of rows.slice(0, 4)) expect((await entriesOf(s, r.id)).length, r.id).toBe(1);
    expect((await entriesOf(s, rows[4]!.id)).length).toBe(0);
    const accumulated = await accountByName(t, 'Accumulated Depreciation');
    const expense = await accountByName(t, 'Depreciation Expense');
    const crane = -(await debitBalance(s, t, accumulated));
    expect(crane).toBeGreaterThanOrEqual(5_000_000);
    expect(await debitBalance(s, t, expense)).toBe(crane);

    // A restart of the service (a new replica with the same database) changes nothing that is posted.
    const restarted = await s.replica(clock);
    await restarted.depreciation.runOnce();
    await restarted.stop();
    for (const r of rows.slice(0, 4)) expect((await entriesOf(s, r.id)).length).toBe(1);

    // Stop on Sep 5: August is posted (due by then), nothing after, however late the sweep.
    setDay('2026-09-05');
    await sweep();
    const stopped = await s.api('POST', `/accounting/fixed-asset/stop/${id}`, { tenant: t });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ message: 'Fixed asset stopped', fixedAsset: { status: 'Stopped', stoppedOn: '2026-09-05' } });
    setDay('2027-03-01');
    await sweep();
    body = await posted();
    expect(body.schedule.filter((r: { isDepreciated: boolean }) => r.isDepreciated)).toHaveLength(5);
    expect(body.accumulatedDepreciation).toBe(62500);
    expect(await trialBalance(t)).toBe(0);
  });

  it("delete reverses every month posted and books the purchase back to its category; another workspace's id is 404", async () => {
    setDay('2026-04-20');
    const [van] = await bankTransactions(s, t, [-360_000]);
    const category = (await ledgerTxn(t, van!))!.category!.id;
    const made = await s.api('POST', '/accounting/fixed-asset', {
      tenant: t,
      body: {
        transactionId: van,
        purchaseDate: '2026-04-15',
        depreciationStartDate: '2026-04-15',
        description: 'Van',
        assetTypeId: c['Property and Equipment'],
        cost: 3600,
        usefulLife: 3,
        method: 'DOUBLE_DECLINING_BALANCE',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.fixedAsset.id as string;
    setDay('2026-07-02');
    await sweep();
    expect((await s.api('GET', `/accounting/fixed-asset/${id}`, { tenant: t })).body.accumulatedDepreciation).toBeGreaterThan(0);
    const assetBefore = await debitBalance(s, t, c['Property and Equipment']!);

    for (const [method, path] of [
      ['GET', `/accounting/fixed-asset/${id}`],
      ['DELETE', `/accounting/fixed-asset/${id}`],
      ['POST', `/accounting/fixed-asset/stop/${id}`],
    ] as const) {
      const r = await s.api(method, path, { tenant: other });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.message).toBe('Fixed asset not found');
    }
    expect((await s.api('GET', '/accounting/fixed-asset/not-a-uuid', { tenant: t })).status).toBe(400);

    const accumulated = await accountByName(t, 'Accumulated Depreciation');
    const vanDepreciation = (made.body.fixedAsset.schedule as { id: string; depreciationAmount: number }[]).slice(0, 3);
    const del = await s.api('DELETE', `/accounting/fixed-asset/${id}`, { tenant: t });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ message: 'Fixed asset deleted', id });
    expect(del.body.seq).toBeGreaterThan(0);
    // Each posted month now has its entry and its reversal; the accounts are back where they were without the van.
    for (const m of vanDepreciation) expect((await entriesOf(s, m.id)).map((e) => e.reverses_entry_id === null)).toEqual([true, false]);
    const vanEntries = (await Promise.all(vanDepreciation.map((m) => entriesOf(s, m.id)))).flat().map((e) => e.id);
    const vanLines = (await linesOf(s, vanEntries)).filter((l) => l.account_id === accumulated);
    expect(vanLines).toHaveLength(6);
    expect(vanLines.reduce((t2, l) => t2 + (l.direction === 'debit' ? l.amount_cents : -l.amount_cents), 0)).toBe(0);
    expect(await debitBalance(s, t, c['Property and Equipment']!)).toBe(assetBefore - 360_000);
    expect(await ledgerTxn(t, van!)).toMatchObject({ entityType: '', entityId: '', category: { id: category } });
    expect((await s.api('GET', `/accounting/fixed-asset/${id}`, { tenant: t })).status).toBe(404);
    expect((await assetsOf(t)).map((a) => a.id)).not.toContain(id);
    expect((await s.api('DELETE', `/accounting/fixed-asset/${id}`, { tenant: t })).status).toBe(404);
    // A later sweep posts nothing more of it.
    setDay('2026-12-31');
    await sweep();
    for (const m of vanDepreciation) expect(await entriesOf(s, m.id)).toHaveLength(2);
    expect(await trialBalance(t)).toBe(0);
  });
});

describe('GET /accounting/schedules and /accounting/schedules-calendar', () => {
  it('shows prepaid expenses (an accrual) and depreciation with txnCount and runningBalance; refuses bad queries naming the field', async () => {
    const tn = s.tenant();
    const cats = await categoryIds(s, tn);
    const [saas, machine] = await bankTransactions(s, tn, [-120_000, -1_200_000]);
    const accrual = await s.api('POST', '/transactions/create-accrual', {
      tenant: tn,
      body: {
        transactionId: saas,
        accrualStartDate: '2026-04-01',
        accrualEndDate: '2027-03-31',
        accrualCategory: 'Prepaid Expenses',
        recogniseCategoryId: cats['Software and Subscriptions'],
      },
    });
    expect(accrual.status, JSON.stringify(accrual.body)).toBe(200);
    setDay('2026-04-20');
    const made = await s.api('POST', '/accounting/fixed-asset', {
      tenant: tn,
      body: {
        transactionId: machine,
        purchaseDate: '2026-04-15',
        depreciationStartDate: '2026-04-15',
        description: 'Machine',
        assetTypeId: cats['Property and Equipment'],
        cost: 12000,
        usefulLife: 10,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    setDay('2026-06-15');
    await sweep();

    const r = await s.api('GET', '/accounting/schedules?startDate=2026-01-01&endDate=2026-12-31', { tenant: tn });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    type Schedule = { kind: string; txnCount: number; runningBalance: number; ledgerAccount: { id: string }; lines: { scheduled: boolean; amount: number }[] };
    const byKind: Record<string, Schedule> = Object.fromEntries((r.body.data as Schedule[]).map((x) => [x.kind, x]));
    // Prepaid: the payment in (1,200) and nine months released (100 each, Apr–Dec): 300 left at Dec 31.
    expect(byKind['Prepaid Expenses']).toMatchObject({ txnCount: 10, runningBalance: 300 });
    // Depreciation: April and May posted (100 a month), June to December scheduled.
    const dep = byKind['Accumulated Depreciation']!;
    expect(dep).toMatchObject({ txnCount: 2, runningBalance: 200 });
    expect(dep.lines.filter((l) => l.scheduled)).toHaveLength(7);
    expect(byKind['Deferred Revenue']).toMatchObject({ txnCount: 0, runningBalance: 0 });

    // One account, as the balance sheet's prepaid row opens it.
    const one = await s.api(
      'GET',
      `/accounting/schedules?ledgerAccount=${byKind['Prepaid Expenses']!.ledgerAccount.id}&startDate=2026-04-01&endDate=2026-06-30`,
      { tenant: tn },
    );
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toMatchObject({ kind: 'Prepaid Expenses', txnCount: 4, runningBalance: 900 });

    const cal = await s.api('GET', '/accounting/schedules-calendar?startDate=2026-04-01&endDate=2026-07-31', { tenant: tn });
    expect(cal.status).toBe(200);
    expect(cal.body.months.map((m: { month: string }) => m.month)).toEqual(['2026-04', '2026-05', '2026-06', '2026-07']);
    const june = cal.body.months[2].schedules as { kind: string; amount: number; scheduledAmount: number; runningBalance: number }[];
    expect(june.find((x) => x.kind === 'Prepaid Expenses')).toMatchObject({ amount: -100, scheduledAmount: 0, runningBalance: 900 });
    expect(june.find((x) => x.kind === 'Accumulated Depreciation')).toMatchObject({ amount: 0, scheduledAmount: 100 });

    for (const [q, field] of [
      ['startDate=2026-13-01', 'startDate'],
      ['endDate=x', 'endDate'],
      ['ledgerAccount=nope', 'ledgerAccount'],
      ['startDate=2026-05-01&endDate=2026-04-01', 'startDate'],
    ] as const) {
      const bad = await s.api('GET', `/accounting/schedules?${q}`, { tenant: tn });
      expect(bad.status, q).toBe(400);
      expect(bad.body.errors[0].field, q).toBe(field);
    }
    const foreign = await s.api('GET', `/accounting/schedules?ledgerAccount=${byKind['Prepaid Expenses']!.ledgerAccount.id}`, { tenant: t });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].field).toBe('ledgerAccount');
    expect(await trialBalance(tn)).toBe(0);
  });
});
