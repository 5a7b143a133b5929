// Issue #12 "Year-end close and retained earnings": the fiscal year (pure), the chart of accounts as of a
// date (income and expense only the current fiscal year; Retained Earnings = booked + earlier years' net
// income; parents roll up), the Retained Earnings general ledger's virtual closing lines, and chart
// changes numbered from the entries' sequence (chart.changed in the outbox, seq answered).
import { fromBinary } from '@bufbuild/protobuf';
import { createLogger, ErrorKind, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { ChartChangedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDebitNormal, SYSTEM } from '../src/domain/chart.js';
import { addDays } from '../src/domain/dates.js';
import { closedFiscalYears, fiscalYearEnd, fiscalYearName, fiscalYearStart, isFiscalYearStartMonth } from '../src/domain/fiscal-year.js';
import { accountBySystemKey, ensureChart } from '../src/store/chart-store.js';
import { postEntry, reverseEntry } from '../src/store/journal.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { CategoryUseCases, type CategoryView } from '../src/usecases/categories.js';
import { GeneralLedgerUseCases, type LedgerLineView } from '../src/usecases/general-ledger.js';
import { rows } from './support.js';

describe('fiscal year (pure)', () => {
  it('starts on the first day of the start month on or before the date', () => {
    expect(fiscalYearStart('2026-03-15', 1)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-01-01', 1)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-12-31', 1)).toBe('2026-01-01');
    expect(fiscalYearStart('2026-06-30', 7)).toBe('2025-07-01');
    expect(fiscalYearStart('2026-07-01', 7)).toBe('2026-07-01');
    expect(fiscalYearStart('2027-01-01', 7)).toBe('2026-07-01');
    expect(fiscalYearStart('2026-12-31', 12)).toBe('2026-12-01');
    expect(fiscalYearStart('2026-11-30', 12)).toBe('2025-12-01');
  });

  it('ends the day before the next one starts (leap years included) and is named by the year it ends in', () => {
    expect(fiscalYearEnd('2026-05-05', 1)).toBe('2026-12-31');
    expect(fiscalYearEnd('2026-05-05', 7)).toBe('2026-06-30');
    expect(fiscalYearEnd('2023-04-01', 3)).toBe('2024-02-29');
    expect(fiscalYearName('2026-05-05', 1)).toBe('2026');
    expect(fiscalYearName('2025-08-01', 7)).toBe('2026');
    expect(fiscalYearName('2026-06-30', 7)).toBe('2026');
  });

  it('holds every date in exactly one year of twelve months', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 1, max: 12 }), (n, m) => {
        const date = addDays('2000-01-01', n);
        const start = fiscalYearStart(date, m);
        const end = fiscalYearEnd(date, m);
        expect(start <= date && date <= end).toBe(true);
        expect(Number(start.slice(5, 7))).toBe(m);
        expect(start.slice(8)).toBe('01');
        expect(fiscalYearStart(addDays(end, 1), m)).toBe(addDays(end, 1));
        expect(fiscalYearStart(addDays(start, -1), m)).toBe(fiscalYearStart(addDays(start, -1), m));
        expect(fiscalYearEnd(addDays(start, -1), m)).toBe(addDays(start, -1));
      }),
    );
  });

  it('lists the closed years holding activity, oldest first', () => {
    expect(closedFiscalYears(['2026-02-01', '2024-03-01', '2024-11-01', '2025-01-01'], '2026-05-01', 1).map((y) => y.name)).toEqual(['2024', '2025']);
    expect(closedFiscalYears(['2025-06-01', '2025-07-01', '2026-06-01'], '2026-06-30', 7).map((y) => [y.start, y.end])).toEqual([['2024-07-01', '2025-06-30']]);
    expect(isFiscalYearStartMonth(7)).toBe(true);
    for (const bad of [0, 13, 1.5, '3', null]) expect(isFiscalYearStartMonth(bad)).toBe(false);
  });
});

let db: TestDatabase;
let categories: CategoryUseCases;
let gl: GeneralLedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_year_end', ledgerMigrations);
  const deps = { db: db.appDb, logger: createLogger('year-end-test', 'silent') };
  categories = new CategoryUseCases(deps);
  gl = new GeneralLedgerUseCases(deps);
});
afterAll(async () => {
  await db?.drop();
});

interface Books {
  ws: string;
  tenant: { workspaceId: string; role: 'Owner' };
  cash: string;
  sales: string;
  rent: string;
  re: string;
  capital: string;
}

