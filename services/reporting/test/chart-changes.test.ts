// chart.changed (the ledger's outbox, same stream as entry.posted) makes a chart change visible to the next
// report read that names its seq, on every replica; cash is recognised by role (renumbering Cash keeps it);
// the dashboard's cash flow counts no transfer between the workspace's own accounts.
import { create } from '@bufbuild/protobuf';
import { createLogger, EventType, newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { CategorySchema, GetChartOfAccountsResponseSchema } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountDirectory, type LedgerClient } from '../src/usecases/accounts.js';
import { ReportUseCases, type Conditional, type Report } from '../src/usecases/reports.js';
import { SpendingUseCases } from '../src/usecases/spending.js';
import { publishBankAccount, publishBankTransaction, publishChartChange, publishEntry, startReporting, transfer, type ReportingHarness } from './support.js';

interface Acc {
  id: string;
  name: string;
  coaId: number;
  type: string;
  level: number;
  parentId: string;
  bankAccountId?: string;
  systemKey?: string;
}

/** A ledger answering GetChartOfAccounts from a chart the test edits (the ledger side is another service's). */
export function fakeLedger() {
  const id = () => newId();
  const a = {
    assets: id(),
    cash: id(),
    checking: id(),
    savings: id(),
    liability: id(),
    card: id(),
    equity: id(),
    re: id(),
    income: id(),
    sales: id(),
    expenses: id(),
    rent: id(),
    transfer: id(),
    xfer: id(),
  };
  const chart: Acc[] = [
    { id: a.assets, name: 'Assets', coaId: 10000, type: 'Assets', level: 1, parentId: '' },
    { id: a.cash, name: 'Cash and Cash Equivalents', coaId: 11100, type: 'Assets', level: 2, parentId: a.assets, systemKey: 'cash' },
    { id: a.checking, name: 'Checking', coaId: 11101, type: 'Assets', level: 3, parentId: a.cash, bankAccountId: id() },
    { id: a.savings, name: 'Savings', coaId: 11102, type: 'Assets', level: 3, parentId: a.cash, bankAccountId: id() },
    { id: a.liability, name: 'Liability', coaId: 20000, type: 'Liability', level: 1, parentId: '' },
    { id: a.card, name: 'Visa', coaId: 21201, type: 'Liability', level: 2, parentId: a.liability, bankAccountId: id() },
    { id: a.equity, name: 'Equity', coaId: 30000, type: 'Equity', level: 1, parentId: '' },
    { id: a.re, name: 'Retained Earnings', coaId: 32000, type: 'Equity', level: 2, parentId: a.equity, systemKey: 'retained_earnings' },
    { id: a.income, name: 'Income', coaId: 40000, type: 'Income', level: 1, parentId: '' },
    { id: a.sales, name: 'Sales', coaId: 41100, type: 'Income', level: 2, parentId: a.income },
    { id: a.expenses, name: 'Expenses', coaId: 50000, type: 'Expenses', level: 1, parentId: '' },
    { id: a.rent, name: 'Rent', coaId: 60900, type: 'Expenses', level: 2, parentId: a.expenses },
    { id: a.transfer, name: 'Transfer', coaId: 90000, type: 'Transfer', level: 1, parentId: '' },
    { id: a.xfer, name: 'Internal Transfers', coaId: 91000, type: 'Transfer', level: 2, parentId: a.transfer, systemKey: 'internal_transfers' },
  ];
  const state = { chart, fiscalYearStartMonth: 0, calls: 0 };
  const client = {
    async getChartOfAccounts() {
      state.calls++;
      return create(GetChartOfAccountsResponseSchema, {
        fiscalYearStartMonth: state.fiscalYearStartMonth,
        chartOfAccounts: state.chart.map((c) =>
          create(CategorySchema, {
            id: c.id,
            name: c.name,
            coaId: c.coaId,
            type: c.type,
            level: c.level,
            parentId: c.parentId,
            bankAccountId: c.bankAccountId ?? '',
            systemKey: c.systemKey ?? '',
          }),
        ),
      });
    },
  } as unknown as LedgerClient;
  const edit = (accountId: string, change: Partial<Acc>) => {
    state.chart = state.chart.map((c) => (c.id === accountId ? { ...c, ...change } : c));
  };
  return { a, state, client, edit };
}

