// Spec §3 money types and consolidated reports through the real gateway, on books built by the real
// ledger (bank transactions booked and re-categorised, opening balances, manual journals, bills and
// invoices): every cell of every money type equals the ledger's lines of that origin (non-bank: not from
// a bank transaction; unadjusted: all but manual journals), so non-bank + bank-only and unadjusted +
// adjustments add up to ALL; each money type's balance sheet balances; a consolidated report equals
// the sum of its workspaces' reports, cell by cell; 400s name the field; another user's workspace is a
// 404; the report cache never serves one money type or workspace set for another. A property test
// (REPORTING_MONEYTYPE_RUNS, default 4) checks every cell of every money type on random mixed books.
import { newId } from '@ledgerline/platform';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRows, beforeFiscalYear, cents, expected, holdsRetained, lineSums, netIncomeOf, subtreeIds, type Column, type Row } from './report-oracle.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

let h: ReportingApiHarness;
let t: Tenant;
let other: Tenant;
let accountant: Tenant;

const QUERY = 'startDate=2026-01-01&endDate=2026-03-31&periodicity=monthly';
const MONEY_TYPES = {
  ALL: null,
  'non-bank': ['OpeningBalance', 'ManualEntry', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'],
  unadjusted: ['WorkspaceTransaction', 'OpeningBalance', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'],
  adjusted: null,
} as const;

/** Books of every origin in one workspace. */
async function books(tenant: Tenant, scale: number): Promise<void> {
  const checking = await tenant.banking.link();
  await tenant.banking.add(checking, { amountCents: 250_000 * scale, date: '2026-01-15', name: 'Stripe payout' });
  await tenant.banking.add(checking, { amountCents: -120_000 * scale, date: '2026-02-01', name: 'Office rent' });
  await tenant.banking.add(checking, { amountCents: -4_550 * scale, date: '2026-03-05', name: 'Coffee' });
  const txns = (await h.transactions(tenant, 3)).data as { id: string; amount: number }[];
  const cats = (await h.api('GET', '/categories', { tenant })).body.categories as { id: string; name: string }[];
  const category = (name: string) => cats.find((c) => c.name === name)?.id as string;
  // Re-categorised: a reversal and a new entry, both from the bank transaction.
  expect(
    (await h.api('PATCH', `/transactions/${txns.find((x) => x.amount === -1200 * scale)?.id}`, { tenant, body: { categoryId: category('Rent') } })).status,
  ).toBe(200);
  expect(
    (
      await h.api('PUT', `/categories/${category('Security Deposits')}/opening-balance`, {
        tenant,
        body: { openingBalance: 1_500 * scale, openingBalanceDate: '2025-12-31' },
      })
    ).status,
  ).toBe(200);
  const post = (sourceType: string, date: string, lines: [string, 'debit' | 'credit', number][]) =>
    h.ledger.client.postEntry(
      {
        sourceType,
        sourceId: newId(),
        version: 1n,
        date,
        description: sourceType,
        lines: lines.map(([name, direction, c]) => ({ accountId: category(name), direction, amountCents: BigInt(c * scale) })),
      },
      h.ledger.as(tenant.workspaceId),
    );
  await post('ManualEntry', '2026-01-31', [
    ['Rent', 'debit', 30_000],
    ['Accounts Payable', 'credit', 30_000],
  ]);
  await post('ManualEntry', '2026-03-31', [
    ['Software and Subscriptions', 'debit', 2_999],
    ['Rent', 'credit', 2_999],
  ]);
  await post('Bill', '2026-02-10', [
    ['Software and Subscriptions', 'debit', 12_000],
    ['Accounts Payable', 'credit', 12_000],
  ]);
  await post('Invoice', '2026-03-20', [
    ['Accounts Receivable', 'debit', 80_000],
    ['Service Revenue', 'credit', 80_000],
  ]);
  await h.caughtUp(tenant);
}

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  other = h.tenant();
  await books(t, 1);
  await books(other, 3);
  // A firm's accountant who belongs to both workspaces.
  const token = `tok-accountant-${t.workspaceId}`;
  const ws = (id: string) => ({ id, name: 'Books', organizationId: 'org', organizationName: 'Acme', role: 'Viewer', isDefault: id === t.workspaceId });
  h.identity.sessions.set(token, {
    userId: '018f0000-0000-7000-8000-00000000a11d',
    workspaces: [ws(t.workspaceId), ws(other.workspaceId)],
    defaultWorkspaceId: t.workspaceId,
  });
  accountant = { ...t, token };
}, 180_000);
afterAll(async () => h?.close());