async function books(fiscalYearStartMonth = 1): Promise<Books> {
  const ws = newId();
  const tenant = { workspaceId: ws, role: 'Owner' as const };
  const ids = await withTenant(db.appDb, { workspaceId: ws }, async (trx) => {
    await ensureChart(trx, ws);
    const byName = async (name: string) => ((await trx('accounts').where({ name }).first()) as { id: string }).id;
    return {
      cash: (await accountBySystemKey(trx, SYSTEM.cash)).id,
      sales: await byName('Sales'),
      rent: await byName('Rent'),
      re: (await accountBySystemKey(trx, SYSTEM.retainedEarnings)).id,
      capital: await byName('Common Stock'),
    };
  });
  if (fiscalYearStartMonth !== 1) await categories.setFiscalYear(tenant, fiscalYearStartMonth);
  return { ws, tenant, ...ids };
}

type Dir = 'debit' | 'credit';
const post = (b: Books, date: string, debit: string, credit: string, cents: number, description = `on ${date}`) =>
  withTenant(db.appDb, { workspaceId: b.ws }, (trx) =>
    postEntry(trx, {
      workspaceId: b.ws,
      date,
      sourceType: 'ManualEntry',
      description,
      lines: [
        { accountId: debit, direction: 'debit' as Dir, amountCents: cents },
        { accountId: credit, direction: 'credit' as Dir, amountCents: cents },
      ],
    }),
  );

const balanceIn = (chart: CategoryView[], id: string) => (chart.find((c) => c.account.id === id) as CategoryView).balanceCents;
const byKey = (chart: CategoryView[], name: string) => chart.find((c) => c.account.name === name) as CategoryView;

/** The oracle: lines straight from the table, in an account's normal direction, for dates in [from, to]. */
async function net(accountIds: string[], from: string, to: string, debitNormal: boolean): Promise<number> {
  if (accountIds.length === 0) return 0;
  const [r] = await rows<{ s: string }>(
    db.adminDb,
    "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where account_id = any(?::uuid[]) and entry_date between ?::date and ?::date",
    [accountIds, from, to],
  );
  return Number(r?.s ?? 0) * (debitNormal ? 1 : -1) + 0; // + 0: no -0
}

/** Net income (income − expenses) of lines dated in [from, to], from the table. */
async function netIncome(ws: string, from: string, to: string): Promise<number> {
  const [r] = await rows<{ s: string }>(
    db.adminDb,
    "select coalesce(sum(case when l.direction = 'credit' then l.amount_cents else -l.amount_cents end), 0)::bigint as s from journal_lines l join accounts a on a.id = l.account_id where l.workspace_id = ? and a.class_group in ('Income', 'Expenses') and l.entry_date between ?::date and ?::date",
    [ws, from, to],
  );
  return Number(r?.s ?? 0);
}

/** Every page of an account's ledger, concatenated (without the opening row), and the opening row. */
async function allPages(b: Books, accountId: string, startDate: string, endDate: string, take: number) {
  const first = await gl.ledgerTransactions(b.tenant, { ledgerAccountId: accountId, startDate, endDate, take, page: 1 });
  const lines: LedgerLineView[] = first.data.filter((l) => !l.isOpeningBalance);
  for (let page = 2; page <= first.meta.pageCount; page++) {
    const next = await gl.ledgerTransactions(b.tenant, { ledgerAccountId: accountId, startDate, endDate, take, page });
    expect(next.data.length).toBe(page < first.meta.pageCount ? take : first.meta.itemCount - (page - 1) * take);
    lines.push(...next.data);
  }
  return { opening: first.data[0] as LedgerLineView, meta: first.meta, lines };
}

