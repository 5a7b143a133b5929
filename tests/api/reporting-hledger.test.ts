// Issue #5 "Must show": Debian's hledger, reading the ledger's plain-text export as a user downloads it
// (GET /ledger/export), agrees with the profit and loss and the balance sheet, cell by cell, on a
// generated workspace. The workspace is built through the real ledger, seeded and deterministic: bank
// transactions on three linked accounts over two years, booked on arrival and then categorised (a reversal
// and a new entry each, some twice), split and accrued through the gateway, opening balances, and manual
// journal entries, bills and invoices posted with the ledger's PostEntry — into income, expense, asset,
// liability, equity and transfer accounts, including categories created under categories (level 4).
//
// Reports show amounts in the account's normal direction, hledger shows debits positive; accounts are
// matched by coaId through the export's own `account` directives (the names hledger sees).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hledgerBalance, type HledgerTable } from './reporting-hledger.support.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

const BANK_TRANSACTIONS = Number(process.env.REPORTING_HLEDGER_TRANSACTIONS ?? 560);

interface Row {
  id: string | null;
  name: string;
  coaId: number | null;
  type: string | null;
  rowType: string;
  amounts: number[];
  total: number;
  children: Row[];
}
interface Column {
  label: string;
  startDate: string;
  endDate: string;
}

let h: ReportingApiHarness;
let t: Tenant;
let dir: string;
let journal: string;
/** coaId → the account's name in the export (what hledger reports it under). */
let nameOf: Map<number, string>;

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(20260105);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
function weighted<T extends string>(table: [T, number][]): T {
  const sum = table.reduce((s, [, w]) => s + w, 0);
  let x = random() * sum;
  for (const [v, w] of table) if ((x -= w) < 0) return v;
  return (table.at(-1) as [T, number])[0];
}

const FIRST = Date.UTC(2024, 0, 1);
const dateOf = (day: number) => new Date(FIRST + day * 86_400_000).toISOString().slice(0, 10);
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const monthEnd = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).toISOString().slice(0, 10);
const cents = (x: number) => Math.round(x * 100);
const debitNormal = (type: string | null) => type === 'Assets' || type === 'Expenses' || type === 'Transfer';

// Categories created for the test: [name, coaId, parent name]; level 4 under level 3 and a level 3 under a group.
const CREATED: [string, number, string][] = [
  ['Cloud Hosting', 61010, 'Software and Subscriptions'],
  ['Design Tools', 61020, 'Software and Subscriptions'],
  ['Annual Plans', 41310, 'Subscription Revenue'],
  ['Monthly Plans', 41320, 'Subscription Revenue'],
  ['Laptops', 15210, 'Computer Equipment'],
  ['Bank Loan', 25110, 'Loans Payable'],
  ['R&D: Lab Supplies', 61900, 'Operating Expenses'],
];
const INFLOW: [string, number][] = [
  ['Sales', 30],
  ['Service Revenue', 15],
  ['Annual Plans', 15],
  ['Monthly Plans', 10],
  ['Subscription Revenue', 5],
  ['Interest Income', 5],
  ['Other Income', 3],
  ['Owner Contributions', 3],
  ['Common Stock', 2],
  ['Bank Loan', 3],
  ['Refunds and Discounts', 2],
  ['', 9],
];
const OUTFLOW: [string, number][] = [
  ['Rent', 8],
  ['Salaries and Wages', 12],
  ['Cloud Hosting', 8],
  ['Design Tools', 4],
  ['Software and Subscriptions', 4],
  ['Cost of Sales', 6],
  ['Hosting and Infrastructure', 5],
  ['Travel', 5],
  ['Meals and Entertainment', 4],
  ['Office Supplies', 3],
  ['R&D: Lab Supplies', 3],
  ['Laptops', 3],
  ['Security Deposits', 2],
  ['Bank Loan', 3],
  ['Owner Distributions', 2],
  ['Accounts Payable', 3],
  ['Credit Card Payments', 2],
  ['Interest Expense', 2],
  ['', 10],
];
const SPLIT_INTO = ['Rent', 'Travel', 'Meals and Entertainment', 'Office Supplies', 'Cloud Hosting', 'Design Tools', 'R&D: Lab Supplies', 'Cost of Sales'];