type Row = Report['rows'][number];
const flat = (rows: readonly Row[]): Row[] => rows.flatMap((r) => [r, ...flat(r.children)]);
const body = <T>(r: Conditional<T>): T => {
  if ('notModified' in r && r.notModified) throw new Error('not modified');
  return r as T;
};

const bus = await createTestBus('reporting-chart');
const ledger = fakeLedger();
let r: ReportingHarness;
beforeAll(async () => {
  r = await startReporting(bus, { batchSize: 50, maxDeliver: 2, ledger: ledger.client });
}, 60_000);
afterAll(async () => {
  await r?.close();
  await bus.close();
});

const raw = (over: Record<string, string> = {}) => ({
  startDate: '',
  endDate: '',
  breakdown: '',
  periodicity: '',
  groups: '',
  tags: '',
  excludeZeroes: '',
  seq: '',
  ...over,
});

describe('chart changes', () => {
  const workspaceId = newId();
  const tenant = { workspaceId, userId: newId(), role: 'Owner' as const };
  const { a } = ledger;

  it("a rename, a move of the fiscal year and a renumbered Cash account are visible to the next read naming the change's seq, on every replica", async () => {
    await publishEntry(bus, workspaceId, { seq: 1, date: '2026-03-10', lines: transfer(a.checking, a.sales, 100_000) });
    const first = body(await r.service.reports.profitLoss(tenant, raw({ startDate: '2026-01-01', endDate: '2026-12-31', seq: '1' })));
    expect(first.header.caughtUp).toBe(true);
    expect(flat(first.rows).find((x) => x.id === a.sales)?.name).toBe('Sales');
    // A second replica: its own chart cache (kept a minute), the same database.
    const replica = new ReportUseCases({
      db: r.db.appDb,
      logger: createLogger('replica', 'silent'),
      accounts: new AccountDirectory(ledger.client, 60_000, r.db.appDb),
      catchUpTimeoutMs: 2000,
      cacheEntries: 100,
    });
    expect(
      flat(body(await replica.profitLoss(tenant, raw({ startDate: '2026-01-01', endDate: '2026-12-31', seq: '1' }))).rows).find((x) => x.id === a.sales)?.name,
    ).toBe('Sales');

    // The ledger renames Sales and publishes chart.changed with seq 2; the read naming 2 waits for it.
    ledger.edit(a.sales, { name: 'Revenue' });
    await publishChartChange(bus, workspaceId, 2, 'updated', [a.sales]);
    for (const reports of [r.service.reports, replica]) {
      const pl = body(await reports.profitLoss(tenant, raw({ startDate: '2026-01-01', endDate: '2026-12-31', seq: '2' })));
      expect(pl.header).toMatchObject({ caughtUp: true, seq: 2 });
      expect(flat(pl.rows).find((x) => x.id === a.sales)?.name).toBe('Revenue');
    }

    // Renumbering the Cash account keeps cash in every cash view (role, not coaId).
    const cashBefore = body(await replica.cashFlow(tenant, raw({ startDate: '2026-03-01', endDate: '2026-03-31', seq: '2' })));
    expect(cashBefore.series.closing).toEqual([100_000]);
    ledger.edit(a.cash, { coaId: 18888 });
    await publishChartChange(bus, workspaceId, 3, 'updated', [a.cash]);
    const cashAfter = body(await replica.cashFlow(tenant, raw({ startDate: '2026-03-01', endDate: '2026-03-31', seq: '3' })));
    expect(cashAfter.header.caughtUp).toBe(true);
    expect(cashAfter.series).toEqual(cashBefore.series);
    const cfs = body(await replica.cashFlowStatement(tenant, raw({ startDate: '2026-03-01', endDate: '2026-03-31', seq: '3' })));
    expect(cfs.rows.find((x) => x.name === 'Cash at End of Period')?.amounts).toEqual([100_000]);

    // The fiscal year moves to July: the default P&L starts on 1 July, and the balance sheet closes at 30 June.
    ledger.state.fiscalYearStartMonth = 7;
    await publishChartChange(bus, workspaceId, 4, 'fiscal_year');
    const pl = body(await replica.profitLoss(tenant, raw({ endDate: '2026-08-31', seq: '4' })));
    expect(pl.header).toMatchObject({ startDate: '2026-07-01', fiscalYearStartMonth: 7 });
    const bs = body(await replica.balanceSheet(tenant, raw({ startDate: '2026-06-01', endDate: '2026-07-31', seq: '4' })));
    const re = flat(bs.rows).find((x) => x.id === a.re);
    expect(re?.amounts).toEqual([0, 100_000]);
    expect(bs.rows.find((x) => x.name === 'Net Income')?.amounts).toEqual([100_000, 0]);
    expect(re?.drill).toEqual({ report: 'pnl', startDates: ['', '2026-03-10'], endDates: ['', '2026-06-30'] });
  });

  it('the dashboard cash flow and runway count no transfer between own accounts and no card payment; card purchases are money out', async () => {
    const w = newId();
    const t = { workspaceId: w, userId: newId(), role: 'Owner' as const };
    let seq = 100;
    const post = (date: string, lines: ReturnType<typeof transfer>, biller = '') =>
      publishEntry(bus, w, { seq: ++seq, date, lines, sourceType: 'WorkspaceTransaction', ...(biller ? { billerId: newId(), billerName: biller } : {}) });
    await post('2026-04-02', transfer(a.checking, a.sales, 500_000)); // income 5,000 into checking
    await post('2026-04-05', transfer(a.xfer, a.checking, 200_000)); // checking → transfer account
    await post('2026-04-07', transfer(a.savings, a.xfer, 200_000)); // … → savings, two days later
    await post('2026-04-08', transfer(a.savings, a.checking, 50_000)); // a direct move between two bank accounts
    await post('2026-04-10', transfer(a.rent, a.card, 30_000), 'WeWork'); // rent 300 on the card
    await post('2026-04-20', transfer(a.xfer, a.checking, 30_000), 'Chase Card Payment'); // card payment from checking …
    await post('2026-04-21', transfer(a.card, a.xfer, 30_000), 'Payment Thank You'); // … reaching the card the next day
    const cf = body(await r.service.reports.cashFlow(t, raw({ startDate: '2026-04-01', endDate: '2026-04-30', seq: String(seq) })));
    expect(cf.header.caughtUp).toBe(true);
    expect(cf.series.in).toEqual([500_000]);
    expect(cf.series.out).toEqual([30_000]);
    // Cash itself: 5,000 in, 300 paid to the card.
    expect(cf.series.closing).toEqual([470_000]);
    const pl = body(await r.service.reports.profitLoss(t, raw({ startDate: '2026-04-01', endDate: '2026-04-30', seq: String(seq) })));
    expect(pl.income).toEqual([500_000]);
    expect(pl.expenses).toEqual([30_000]);
    // Spending and top merchants read expenses only: the card payment's merchants are not there.
    const cards = new SpendingUseCases({ db: r.db.appDb, reports: r.service.reports });
    const q = { startDate: '2026-04-01', endDate: '2026-04-30', groups: '', tags: '', moneyType: '', seq: String(seq), workspaces: '' };
    const spending = await cards.spending(t, { ...q, order: '' });
    expect([spending.totalCents, spending.rows.map((x) => [x.id, x.amountCents])]).toEqual([30_000, [[a.rent, 30_000]]]);
    const merchants = await cards.topMerchants(t, q);
    expect([merchants.totalCents, merchants.rows.map((x) => x.name)]).toEqual([30_000, ['WeWork']]);
    // Runway burn over April alone: the card purchase only (no transfer, no card payment).
    const runway = await r.service.reports.runway(t, { month: '2026-04', months: '1', seq: String(seq) });
    expect(runway.avgExpenses).toBe(30_000 - 500_000);
  });
});