describe('chart of accounts and general ledger across three fiscal years', () => {
  for (const m of [1, 7]) {
    it(`fiscal year starting in month ${m}: income and expense show only the current year; Retained Earnings = booked + earlier years' net income; parents roll up`, async () => {
      const b = await books(m);
      // Three fiscal years of activity: FY A, FY B, FY C (the current one of the end date), plus a direct posting to RE.
      const fyA = fiscalYearStart('2024-09-15', m);
      const fyB = addDays(fiscalYearEnd(fyA, m), 1);
      const fyC = addDays(fiscalYearEnd(fyB, m), 1);
      await post(b, fyA, b.cash, b.capital, 1_000_000);
      await post(b, addDays(fyA, 40), b.cash, b.sales, 300_000);
      await post(b, addDays(fyA, 200), b.rent, b.cash, 120_000);
      await post(b, addDays(fyB, 10), b.cash, b.sales, 500_000);
      await post(b, fiscalYearEnd(fyB, m), b.rent, b.cash, 150_000);
      await post(b, addDays(fyB, 100), b.re, b.cash, 20_000, 'Dividend booked to Retained Earnings');
      await post(b, addDays(fyC, 3), b.cash, b.sales, 70_000);
      await post(b, addDays(fyC, 5), b.rent, b.cash, 10_000);
      const end = addDays(fyC, 20);

      const { chartOfAccounts: chart, fiscalYearStartMonth } = await categories.chart(b.tenant, end);
      expect(fiscalYearStartMonth).toBe(m);
      expect(balanceIn(chart, b.sales)).toBe(70_000);
      expect(balanceIn(chart, b.rent)).toBe(10_000);
      // RE: -20,000 booked (a debit) + FY A (3,000 − 1,200) + FY B (5,000 − 1,500).
      expect(balanceIn(chart, b.re)).toBe(-20_000 + 180_000 + 350_000);
      expect(balanceIn(chart, b.re)).toBe((await net([b.re], '0001-01-01', end, false)) + (await netIncome(b.ws, '0001-01-01', addDays(fyC, -1))));
      expect(byKey(chart, 'Retained Earnings').account.system_key).toBe('retained_earnings');
      // Parents roll up: Earnings, Equity; Operating Income, Income; the accounting equation holds at the end date.
      expect(balanceIn(chart, byKey(chart, 'Earnings').account.id)).toBe(balanceIn(chart, b.re));
      expect(balanceIn(chart, byKey(chart, 'Equity').account.id)).toBe(1_000_000 + balanceIn(chart, b.re));
      expect(balanceIn(chart, byKey(chart, 'Income').account.id)).toBe(70_000);
      expect(balanceIn(chart, byKey(chart, 'Assets').account.id)).toBe(
        balanceIn(chart, byKey(chart, 'Liability').account.id) + balanceIn(chart, byKey(chart, 'Equity').account.id) + 70_000 - 10_000,
      );

      // As of the last day of FY B: FY B is current, only FY A is closed.
      const atB = (await categories.chart(b.tenant, fiscalYearEnd(fyB, m))).chartOfAccounts;
      expect(balanceIn(atB, b.sales)).toBe(500_000);
      expect(balanceIn(atB, b.re)).toBe(-20_000 + 180_000);

      // The general ledger agrees with the chart: its closing balances for the fiscal year to date.
      const summary = await gl.generalLedger(b.tenant, fyC, end);
      const row = (id: string) => summary.find((r) => r.account.id === id);
      expect(row(b.sales)).toMatchObject({ openingBalanceCents: 0, closingBalanceCents: 70_000 });
      expect(row(b.re)).toMatchObject({ openingBalanceCents: balanceIn(chart, b.re), closingBalanceCents: balanceIn(chart, b.re), yearEndCloseCents: 0 });
      for (const r of summary) expect(r.closingBalanceCents).toBe(chart.find((c) => c.account.id === r.account.id)?.ownBalanceCents);
      // An income account's opening balance mid-year counts from the fiscal year's first day.
      const mid = await gl.ledgerTransactions(b.tenant, { ledgerAccountId: b.sales, startDate: addDays(fyB, 11), endDate: fiscalYearEnd(fyB, m) });
      expect(mid.openingBalanceCents).toBe(500_000);

      // The RE ledger over all three years: booked lines plus one closing line per closed year, in date order.
      const all = await allPages(b, b.re, '', end, 1);
      expect(all.opening.ledgerRunningBalanceCents).toBe(0);
      expect(all.lines.map((l) => [l.date, l.ledgerAmountCents, l.isYearEndClose])).toEqual([
        [fiscalYearEnd(fyA, m), 180_000, true],
        [addDays(fyB, 100), -20_000, false],
        [fiscalYearEnd(fyB, m), 350_000, true],
      ]);
      expect(all.lines[0]?.description).toBe(`Net income of fiscal year ${fiscalYearName(fyA, m)} closed to Retained Earnings`);
      expect(all.lines.at(-1)?.ledgerRunningBalanceCents).toBe(balanceIn(chart, b.re));
      // From a start inside FY B: FY A's close is in the opening balance.
      const fromB = await allPages(b, b.re, addDays(fyB, 1), end, 2);
      expect(fromB.opening.ledgerRunningBalanceCents).toBe(180_000);
      expect(fromB.meta.itemCount).toBe(2);
      expect(fromB.lines.at(-1)?.ledgerRunningBalanceCents).toBe(balanceIn(chart, b.re));
      const span = (await gl.generalLedger(b.tenant, addDays(fyB, 1), end)).find((r) => r.account.id === b.re);
      expect(span).toMatchObject({
        openingBalanceCents: 180_000,
        yearEndCloseCents: 350_000,
        debitCents: 20_000,
        creditCents: 350_000,
        closingBalanceCents: balanceIn(chart, b.re),
      });
    });
  }

  it('changing the fiscal year moves the close (nothing is posted) and is refused outside 1–12, or for a Viewer', async () => {
    const b = await books();
    await post(b, '2025-03-10', b.cash, b.sales, 40_000);
    await post(b, '2025-08-10', b.cash, b.sales, 60_000);
    const entries = async () => (await rows(db.adminDb, 'select id from journal_entries where workspace_id = ?', [b.ws])).length;
    const before = await entries();
    expect(balanceIn((await categories.chart(b.tenant, '2025-09-30')).chartOfAccounts, b.re)).toBe(0);
    await categories.setFiscalYear(b.tenant, 7);
    const chart = (await categories.chart(b.tenant, '2025-09-30')).chartOfAccounts;
    expect([balanceIn(chart, b.re), balanceIn(chart, b.sales)]).toEqual([40_000, 60_000]);
    expect(await entries()).toBe(before);
    // As of the first possible date (how reporting reads the chart without balances): nothing, not an error.
    const first = (await categories.chart(b.tenant, '0001-01-01')).chartOfAccounts;
    expect([balanceIn(first, b.re), balanceIn(first, b.sales)]).toEqual([0, 0]);
    await expect(categories.setFiscalYear(b.tenant, 13)).rejects.toMatchObject({ fields: [{ field: 'fiscalYearStartMonth' }] });
    await expect(categories.setFiscalYear(b.tenant, undefined)).rejects.toMatchObject({ fields: [{ field: 'fiscalYearStartMonth' }] });
    await expect(categories.setFiscalYear({ workspaceId: b.ws, role: 'Viewer' } as never, 3)).rejects.toMatchObject({ kind: ErrorKind.PermissionDenied });
    expect((await categories.fiscalYear(b.tenant)).fiscalYearStartMonth).toBe(7);
  });
});