const get = (path: string, tenant: Tenant = t) => h.api('GET', path, { tenant });

describe('moneyType', () => {
  it('every P&L, balance-sheet and cash-flow-statement cell equals the ledger lines of its origins; each balance sheet balances', async () => {
    for (const [moneyType, sourceTypes] of Object.entries(MONEY_TYPES)) {
      const pl = await get(`/financial-data/profit-loss/v3?${QUERY}&moneyType=${moneyType}`);
      expect(pl.status, moneyType).toBe(200);
      for (const [i, col] of (pl.body.report.columns as Column[]).entries()) {
        const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, col.startDate, col.endDate, sourceTypes);
        for (const r of accountRows(pl.body.report.data)) expect(cents(r.amounts[i] ?? NaN), `${moneyType} ${r.name} ${col.startDate}`).toBe(expected(sums, r));
      }
      const bs = await get(`/financial-data/balance-sheet/v2?${QUERY}&moneyType=${moneyType}`);
      expect(bs.status, moneyType).toBe(200);
      const data = bs.body.data as Row[];
      const row = (name: string) => data.find((r) => r.name === name) as Row;
      for (const [i, col] of (bs.body.columns as Column[]).entries()) {
        expect(cents(row('Total Assets').amounts[i] ?? NaN), `${moneyType} balances`).toBe(cents(row('Total Liabilities and Equity').amounts[i] ?? NaN));
        const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, '0001-01-01', col.endDate, sourceTypes);
        for (const r of accountRows(data)) expect(cents(r.amounts[i] ?? NaN), `${moneyType} ${r.name} as of ${col.endDate}`).toBe(expected(sums, r));
      }
      const cashIds = subtreeIds(accountRows(data).find((r) => r.name === 'Cash and Cash Equivalents') as Row);
      const cfs = await get(`/financial-data/cash-flow-statement?${QUERY}&moneyType=${moneyType}`);
      const netChange = (cfs.body.data as Row[]).find((r) => r.name === 'Net Change in Cash') as Row;
      for (const [i, col] of (cfs.body.columns as Column[]).entries()) {
        const sums = await lineSums(h.ledger.db.adminDb, t.workspaceId, col.startDate, col.endDate, sourceTypes);
        expect(cents(netChange.amounts[i] ?? NaN), `${moneyType} net change in cash ${col.startDate}`).toBe(
          cashIds.reduce((s, id) => s + (sums.get(id)?.d ?? 0) - (sums.get(id)?.c ?? 0), 0),
        );
      }
    }
  });

  it('non-bank + bank-only = ALL and unadjusted + adjustments = ALL, per cell; ALL and adjusted are the same books', async () => {
    const pl = async (moneyType: string) =>
      accountRows((await get(`/financial-data/profit-loss/v3?${QUERY}&moneyType=${moneyType}`)).body.report.data as Row[]);
    const [all, nonBank, unadjusted, adjusted, none] = await Promise.all([pl('ALL'), pl('non-bank'), pl('unadjusted'), pl('adjusted'), pl('')]);
    expect(adjusted).toEqual(all);
    expect(none).toEqual(all);
    const columns = (await get(`/financial-data/profit-loss/v3?${QUERY}`)).body.report.columns as Column[];
    let differs = 0;
    for (const [i, col] of columns.entries()) {
      const bank = await lineSums(h.ledger.db.adminDb, t.workspaceId, col.startDate, col.endDate, ['WorkspaceTransaction']);
      const adjustments = await lineSums(h.ledger.db.adminDb, t.workspaceId, col.startDate, col.endDate, ['ManualEntry']);
      for (const r of all) {
        const at = (rows: Row[]) => cents(rows.find((x) => x.id === r.id)?.amounts[i] ?? 0);
        expect(at(nonBank) + expected(bank, r), `${r.name} ${col.startDate}`).toBe(cents(r.amounts[i] ?? NaN));
        expect(at(unadjusted) + expected(adjustments, r), `${r.name} ${col.startDate}`).toBe(cents(r.amounts[i] ?? NaN));
        if (at(nonBank) !== cents(r.amounts[i] ?? 0) || at(unadjusted) !== cents(r.amounts[i] ?? 0)) differs++;
      }
    }
    // The books hold every origin, so the split is not trivially all on one side.
    expect(differs).toBeGreaterThan(3);
    const rent = (rows: Row[]) => rows.find((r) => r.name === 'Rent')?.total;
    expect([rent(all), rent(nonBank), rent(unadjusted)]).toEqual([1_200 + 300 - 29.99, 300 - 29.99, 1_200]);
  });

  it('the dashboard reads take it too: cash flow and the cash balance of bank-only books differ from non-bank ones', async () => {
    const closing = async (moneyType: string) =>
      ((await get(`/financial-data/cash-flow?${QUERY}&moneyType=${moneyType}`)).body.data as { name: string; data: number[] }[]).find(
        (x) => x.name === 'Closing Balance',
      )?.data;
    expect(await closing('non-bank')).toEqual([0, 0, 0]);
    expect(await closing('unadjusted')).toEqual(await closing('ALL'));
    expect((await get(`/financial-data/get-asset-balance-graph?${QUERY}&moneyType=non-bank`)).body.totalAssetBalance).toBe(0);
    expect((await get(`/financial-data/get-asset-balance-graph?${QUERY}`)).body.totalAssetBalance).toBe(2_500 - 1_200 - 45.5);
    const spending = async (moneyType: string) =>
      ((await get(`/financial-data/spending?${QUERY}&moneyType=${moneyType}`)).body.data as { name: string; amount: number }[]).map((x) => [x.name, x.amount]);
    expect(await spending('non-bank')).toEqual([
      ['Rent', 270.01],
      ['Software and Subscriptions', 149.99],
    ]);
    expect(await spending('unadjusted')).toEqual([
      ['Rent', 1_200],
      ['Software and Subscriptions', 120],
      ['Uncategorised Expense', 45.5],
    ]);
    const merchants = await get(`/financial-data/top-merchant?${QUERY}&moneyType=non-bank`);
    expect(merchants.body.totalAmount).toBe(420);
  });

  it('anything but the spec values is a 400 naming moneyType, on every report', async () => {
    for (const path of ['profit-loss/v3', 'balance-sheet/v2', 'cash-flow-statement', 'cash-flow', 'get-asset-balance-graph', 'spending', 'top-merchant']) {
      for (const bad of ['in', 'bank', 'non_bank']) {
        const r = await get(`/financial-data/${path}?${QUERY}&moneyType=${bad}`);
        expect(r.status, `${path} ${bad}`).toBe(400);
        expect((r.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['moneyType']);
      }
    }
  });

  it('balances kept before origins were (a migrated read model): non-bank and unadjusted answer 503 until a rebuild; ALL reads on', async () => {
    const lone = h.tenant();
    await h.reporting.db.adminDb('origins_unclassified').insert({ workspace_id: lone.workspaceId });
    try {
      expect((await get(`/financial-data/profit-loss/v3?${QUERY}&moneyType=non-bank`, lone)).status).toBe(503);
      expect((await get(`/financial-data/spending?${QUERY}&moneyType=unadjusted`, lone)).status).toBe(503);
      expect((await get(`/financial-data/profit-loss/v3?${QUERY}`, lone)).status).toBe(200);
    } finally {
      await h.reporting.db.adminDb('origins_unclassified').where({ workspace_id: lone.workspaceId }).delete();
    }
  });

  it('the caches never serve one money type for another: a held answer or an etag of ALL is not a non-bank report', async () => {
    const url = (moneyType: string) => `/financial-data/profit-loss/v3?${QUERY}&moneyType=${moneyType}`;
    const ask = (path: string, etag?: string) =>
      h.gatewayWithReporting.inject({
        method: 'GET',
        url: path,
        headers: { authorization: `Bearer ${t.token}`, 'x-workspace-id': t.workspaceId, ...(etag ? { 'if-none-match': etag } : {}) },
      });
    const all = await ask(url('ALL'));
    const again = await ask(url('ALL'), all.headers.etag as string);
    expect(again.statusCode).toBe(304);
    const nonBank = await ask(url('non-bank'), all.headers.etag as string);
    expect(nonBank.statusCode).toBe(200);
    expect(nonBank.headers.etag).not.toBe(all.headers.etag);
    expect(nonBank.json().report).not.toEqual(all.json().report);
    expect((await ask(url('ALL'))).json().report).toEqual(all.json().report);
    expect((await ask(url('non-bank'))).json().report).toEqual(nonBank.json().report);
  });
});