/** Runs `fn` over `items`, `n` at a time (the order of the books does not depend on it). */
async function inParallel<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

async function ok(method: string, path: string, body?: unknown) {
  const r = await h.api(method, path, { tenant: t, body });
  if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The workspace: about 2,000 journal entries over 2024–2025. */
async function generate(): Promise<void> {
  const banks = [
    await t.banking.link(),
    await t.banking.link({ name: 'Savings', mask: '5678', subtype: 'savings' }),
    await t.banking.link({ name: 'Visa', type: 'credit', subtype: 'credit card', mask: '4242' }),
  ];
  const planned = Array.from({ length: BANK_TRANSACTIONS }, (_, i) => {
    const inflow = random() < 0.35;
    const cents = inflow ? int(10_000, 2_000_000) : -int(500, 800_000);
    const category = weighted(inflow ? INFLOW : OUTFLOW);
    return { id: '', cents, category, bank: banks[int(0, 2)] as string, date: dateOf(int(0, 730)), name: `${category || 'Unknown'} #${i}` };
  });
  await inParallel(planned, 20, async (p) => {
    p.id = await t.banking.add(p.bank, { amountCents: p.cents, date: p.date, name: p.name });
  });
  const pages = await expectEventually(
    async () => {
      const r = await h.api('GET', '/transactions/v2?take=100', { tenant: t });
      if (r.body?.meta?.itemCount !== BANK_TRANSACTIONS) throw new Error(`booked ${r.body?.meta?.itemCount} of ${BANK_TRANSACTIONS}`);
      return r.body.meta.pageCount as number;
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
  // The ledger's transaction ids, found by the bank's external id (the test banking's `ext-` + the id's end).
  const idOf = new Map<string, string>();
  for (let page = 1; page <= pages; page++)
    for (const x of (await ok('GET', `/transactions/v2?take=100&page=${page}`)).data as { id: string; vendorTransactionId: string }[])
      idOf.set(x.vendorTransactionId, x.id);
  for (const p of planned) p.id = idOf.get(`ext-${p.id.slice(-8)}`) as string;
  expect(new Set(planned.map((p) => p.id)).size).toBe(BANK_TRANSACTIONS);

  const chart = (await ok('GET', '/categories/chart-of-accounts')) as { parentCategories: { id: string; name: string }[] };
  for (const [name, coaId, parent] of CREATED) {
    const parentId = chart.parentCategories.find((c) => c.name === parent)?.id;
    await ok('POST', '/categories', { name, coaId, parentId });
  }
  const categories = (await ok('GET', '/categories')).categories as { id: string; name: string; coaId: number }[];
  const category = (name: string) => {
    const c = categories.find((x) => x.name === name && (name !== 'Other Income' || x.coaId === 42200));
    if (!c) throw new Error(`no category ${name}`);
    return c.id;
  };

  // Categorise (transfers last: a Transfer is not editable afterwards), then re-categorise some.
  const categorised = planned.filter((p) => p.category);
  const edits = async (items: { id: string; categoryId: string }[]) => {
    for (let i = 0; i < items.length; i += 200) await ok('PATCH', '/transactions', { transactions: items.slice(i, i + 200) });
  };
  await edits(categorised.filter((p) => p.category !== 'Credit Card Payments').map((p) => ({ id: p.id, categoryId: category(p.category) })));
  const editable = categorised.filter((p) => p.category !== 'Credit Card Payments');
  const again = editable.filter(() => random() < 0.1);
  await edits(
    again.map((p) => ({
      id: p.id,
      categoryId: category(weighted((p.cents > 0 ? INFLOW : OUTFLOW).filter(([n]) => n && n !== p.category && n !== 'Credit Card Payments'))),
    })),
  );
  await edits(categorised.filter((p) => p.category === 'Credit Card Payments').map((p) => ({ id: p.id, categoryId: category(p.category) })));

  // Splits of outflows across expense categories (the parent's part first, amounts in dollars).
  const pick = () => category(SPLIT_INTO[int(0, SPLIT_INTO.length - 1)] as string);
  const splits = editable
    .filter((p) => p.cents < -300 && !again.includes(p))
    .slice(0, 30)
    .map((p) => {
      const a = int(1, Math.floor(-p.cents / 3));
      const b = int(1, Math.floor(-p.cents / 3));
      return {
        parentTransaction: { id: p.id, amount: (-p.cents - a - b) / 100, categoryId: pick() },
        splitTransactions: [
          { amount: a / 100, categoryId: pick() },
          { amount: b / 100, categoryId: pick() },
        ],
      };
    });
  await inParallel(splits, 4, (body) => ok('POST', '/transactions/split', body));

  // Accruals: payments spread over Prepaid Expenses, receipts over Deferred Revenue.
  const uncategorised = planned.filter((p) => !p.category);
  for (const [i, p] of uncategorised.slice(0, 6).entries()) {
    const start = `2024-${String(2 + i).padStart(2, '0')}-01`;
    const [accrualCategory, recognise] = p.cents < 0 ? ['Prepaid Expenses', i % 2 ? 'Insurance' : 'Design Tools'] : ['Deferred Revenue', 'Annual Plans'];
    await ok('POST', '/transactions/create-accrual', {
      transactionId: p.id,
      accrualStartDate: start,
      accrualEndDate: monthEnd(2024 + (i % 2), 10 + (i % 2)),
      accrualCategory,
      recogniseCategoryId: category(recognise as string),
    });
  }

  // Opening balances (against Opening Balance Equity), before and on the first day of the books.
  for (const [name, amount, date] of [
    ['Checking ••1234', 25_000, '2023-12-31'],
    ['Bank Loan', 40_000, '2024-01-01'],
    ['Laptops', 3_200.5, '2023-12-31'],
    ['Security Deposits', 1_500, '2023-12-31'],
  ] as const) {
    await ok('PUT', `/categories/${category(name)}/opening-balance`, { openingBalance: amount, openingBalanceDate: date });
  }

  // Manual journal entries, bills and invoices through the ledger's PostEntry (no REST route posts them yet).
  const post = async (
    sourceType: string,
    sourceId: string,
    version: number,
    date: string,
    description: string,
    lines: [string, 'debit' | 'credit', number][],
  ) =>
    h.ledger.client.postEntry(
      {
        sourceType,
        sourceId,
        version: BigInt(version),
        date,
        description,
        lines: lines.map(([name, direction, c]) => ({ accountId: category(name), direction, amountCents: BigInt(c) })),
      },
      h.ledger.as(t.workspaceId),
    );
  const postings: (() => Promise<unknown>)[] = [];
  for (let m = 0; m < 24; m++) {
    const end = monthEnd(2024 + Math.floor(m / 12), m % 12);
    const wages = int(100_000, 900_000);
    const taxes = Math.round(wages * 0.0765);
    const invoice = int(50_000, 2_500_000);
    const invoiceDate = dateOf(int(m * 30, m * 30 + 29));
    postings.push(
      () =>
        post('ManualEntry', newId(), 1, end, 'Depreciation', [
          ['Depreciation Expense', 'debit', 26_675],
          ['Accumulated Depreciation', 'credit', 26_675],
        ]),
      () =>
        post('ManualEntry', newId(), 1, end, 'Accrued payroll', [
          ['Salaries and Wages', 'debit', wages],
          ['Payroll Taxes', 'debit', taxes],
          ['Payroll Liabilities', 'credit', wages + taxes],
        ]),
      () =>
        post('Invoice', newId(), 1, invoiceDate, 'Invoice', [
          ['Accounts Receivable', 'debit', invoice],
          ['Service Revenue', 'credit', invoice],
        ]),
    );
  }
  for (let i = 0; i < 8; i++) {
    const date = dateOf(int(0, 700));
    const amount = int(10_000, 400_000);
    postings.push(async () => {
      const billId = newId();
      await post('Bill', billId, 1, date, 'Bill from a supplier', [
        ['Hosting and Infrastructure', 'debit', amount],
        ['Accounts Payable', 'credit', amount],
      ]);
      // A changed bill: the ledger reverses version 1 and posts version 2.
      if (i % 3 === 0)
        await post('Bill', billId, 2, date, 'Bill from a supplier (corrected)', [
          ['Cloud Hosting', 'debit', 12_345],
          ['Accounts Payable', 'credit', 12_345],
        ]);
    });
  }
  postings.push(
    () =>
      post('ManualEntry', newId(), 1, '2025-06-30', 'Year-end true-up', [
        ['Rent', 'debit', 150_000],
        ['Utilities', 'debit', 23_456],
        ['Accrued Liabilities', 'credit', 173_456],
      ]),
    () =>
      post('ManualEntry', newId(), 1, '2024-12-31', 'Close 2023 earnings', [
        ['Opening Balance Equity', 'debit', 500_000],
        ['Retained Earnings', 'credit', 500_000],
      ]),
  );
  await inParallel(postings, 6, (p) => p());
}

beforeAll(async () => {
  h = await startReportingHarness();
  t = h.tenant();
  await generate();
  await h.caughtUp(t, 60_000);
  dir = mkdtempSync(join(tmpdir(), 'reporting-hledger-'));
  // The export a user downloads, through the gateway.
  const exported = await h.api('GET', '/ledger/export?format=hledger', { tenant: t });
  expect(exported.status).toBe(200);
  journal = join(dir, 'books.journal');
  writeFileSync(journal, exported.body as string);
  nameOf = new Map([...(exported.body as string).matchAll(/^account (.+?) {2}; coaId: (\d+)$/gm)].map((m) => [Number(m[2]), m[1] as string]));
}, 300_000);
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await h?.close();
});

const report = async (path: string, query: string) => {
  const r = await h.api('GET', `/financial-data/${path}?${query}`, { tenant: t });
  expect(r.status, `${path}?${query}`).toBe(200);
  return r.body;
};
// The P&L's sections (Income, Cost of Goods Sold, …) are not accounts: looked into.
const accountRows = (rows: Row[]): Row[] => rows.flatMap((r) => (r.id ? [r, ...accountRows(r.children)] : accountRows(r.children)));
/** hledger's header of a report column: 2025-01 by month, 2025Q1 by quarter, balance for one column. */
const hledgerHeader = (c: Column, interval: string[]) =>
  interval[0] === '-M'
    ? c.startDate.slice(0, 7)
    : interval[0] === '-Q'
      ? `${c.startDate.slice(0, 4)}Q${Math.floor(Number(c.startDate.slice(5, 7)) / 3) + 1}`
      : 'balance';
/** hledger's report period for the report's columns: [first start, day after last end). */
const period = (columns: Column[]) => ['-b', (columns[0] as Column).startDate, '-e', nextDay((columns.at(-1) as Column).endDate)];

/**
 * Every account row of the report (sections and parents included) against hledger's row of the same
 * account, per column (and `total` against hledger's row total when `totals` is given); every account
 * hledger reports must be a row of the report. Returns the differences and the number of non-zero cells.
 */
function compareAccounts(
  what: string,
  rows: Row[],
  columns: Column[],
  hl: HledgerTable,
  totals?: (r: Row) => number,
  adjust: (name: string, i: number) => number = () => 0,
): { differences: string[]; nonZero: number } {
  const differences: string[] = [];
  let nonZero = 0;
  const seen = new Set<string>();
  for (const r of accountRows(rows)) {
    const name = nameOf.get(r.coaId as number);
    if (!name) {
      differences.push(`${what}: no account ${r.coaId} (${r.name}) in the export`);
      continue;
    }
    seen.add(name);
    const sign = debitNormal(r.type) ? 1 : -1;
    const theirs = hl.rows.get(name) ?? Array(columns.length + (totals ? 1 : 0)).fill(0);
    for (const [i, c] of columns.entries()) {
      const expected = sign * (theirs[i] as number) + adjust(name, i);
      if (cents(r.amounts[i] ?? NaN) !== expected) differences.push(`${what} ${name} ${c.label}: report ${r.amounts[i]}, hledger ${expected / 100}`);
      if (expected !== 0) nonZero++;
    }
    if (totals && cents(totals(r)) !== sign * (theirs.at(-1) as number))
      differences.push(`${what} ${name} total: report ${totals(r)}, hledger ${(sign * (theirs.at(-1) as number)) / 100}`);
  }
  // The P&L's class groups (Income, Expenses) are its sections' sums, not rows: hledger's top-level totals of them are not looked for.
  for (const [name, amounts] of hl.rows)
    if (!seen.has(name) && !(totals && !name.includes(':')) && amounts.some((x) => x !== 0))
      differences.push(`${what}: hledger reports ${name}, the report has no row for it`);
  return { differences, nonZero };
}

/** A computed line of the report (`labels`, and `total` last when given) against hledger's figures. */
function compareLine(what: string, labels: string[], actual: number[], expected: number[]): string[] {
  return expected.map((e, i) => (cents(actual[i] ?? NaN) === e ? '' : `${what} ${labels[i]}: report ${actual[i]}, hledger ${e / 100}`)).filter(Boolean);
}

describe(`hledger on the ledger's export agrees with the reports (${BANK_TRANSACTIONS} bank transactions, ~2,000 entries, 2024–2025)`, () => {
  it('the export holds the generated books', () => {
    // The whole journal balances (hledger's trial balance), and it holds what was generated.
    expect(hledgerBalance(journal, []).total).toEqual([0]);
    expect(nameOf.size).toBeGreaterThan(80);
    const entries = [...readFileSync(journal, 'utf8').matchAll(/^\d{4}-\d{2}-\d{2} /gm)].length;
    expect(entries).toBeGreaterThan(1_500);
    expect(nameOf.get(61010)).toBe('Expenses:Operating Expenses:Software and Subscriptions:Cloud Hosting');
    expect(nameOf.get(61900)).toBe('Expenses:Operating Expenses:R&D- Lab Supplies');
  });

  const PL: [string, string, string[]][] = [
    ['by month over 2025', 'startDate=2025-01-01&endDate=2025-12-31&periodicity=monthly', ['-M']],
    ['by quarter over 2024–2025', 'startDate=2024-01-01&endDate=2025-12-31&periodicity=quarterly', ['-Q']],
    ['totals only over 2024–2025', 'startDate=2024-01-01&endDate=2025-12-31&periodicity=totals_only', []],
    // Part months: the read model sums days at both ends.
    ['totals only from 2024-03-15 to 2025-02-10', 'startDate=2024-03-15&endDate=2025-02-10&periodicity=totals_only', []],
  ];
  for (const [title, query, interval] of PL) {
    it(`profit-loss/v3 ${title}: every account, parent and section, Income, Expenses and Net Income, per column and in total`, async () => {
      const pl = await report('profit-loss/v3', query);
      const columns = pl.report.columns as Column[];
      const data = pl.report.data as Row[];
      const hl = hledgerBalance(journal, [...period(columns), ...interval, '^Income(:|$)', '^Expenses(:|$)'], { rowTotal: true });
      expect(hl.columns).toEqual(columns.map((c) => hledgerHeader(c, interval)));
      const { differences, nonZero } = compareAccounts(`P&L ${title}`, data, columns, hl, (r) => r.total);
      const net = data.find((r) => r.name === 'Net Income') as Row;
      // hledger's total of income and expenses is −(net income).
      differences.push(
        ...compareLine(
          'Net Income',
          [...columns.map((c) => c.label), 'total'],
          [...net.amounts, net.total],
          hl.total.map((x) => -x),
        ),
      );
      for (const section of ['Income', 'Expenses']) expect(data.find((r) => r.name === section)?.rowType).toBe('section');
      expect(differences).toEqual([]);
      expect(nonZero).toBeGreaterThan(columns.length * 8);
    }, 60_000);
  }

  const BS: [string, string, string[]][] = [
    ['by month over 2025', 'startDate=2025-01-01&endDate=2025-12-31&periodicity=monthly', ['-M']],
    ['by month over 2024', 'startDate=2024-01-01&endDate=2024-12-31&periodicity=monthly', ['-M']],
    // As of a day inside a month, with earnings from a day inside another.
    ['totals only from 2024-03-15 to 2025-02-10', 'startDate=2024-03-15&endDate=2025-02-10&periodicity=totals_only', []],
  ];
  for (const [title, query, interval] of BS) {
    it(`balance-sheet/v2 ${title}: every account as of each column's end, the totals, retained earnings and net income`, async () => {
      const bs = await report('balance-sheet/v2', query);
      const columns = bs.columns as Column[];
      const labels = columns.map((c) => c.label);
      const data = bs.data as Row[];
      const when = [...period(columns), ...interval, '-H'];
      const accounts = hledgerBalance(journal, [...when, '^Assets(:|$)', '^Transfer(:|$)', '^Liability(:|$)', '^Equity(:|$)']);
      expect(accounts.columns).toEqual(columns.map((c) => hledgerHeader(c, interval)));
      // The year-end close: Retained Earnings (and the accounts above it) also hold the net income of every
      // fiscal year (calendar years) before each column's: hledger's income − expenses before that 1 January.
      const fiscalYears = columns.map((c) => `${c.endDate.slice(0, 4)}-01-01`);
      const closed = fiscalYears.map((f) => -(hledgerBalance(journal, ['-e', f, '^Income(:|$)', '^Expenses(:|$)']).total[0] ?? 0));
      const retainedName = [...nameOf.values()].find((n) => /^Equity:(.*:)?Retained Earnings$/.test(n)) as string;
      expect(retainedName).toBeTruthy();
      const { differences, nonZero } = compareAccounts(`balance sheet ${title}`, data, columns, accounts, undefined, (name, i) =>
        name === retainedName || retainedName.startsWith(`${name}:`) ? (closed[i] as number) : 0,
      );
      const row = (name: string) => (data.find((r) => r.name === name) as Row).amounts;
      // hledger's subtotals of the class groups (its top-level accounts), debits positive.
      const top = (name: string) => accounts.rows.get(name) ?? columns.map(() => 0);
      const assets = columns.map((_, i) => (top('Assets')[i] as number) + (top('Transfer')[i] as number));
      const liabilitiesAndEquity = columns.map((_, i) => -(top('Liability')[i] as number) - (top('Equity')[i] as number));
      const equity = columns.map((_, i) => -(top('Equity')[i] as number));
      // Earnings not closed to an account: income − expenses before the start, and from the start to each column's end.
      const start = (columns[0] as Column).startDate;
      const earlier = 0 - (hledgerBalance(journal, ['-e', start, '^Income(:|$)', '^Expenses(:|$)']).total[0] as number);
      const netIncome = hledgerBalance(journal, [...period(columns), ...interval, '--cumulative', '^Income(:|$)', '^Expenses(:|$)']).total.map((x) => -x);
      const earnings = (x: number, i: number) => x + earlier + (netIncome[i] as number);
      differences.push(
        ...compareLine('Total Assets', labels, row('Total Assets'), assets),
        // Net Income: the column's fiscal year, from its 1 January to the column's end.
        ...compareLine(
          'Net Income',
          labels,
          row('Net Income'),
          columns.map(
            (c, i) => -(hledgerBalance(journal, ['-b', fiscalYears[i] as string, '-e', nextDay(c.endDate), '^Income(:|$)', '^Expenses(:|$)']).total[0] ?? 0),
          ),
        ),
        ...compareLine('Total Equity', labels, row('Total Equity'), equity.map(earnings)),
        ...compareLine('Total Liabilities and Equity', labels, row('Total Liabilities and Equity'), liabilitiesAndEquity.map(earnings)),
      );
      expect(differences).toEqual([]);
      expect(nonZero).toBeGreaterThan(columns.length * 10);
      // The books start in 2024: a column in 2025 has a closed year in Retained Earnings.
      if (columns.some((c) => c.endDate >= '2025-01-01')) expect(closed.some((x) => x !== 0)).toBe(true);
      expect(netIncome.length).toBe(columns.length);
    }, 60_000);
  }
});