describe('accounts in another currency', () => {
  it('a bank account in EUR is left out of the USD reports and every report says so', async () => {
    const w = newId();
    const t = { workspaceId: w, userId: newId(), role: 'Owner' as const };
    const { a } = ledger;
    const savingsBank = ledger.state.chart.find((c) => c.id === a.savings)?.bankAccountId as string;
    await publishEntry(bus, w, { seq: 501, date: '2026-05-02', lines: transfer(a.checking, a.sales, 10_000) });
    await publishEntry(bus, w, { seq: 502, date: '2026-05-03', lines: transfer(a.savings, a.sales, 90_000) });
    const before = body(await r.service.reports.cashFlow(t, raw({ startDate: '2026-05-01', endDate: '2026-05-31', seq: '502' })));
    expect(before.series.closing).toEqual([100_000]);
    expect(before.header.notices).toEqual([]);
    await publishBankAccount(bus, w, EventType.BankAccountLinked, savingsBank, 'eur');
    await expectEventually(async () => {
      const cf = body(await r.service.reports.cashFlow(t, raw({ startDate: '2026-05-01', endDate: '2026-05-31' })));
      expect(cf.series.closing).toEqual([10_000]);
      expect(cf.header.notices).toEqual([
        'Accounts in EUR are not included: Savings. Reports are in USD and never add amounts of another currency as dollars.',
      ]);
    });
    const bs = body(await r.service.reports.balanceSheet(t, raw({ startDate: '2026-05-01', endDate: '2026-05-31' })));
    expect(flat(bs.rows).some((x) => x.id === a.savings)).toBe(false);
    expect(bs.header.notices).toHaveLength(1);
  });
});