describe('property: Retained Earnings agrees everywhere at every year end', () => {
  it('random postings over three or more fiscal years: RE in the chart = RE in the general ledger (opening + lines), trial balance zero, every balance from the lines', async () => {
    const posting = fc.record({
      day: fc.integer({ min: 0, max: 4 * 365 }),
      cents: fc.integer({ min: 1, max: 500_000 }),
      kind: fc.integer({ min: 0, max: 4 }),
      reverse: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.array(posting, { minLength: 3, maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        async (m, postings, take) => {
          const b = await books(m);
          const posted: string[] = [];
          for (const p of postings) {
            const date = addDays('2023-01-01', p.day);
            const [debit, credit] = [
              [b.cash, b.sales],
              [b.rent, b.cash],
              [b.sales, b.cash],
              [b.re, b.cash],
              [b.cash, b.capital],
            ][p.kind] as [string, string];
            posted.push(await post(b, date, debit, credit, p.cents));
            if (p.reverse && posted.length > 1) {
              const target = posted[posted.length - 2] as string;
              if ((await rows(db.adminDb, 'select 1 from journal_entries where reverses_entry_id = ?', [target])).length === 0)
                await withTenant(db.appDb, { workspaceId: b.ws }, (trx) => reverseEntry(trx, target, 'reversal'));
            }
          }
          for (let fy = fiscalYearStart('2023-01-01', m); fy <= '2027-01-01'; fy = addDays(fiscalYearEnd(fy, m), 1)) {
            const yearEnd = fiscalYearEnd(fy, m);
            const chart = (await categories.chart(b.tenant, yearEnd)).chartOfAccounts;
            const pages = await allPages(b, b.re, '', yearEnd, take);
            const glRe = pages.lines.length ? (pages.lines.at(-1) as LedgerLineView).ledgerRunningBalanceCents : pages.opening.ledgerRunningBalanceCents;
            expect(glRe).toBe(balanceIn(chart, b.re));
            expect(pages.opening.ledgerRunningBalanceCents + pages.lines.reduce((s, l) => s + l.ledgerAmountCents, 0)).toBe(glRe);
            expect(balanceIn(chart, b.re)).toBe((await net([b.re], '0001-01-01', yearEnd, false)) + (await netIncome(b.ws, '0001-01-01', addDays(fy, -1))));
            // Trial balance of the chart (own balances, debit-normal positive) is zero; P&L accounts count from the fiscal year's start.
            const trial = chart.reduce((s, c) => s + (isDebitNormal(c.account.class_group) ? c.ownBalanceCents : -c.ownBalanceCents), 0);
            expect(trial).toBe(0);
            expect(balanceIn(chart, b.sales)).toBe(await net([b.sales], fy, yearEnd, false));
            expect(balanceIn(chart, b.cash)).toBe(await net([b.cash], '0001-01-01', yearEnd, true));
            // The general ledger's summary agrees with the chart for the fiscal year.
            for (const r of await gl.generalLedger(b.tenant, fy, yearEnd))
              expect(r.closingBalanceCents).toBe(chart.find((c) => c.account.id === r.account.id)?.ownBalanceCents);
          }
        },
      ),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 8) },
    );
  }, 240_000);
});