describe('workspaces (consolidated statements)', () => {
  const both = () => `workspaces=${t.workspaceId},${other.workspaceId.toUpperCase()}`;
  /** Account rows by coaId (the consolidation's key). */
  const byCoa = (rows: Row[]) => new Map(accountRows(rows).map((r) => [r.coaId, r]));

  it("a consolidated P&L, balance sheet and cash-flow statement equal the sum of the workspaces', cell by cell", async () => {
    for (const [path, rowsOf] of [
      ['profit-loss/v3', (b: { report: { data: Row[] } }) => b.report.data],
      ['balance-sheet/v2', (b: { data: Row[] }) => b.data],
      ['cash-flow-statement', (b: { data: Row[] }) => b.data],
    ] as const) {
      for (const moneyType of ['ALL', 'non-bank']) {
        const q = `${QUERY}&moneyType=${moneyType}`;
        const sum = await get(`/financial-data/${path}?${q}&${both()}`, accountant);
        expect(sum.status, path).toBe(200);
        const mine = await get(`/financial-data/${path}?${q}`);
        const theirs = await get(`/financial-data/${path}?${q}`, other);
        const [s, a, b] = [byCoa(rowsOf(sum.body)), byCoa(rowsOf(mine.body)), byCoa(rowsOf(theirs.body))];
        expect([...s.keys()].sort()).toEqual([...new Set([...a.keys(), ...b.keys()])].sort());
        for (const [coa, r] of s) {
          r.amounts.forEach((v, i) =>
            expect(cents(v), `${path} ${moneyType} ${r.name} ${i}`).toBe(cents(a.get(coa)?.amounts[i] ?? 0) + cents(b.get(coa)?.amounts[i] ?? 0)),
          );
        }
        // Summary rows (Net Income, Total Assets, ...) add up too.
        const summaries = (rows: Row[]) => new Map(rows.filter((r) => !r.id).map((r) => [r.name, r.amounts.map(cents)]));
        const [ss, sa, sb] = [summaries(rowsOf(sum.body)), summaries(rowsOf(mine.body)), summaries(rowsOf(theirs.body))];
        for (const [name, amounts] of ss)
          expect(amounts, `${path} ${name}`).toEqual(amounts.map((_, i) => (sa.get(name)?.[i] ?? 0) + (sb.get(name)?.[i] ?? 0)));
      }
    }
    // The same set written in another order is the same report; the rows are laid out by the caller's chart.
    const pl = (await get(`/financial-data/profit-loss/v3?${QUERY}&${both()}`, accountant)).body.report.data as Row[];
    const reversed = (await get(`/financial-data/profit-loss/v3?${QUERY}&workspaces=${other.workspaceId},${t.workspaceId}`, accountant)).body.report
      .data as Row[];
    expect(reversed).toEqual(pl);
    const own = new Set(accountRows((await get(`/financial-data/profit-loss/v3?${QUERY}`)).body.report.data as Row[]).map((r) => r.id));
    expect(accountRows(pl).every((r) => own.has(r.id))).toBe(true);
  });

  it("the exports take the same workspaces: a consolidated P&L CSV closes with the consolidated Net Income; someone else's workspace is a 404", async () => {
    const json = await get(`/financial-data/profit-loss/v3?startDate=2026-01-01&endDate=2026-03-31&periodicity=totals_only&${both()}`, accountant);
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    const net = (json.body.report.data as Row[]).find((r) => r.name === 'Net Income' && !r.id)?.amounts[0] as number;
    const csv = await get(`/income-expense/csv?startDate=2026-01-01&endDate=2026-03-31&periodicity=totals_only&${both()}`, accountant);
    expect(csv.status).toBe(200);
    const last = String(csv.body).trim().split(/\r?\n/).at(-1) ?? '';
    expect(last.startsWith('Net Income,')).toBe(true);
    expect(Number(last.split(',').at(-1))).toBeCloseTo(net, 2);
    const alone = await get(`/income-expense/csv?startDate=2026-01-01&endDate=2026-03-31&periodicity=totals_only`, accountant);
    expect(String(alone.body)).not.toBe(String(csv.body));
    expect((await get(`/income-expense/xlsx?${QUERY}&${both()}`)).status).toBe(404);
  });

  it('a malformed id is a 400 naming workspaces; a workspace the caller does not belong to is a 404', async () => {
    for (const path of ['profit-loss/v3', 'balance-sheet/v2', 'cash-flow-statement', 'cash-flow']) {
      const bad = await get(`/financial-data/${path}?${QUERY}&workspaces=not-a-workspace`, accountant);
      expect(bad.status, path).toBe(400);
      expect((bad.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['workspaces']);
      expect((await get(`/financial-data/${path}?${QUERY}&${both()}`)).status, path).toBe(404);
      expect((await get(`/financial-data/${path}?${QUERY}&workspaces=${newId()}`, accountant)).status, path).toBe(404);
    }
  });

  it('the caches: a consolidated answer is never served for one workspace, and its etag changes when any workspace changes', async () => {
    const url = (extra: string) => `/financial-data/profit-loss/v3?${QUERY}${extra}`;
    const ask = (path: string, etag?: string) =>
      h.gatewayWithReporting.inject({
        method: 'GET',
        url: path,
        headers: { authorization: `Bearer ${accountant.token}`, 'x-workspace-id': t.workspaceId, ...(etag ? { 'if-none-match': etag } : {}) },
      });
    const alone = await ask(url(''));
    const consolidated = await ask(url(`&${both()}`), alone.headers.etag as string);
    expect(consolidated.statusCode).toBe(200);
    expect(consolidated.json().report).not.toEqual(alone.json().report);
    const etag = consolidated.headers.etag as string;
    expect((await ask(url(`&${both()}`), etag)).statusCode).toBe(304);
    // A new entry in the other workspace only.
    const cats = (await h.api('GET', '/categories', { tenant: other })).body.categories as { id: string; name: string }[];
    const category = (name: string) => cats.find((c) => c.name === name)?.id as string;
    await h.ledger.client.postEntry(
      {
        sourceType: 'ManualEntry',
        sourceId: newId(),
        version: 1n,
        date: '2026-02-15',
        description: 'late',
        lines: [
          { accountId: category('Rent'), direction: 'debit', amountCents: 777n },
          { accountId: category('Accounts Payable'), direction: 'credit', amountCents: 777n },
        ],
      },
      h.ledger.as(other.workspaceId),
    );
    await h.caughtUp(other);
    const changed = await ask(url(`&${both()}`), etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const rent = (body: { report: { data: Row[] } }) => accountRows(body.report.data).find((r) => r.name === 'Rent')?.amounts[1];
    expect(cents(rent(changed.json()) ?? NaN) - cents(rent(consolidated.json()) ?? NaN)).toBe(777);
    // The caller's own report did not change.
    expect((await ask(url(''), alone.headers.etag as string)).statusCode).toBe(304);
  });
});

describe('property: random books of mixed origins', () => {
  const DOCUMENTS = ['ManualEntry', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'] as const;
  const ACCOUNTS = ['Rent', 'Travel', 'Sales', 'Service Revenue', 'Accounts Payable', 'Accounts Receivable', 'Loans Payable', 'Security Deposits'];
  const FIRST = Date.UTC(2025, 10, 1);
  const dateOf = (day: number) => new Date(FIRST + day * 86_400_000).toISOString().slice(0, 10);
  const booksArb = fc.record({
    bank: fc.array(
      fc.record({
        cents: fc.integer({ min: -200_000, max: 200_000 }).filter((c) => c !== 0),
        day: fc.integer({ min: 0, max: 150 }),
        category: fc.option(fc.nat(), { nil: undefined }),
      }),
      { maxLength: 6 },
    ),
    entries: fc.array(
      fc.record({
        sourceType: fc.constantFrom(...DOCUMENTS),
        debit: fc.nat(),
        credit: fc.nat(),
        cents: fc.integer({ min: 1, max: 500_000 }),
        day: fc.integer({ min: 0, max: 150 }),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    query: fc.record({
      from: fc.integer({ min: 0, max: 120 }),
      length: fc.integer({ min: 0, max: 120 }),
      periodicity: fc.constantFrom('weekly', 'monthly', 'quarterly', 'totals_only'),
    }),
  });

  it('every P&L and balance-sheet cell of each money type equals the ledger lines of its source types; each balance sheet balances', async () => {
    await fc.assert(
      fc.asyncProperty(booksArb, async (input) => {
        const tenant = h.tenant();
        const cats = (await h.api('GET', '/categories', { tenant })).body.categories as { id: string; name: string; type: string }[];
        const category = (name: string) => cats.find((c) => c.name === name)?.id as string;
        const types = new Map(cats.map((c) => [c.id, c.type]));
        if (input.bank.length) {
          const checking = await tenant.banking.link();
          for (const b of input.bank) await tenant.banking.add(checking, { amountCents: b.cents, date: dateOf(b.day), name: `T${b.cents}` });
          const txns = (await h.transactions(tenant, input.bank.length)).data as { id: string; amount: number }[];
          for (const b of input.bank) {
            // Re-categorised: a reversal and a new entry, both bank (one of equal amounts, whichever).
            const txn = txns.find((x) => cents(x.amount) === b.cents);
            if (b.category === undefined || !txn) continue;
            const res = await h.api('PATCH', `/transactions/${txn.id}`, { tenant, body: { categoryId: category(ACCOUNTS[b.category % 4] as string) } });
            expect([200, 400]).toContain(res.status);
          }
        }
        for (const e of input.entries) {
          const debit = ACCOUNTS[e.debit % ACCOUNTS.length] as string;
          const credit = ACCOUNTS[(e.debit + 1 + (e.credit % (ACCOUNTS.length - 1))) % ACCOUNTS.length] as string;
          await h.ledger.client.postEntry(
            {
              sourceType: e.sourceType,
              sourceId: newId(),
              version: 1n,
              date: dateOf(e.day),
              description: e.sourceType,
              lines: [
                { accountId: category(debit), direction: 'debit', amountCents: BigInt(e.cents) },
                { accountId: category(credit), direction: 'credit', amountCents: BigInt(e.cents) },
              ],
            },
            h.ledger.as(tenant.workspaceId),
          );
        }
        await h.caughtUp(tenant);
        const query = `startDate=${dateOf(input.query.from)}&endDate=${dateOf(input.query.from + input.query.length)}&periodicity=${input.query.periodicity}`;
        for (const [moneyType, sourceTypes] of Object.entries(MONEY_TYPES)) {
          const pl = await get(`/financial-data/profit-loss/v3?${query}&moneyType=${moneyType}`, tenant);
          expect(pl.status).toBe(200);
          for (const [i, col] of (pl.body.report.columns as Column[]).entries()) {
            const sums = await lineSums(h.ledger.db.adminDb, tenant.workspaceId, col.startDate, col.endDate, sourceTypes);
            for (const r of accountRows(pl.body.report.data))
              expect(cents(r.amounts[i] ?? NaN), `${moneyType} ${r.name} ${col.startDate}`).toBe(expected(sums, r));
          }
          const bs = await get(`/financial-data/balance-sheet/v2?${query}&moneyType=${moneyType}`, tenant);
          const data = bs.body.data as Row[];
          const total = (name: string, i: number) => cents(data.find((r) => r.name === name)?.amounts[i] ?? NaN);
          for (const [i, col] of (bs.body.columns as Column[]).entries()) {
            expect(total('Total Assets', i), `${moneyType} balances as of ${col.endDate}`).toBe(total('Total Liabilities and Equity', i));
            const sums = await lineSums(h.ledger.db.adminDb, tenant.workspaceId, '0001-01-01', col.endDate, sourceTypes);
            // The year-end close: Retained Earnings carries the net income of the earlier fiscal years (of this money type's lines).
            const closed = netIncomeOf(
              await lineSums(h.ledger.db.adminDb, tenant.workspaceId, '0001-01-01', beforeFiscalYear(col.endDate), sourceTypes),
              types,
            );
            for (const r of accountRows(data))
              expect(cents(r.amounts[i] ?? NaN), `${moneyType} ${r.name} as of ${col.endDate}`).toBe(expected(sums, r) + (holdsRetained(r) ? closed : 0));
          }
        }
      }),
      { numRuns: Number(process.env.REPORTING_MONEYTYPE_RUNS ?? 4), endOnFailure: true },
    );
  }, 600_000);
});