describe('bank transactions in another currency', () => {
  it('are left out by the ledger and every report whose period holds one says so; a correction to USD or a removal ends it', async () => {
    const w = newId();
    const t = { workspaceId: w, userId: newId(), role: 'Owner' as const };
    const { a } = ledger;
    await publishEntry(bus, w, { seq: 601, date: '2026-05-02', lines: transfer(a.checking, a.sales, 10_000) });
    const notices = async (startDate: string, endDate: string) => body(await r.service.reports.profitLoss(t, raw({ startDate, endDate }))).header.notices;
    expect(await notices('2026-05-01', '2026-05-31')).toEqual([]);
    const hotel = newId();
    const lunch = newId();
    await publishBankTransaction(bus, w, EventType.BankTransactionAdded, { id: hotel, isoCurrencyCode: 'EUR', date: '2026-05-10', version: 1 });
    await publishBankTransaction(bus, w, EventType.BankTransactionAdded, { id: lunch, isoCurrencyCode: 'eur', date: '2026-05-11', version: 1 });
    await publishBankTransaction(bus, w, EventType.BankTransactionAdded, { id: newId(), isoCurrencyCode: 'USD', date: '2026-05-12', version: 1 });
    await expectEventually(async () =>
      expect(await notices('2026-05-01', '2026-05-31')).toEqual(['2 bank transactions in EUR in this period are not included: the books are kept in USD']),
    );
    // Only a period that holds them says so.
    expect(await notices('2026-06-01', '2026-06-30')).toEqual([]);
    // The bank corrects one to USD (the ledger books it then) and removes the other; an older version arriving late changes nothing.
    await publishBankTransaction(bus, w, EventType.BankTransactionModified, { id: hotel, isoCurrencyCode: 'USD', date: '2026-05-10', version: 2 });
    await expectEventually(async () =>
      expect(await notices('2026-05-01', '2026-05-31')).toEqual(['1 bank transaction in EUR in this period is not included: the books are kept in USD']),
    );
    await publishBankTransaction(bus, w, EventType.BankTransactionModified, { id: hotel, isoCurrencyCode: 'EUR', date: '2026-05-10', version: 1 });
    await publishBankTransaction(bus, w, EventType.BankTransactionRemoved, { id: lunch, version: 2 });
    await expectEventually(async () => expect(await notices('2026-05-01', '2026-05-31')).toEqual([]));
  });
});

describe('the chart consumer', () => {
  it('records a chart change once (redelivery, same event id) and bumps the versions', async () => {
    const w = newId();
    const eventId = newId();
    await publishChartChange(bus, w, 7, 'created', [], eventId);
    await publishChartChange(bus, w, 7, 'created', [], eventId);
    await expectEventually(async () => {
      const rows = (await r.db.adminDb.raw('select seq from chart_changes where workspace_id = ?', [w])).rows as { seq: string }[];
      expect(rows.map((x) => Number(x.seq))).toEqual([7]);
    });
    const v = (await r.db.adminDb.raw('select version from chart_versions where workspace_id = ?', [w])).rows as { version: string }[];
    expect(v.map((x) => Number(x.version))).toEqual([1]);
  });
});
