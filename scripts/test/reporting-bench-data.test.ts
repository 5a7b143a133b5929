// The reporting benchmark's data set: generated through the ledger's own bulk posting, it must be books the
// product shows as such — the reports through the gateway equal the generated entries, the balance sheet
// has content and balances, an interrupted generation resumes without posting anything twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryAt, generate, type GeneratorPlan } from '../../services/ledger/bench/bulk-generate.js';
import { publishedEntries } from '../../services/ledger/test/support.js';
import { prepareAccounts, type Api } from '../../services/reporting/bench/reporting-bench.js';
import { startReportingHarness, type ReportingApiHarness } from '../../tests/api/reporting.harness.js';
import type { Tenant } from '../../tests/api/ledger.harness.js';

const ENTRIES = 1_500;
let h: ReportingApiHarness;
let t: Tenant;
let api: Api;
let plan: GeneratorPlan;
let typeOf: Map<string, string>;

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  await t.banking.workspaceCreated();
  api = (method, path, body) => h.api(method, path, { tenant: t, body });
  const accounts = await prepareAccounts(api, () => undefined, 120);
  plan = { databaseUrl: h.ledger.db.appUrl, workspaceId: t.workspaceId, entries: ENTRIES, chunk: 400, seed: 7, ...accounts };
  typeOf = new Map(((await api('GET', '/categories')).body.categories as { id: string; type: string }[]).map((c) => [c.id, c.type]));
}, 180_000);

afterAll(async () => {
  await h?.close();
});

/** What the generated entries add up to per class, in cents, in each class's normal direction. */
function expected(entries: number) {
  const sums = new Map<string, number>();
  for (let i = 0; i < entries; i++) {
    for (const l of entryAt(plan, i).lines) {
      const type = typeOf.get(l.accountId) ?? '?';
      const debitNormal = type === 'Assets' || type === 'Expenses' || type === 'Transfer';
      const signed = (l.direction === 'debit') === debitNormal ? l.amountCents : -l.amountCents;
      sums.set(type, (sums.get(type) ?? 0) + signed);
    }
  }
  return (type: string) => sums.get(type) ?? 0;
}

const cents = (dollars: number) => Math.round(dollars * 100);

describe('the reporting bench data set', () => {
  it('draws the same entries from the same plan: balanced, dated 2023–2025, income, expenses and balance-sheet movements', () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const e = entryAt(plan, i);
      expect(entryAt(plan, i)).toEqual(e);
      expect(e.date >= '2023-01-01' && e.date <= '2025-12-31').toBe(true);
      const [debit, credit] = e.lines;
      expect(debit?.amountCents).toBe(credit?.amountCents);
      expect(debit?.amountCents).toBeGreaterThan(0);
      kinds.add(`${typeOf.get(debit?.accountId ?? '')}/${typeOf.get(credit?.accountId ?? '')}`);
    }
    expect(kinds).toContain('Assets/Income');
    expect(kinds).toContain('Expenses/Assets');
    expect(kinds).toContain('Assets/Liability');
    expect(kinds).toContain('Assets/Equity');
    expect(entryAt({ ...plan, seed: 8 }, 0)).not.toEqual(entryAt(plan, 0));
  });

  it('posts through the ledger, resumes after an interruption without posting twice, and the reports show exactly those books', async () => {
    const first = await generate({ ...plan, entries: 1_000 }, () => undefined);
    expect(first).toMatchObject({ posted: 1_000, skipped: 0 });
    // A run stopped after 1,000 entries: the next one posts only the rest, a third nothing.
    expect(await generate(plan, () => undefined)).toMatchObject({ posted: ENTRIES - 1_000, skipped: 1_000 });
    expect(await generate(plan, () => undefined)).toMatchObject({ posted: 0, skipped: ENTRIES });
    const admin = h.ledger.db.adminDb;
    expect(Number((await admin.raw('select count(*) as n from journal_entries where workspace_id = ?', [t.workspaceId])).rows[0].n)).toBe(ENTRIES);
    // Every entry published once, whether alone (entry.posted) or in a batch (entries.posted, issue #22).
    const published = await publishedEntries(admin, t.workspaceId);
    expect(published).toHaveLength(ENTRIES);
    expect(new Set(published.map((e) => e.entryId)).size).toBe(ENTRIES);

    // The relay publishes the entries and reporting applies them: its check against the ledger passes.
    await h.caughtUp(t, 120_000);
    const sums = expected(ENTRIES);
    const pl = await api('GET', '/financial-data/profit-loss/v3?startDate=2023-01-01&endDate=2025-12-31&periodicity=totals_only');
    expect(pl.status).toBe(200);
    const section = (rows: { name: string; total: number }[], name: string) => cents(rows.find((r) => r.name === name)?.total ?? Number.NaN);
    // The P&L's sections split the classes: Income + Other Income; Cost of Goods Sold + Expenses + Other Expenses.
    const pick = (...names: string[]) =>
      names.reduce((t, n) => t + (pl.body.report.data.some((r: { name: string }) => r.name === n) ? section(pl.body.report.data, n) : 0), 0);
    expect(pick('Income', 'Other Income')).toBe(sums('Income'));
    expect(pick('Cost of Goods Sold', 'Expenses', 'Other Expenses')).toBe(sums('Expenses'));
    expect(section(pl.body.report.data, 'Net Income')).toBe(sums('Income') - sums('Expenses'));

    const bs = await api('GET', '/financial-data/balance-sheet/v2?startDate=2023-01-01&endDate=2025-12-31&periodicity=totals_only');
    expect(bs.status).toBe(200);
    expect(section(bs.body.data, 'Total Assets')).toBe(sums('Assets'));
    expect(section(bs.body.data, 'Liability')).toBe(sums('Liability'));
    expect(sums('Liability')).not.toBe(0);
    expect(section(bs.body.data, 'Total Liabilities and Equity')).toBe(sums('Assets'));

    // The busiest account's general ledger pages through every line on cash.
    const onCash = Array.from({ length: ENTRIES }, (_, i) => entryAt(plan, i)).filter((e) => e.lines.some((l) => l.accountId === plan.cash)).length;
    const gl = await api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${plan.cash}&take=100&page=1`);
    expect(gl.body.meta.itemCount).toBe(onCash);
  }, 240_000);
});