describe('chart changes are reads after writes', () => {
  it("every chart mutation writes chart.changed with a fresh number from the entries' sequence, in its own transaction, and answers it", async () => {
    const b = await books();
    await post(b, '2026-02-02', b.cash, b.sales, 1_000);
    const [{ seq: entrySeq }] = (await rows<{ seq: string }>(db.adminDb, 'select max(seq)::bigint as seq from journal_entries where workspace_id = ?', [
      b.ws,
    ])) as [{ seq: string }];
    const opex = (await categories.chart(b.tenant, '')).chartOfAccounts.find((c) => c.account.name === 'Operating Expenses') as CategoryView;
    const other = (await categories.chart(b.tenant, '')).chartOfAccounts.find((c) => c.account.name === 'Other Expenses') as CategoryView;
    const created = await categories.create(b.tenant, { name: 'Team Offsite', coaId: 61_801, parentId: opex.account.id });
    const updated = await categories.update(b.tenant, { id: created.category.account.id, name: 'Offsites' });
    const moved = await categories.move(b.tenant, created.category.account.id, other.account.id);
    const deleted = await categories.remove(b.tenant, [created.category.account.id]);
    const fiscal = await categories.setFiscalYear(b.tenant, 4);
    const seqs = [created.seq, updated.seq, moved.seq, deleted.seq, fiscal.seq];
    expect(seqs[0]).toBeGreaterThan(Number(entrySeq));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1] as number);
    const events = (
      await rows<{ envelope: Buffer }>(db.adminDb, "select envelope from outbox where workspace_id = ? and type = 'chart.changed' order by created_at, id", [
        b.ws,
      ])
    ).map((r) => fromBinary(ChartChangedSchema, fromBinary(EventEnvelopeSchema, r.envelope).payload));
    expect(events.map((e) => [Number(e.seq), e.change]).sort((x, y) => (x[0] as number) - (y[0] as number))).toEqual([
      [created.seq, 'created'],
      [updated.seq, 'updated'],
      [moved.seq, 'moved'],
      [deleted.seq, 'deleted'],
      [fiscal.seq, 'fiscal_year'],
    ]);
    expect(events.find((e) => e.change === 'created')?.accountIds).toEqual([created.category.account.id]);
    // A later posting takes a higher number than the chart change (one sequence).
    await post(b, '2026-02-03', b.cash, b.sales, 1_000);
    const [{ seq: after }] = (await rows<{ seq: string }>(db.adminDb, 'select max(seq)::bigint as seq from journal_entries where workspace_id = ?', [
      b.ws,
    ])) as [{ seq: string }];
    expect(Number(after)).toBeGreaterThan(fiscal.seq);
    // A refused change writes nothing.
    const count = async () => (await rows(db.adminDb, "select 1 from outbox where workspace_id = ? and type = 'chart.changed'", [b.ws])).length;
    await expect(categories.remove(b.tenant, [b.sales])).rejects.toBeTruthy();
    expect(await count()).toBe(5);
  });
});
