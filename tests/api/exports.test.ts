// The exports through the real gateway, fed by the real ledger and reporting services (banking's events →
// ledger → entry.posted → reporting): each file has its content type and a file name in content-disposition,
// and the numbers of the P&L, balance sheet and cash-flow statement are the JSON reports' (CSV parsed, XLSX
// read back with exceljs, PDF text read with pdf.js); the general ledger and the transactions come out whole
// over several pages; bad dates are a 400 naming the field; Viewers export; another workspace gets only its
// own books.
import type { AddressInfo } from 'node:net';
import { expectEventually } from '@ledgerline/platform/testing';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayBuffer, pdfPages } from '../../services/gateway/test/support/pdf-text.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Tenant } from './ledger.harness.js';

let h: ReportingApiHarness;
let t: Tenant;
let other: Tenant;
let url: string;

interface Row {
  name: string;
  rowType: string;
  amounts: number[];
  total: number;
  children: Row[];
}
const find = (rows: Row[], name: string): Row | undefined => {
  for (const r of rows) {
    if (r.name === name) return r;
    const hit = find(r.children, name);
    if (hit) return hit;
  }
  return undefined;
};
const must = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`missing ${what}`);
  return v;
};
/** 2 decimals as the CSV writes them. */
const fixed = (n: number) => n.toFixed(2);
/** As an accountant prints them: 1,234.50 and (1,234.50). */
const printed = (n: number) => {
  const s = Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return n < 0 ? `(${s})` : s;
};

/** RFC 4180 records (the test's own reader). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
      i++;
    } else field += c;
  }
  return records;
}

async function download(path: string, tenant: Tenant, token = tenant.token) {
  const res = await fetch(`${url}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-workspace-id': tenant.workspaceId },
    signal: AbortSignal.timeout(30_000),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type');
  // A CSV starts with the UTF-8 byte order mark (for Excel); the records follow it.
  if (res.status === 200 && type?.startsWith('text/csv')) expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  return { status: res.status, type, fileName: /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1], bytes, text };
}
const csvOf = async (path: string, tenant: Tenant = t) => {
  const r = await download(path, tenant);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return parseCsv(r.text);
};
/** Records after the header, keyed by their first cell. */
const byLabel = (records: string[][]) => new Map(records.slice(1).map((r) => [r[0] ?? '', r]));

async function xlsxRows(bytes: Buffer): Promise<Map<string, unknown[]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(arrayBuffer(bytes));
  const rows = new Map<string, unknown[]>();
  must(wb.worksheets[0], 'worksheet').eachRow((r, n) => {
    if (n > 5) rows.set(String(r.getCell(1).value), (r.values as unknown[]).slice(2));
  });
  return rows;
}

const PERIOD = 'startDate=2026-01-01&endDate=2026-02-28';

beforeAll(async () => {
  h = await startReportingHarness();
  url = `http://127.0.0.1:${(h.gatewayWithReporting.server.address() as AddressInfo).port}`;
  t = h.tenant();
  other = h.tenant();
  const checking = await t.banking.link();
  const card = await t.banking.link({ name: 'Visa', type: 'credit', subtype: 'credit card', mask: '4242' });
  await t.banking.add(checking, { amountCents: 50_000, date: '2025-12-20', name: 'December sale' });
  await t.banking.add(checking, { amountCents: 250_000, date: '2026-01-15', name: 'Stripe payout' });
  await t.banking.add(checking, { amountCents: -4_550, date: '2026-01-20', name: 'Smith, Jones & "Partners"' });
  await t.banking.add(checking, { amountCents: -120_000, date: '2026-02-01', name: 'Office rent' });
  await t.banking.add(card, { amountCents: -2_999, date: '2026-02-10', name: 'GitHub' });
  // Enough small ones that the transactions and the checking account's lines take several pages of 100.
  for (let i = 0; i < 110; i++)
    await t.banking.add(checking, { amountCents: -(101 + i), date: `2026-02-${String(1 + (i % 28)).padStart(2, '0')}`, name: `Coffee ${i + 1}` });
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -777, date: '2026-01-02', name: 'Foreign' });
  // The machine is shared: give the ledger time to book them all.
  await expectEventually(
    async () => {
      const r = await h.api('GET', '/transactions/v2?take=1', { tenant: t });
      if (r.body.meta?.itemCount !== 115) throw new Error(`${JSON.stringify(r.body.meta)}`);
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
  const list = (await h.api('GET', '/transactions/v2?take=10&description=rent', { tenant: t })).body.data as { id: string }[];
  const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[];
  const rent = await h.api('PATCH', `/transactions/${must(list[0], 'rent').id}`, { tenant: t, body: { categoryId: cats.find((c) => c.name === 'Rent')?.id } });
  expect(rent.status).toBe(200);
  await h.transactions(other, 1);
  await h.caughtUp(t);
  await h.caughtUp(other);
}, 300_000);
afterAll(async () => h?.close());

describe('the profit and loss: /income-expense/{csv|xlsx|pdf}', () => {
  it("CSV, XLSX and PDF carry the JSON report's totals, with their content types and file names", async () => {
    const json = await h.api('GET', `/financial-data/profit-loss/v3?${PERIOD}&breakdown=month`, { tenant: t });
    expect(json.status).toBe(200);
    const data = json.body.report.data as Row[];
    const income = must(find(data, 'Income'), 'Income');
    const expenses = must(find(data, 'Expenses'), 'Expenses');
    const net = must(find(data, 'Net Income'), 'Net Income');
    const rentRow = must(find(data, 'Rent'), 'Rent');
    // The bookkeeper's layout: the summaries between the sections travel to every file too.
    const grossProfit = must(find(data, 'Gross Profit'), 'Gross Profit');
    const operating = must(find(data, 'Net Operating Income'), 'Net Operating Income');
    expect(net.total).not.toBe(0);

    const csv = await download(`/income-expense/csv?${PERIOD}&breakdown=month`, t);
    expect([csv.status, csv.type, csv.fileName]).toEqual([200, 'text/csv; charset=utf-8', 'profit-and-loss_2026-01-01_2026-02-28.csv']);
    const records = parseCsv(csv.text);
    expect(records[0]).toEqual(['Account', 'Code', 'Level', 'Jan-26', 'Feb-26', 'Total']);
    const lines = byLabel(records);
    for (const [label, row] of [
      ['Total Income', income],
      ['Gross Profit', grossProfit],
      ['Total Expenses', expenses],
      ['Net Operating Income', operating],
      ['Net Income', net],
      ['Rent', rentRow],
    ] as const) {
      expect(lines.get(label)?.slice(3), label).toEqual([...row.amounts, row.total].map(fixed));
    }

    const xlsx = await download(`/income-expense/xlsx?${PERIOD}&breakdown=month`, t);
    expect([xlsx.status, xlsx.type, xlsx.fileName]).toEqual([
      200,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'profit-and-loss_2026-01-01_2026-02-28.xlsx',
    ]);
    const sheet = await xlsxRows(xlsx.bytes);
    expect(sheet.get('Net Income')).toEqual([...net.amounts, net.total]);
    expect(sheet.get('Total Expenses')).toEqual([...expenses.amounts, expenses.total]);
    expect(sheet.get('Gross Profit')).toEqual([...grossProfit.amounts, grossProfit.total]);
    expect(sheet.get('Net Operating Income')).toEqual([...operating.amounts, operating.total]);

    const pdf = await download(`/income-expense/pdf?${PERIOD}&breakdown=month`, t);
    expect([pdf.status, pdf.type, pdf.fileName]).toEqual([200, 'application/pdf', 'profit-and-loss_2026-01-01_2026-02-28.pdf']);
    const text = (await pdfPages(pdf.bytes)).map((p) => p.text).join('\n');
    expect(text).toContain('Books\nProfit and Loss\nJanuary 1, 2026 to February 28, 2026');
    expect(text).toContain(`Net Income ${[...net.amounts, net.total].map(printed).join(' ')}`);
    expect(text).toContain(`Total Income ${[...income.amounts, income.total].map(printed).join(' ')}`);
    expect(text).toContain(`Net Operating Income ${[...operating.amounts, operating.total].map(printed).join(' ')}`);
  });

  it("takes the report's query: one period has one column", async () => {
    const json = await h.api('GET', `/financial-data/profit-loss/v3?${PERIOD}&periodicity=totals_only`, { tenant: t });
    const net = must(find(json.body.report.data, 'Net Income'), 'Net Income');
    const records = await csvOf(`/income-expense/csv?${PERIOD}&periodicity=totals_only`);
    expect(records[0]).toEqual(['Account', 'Code', 'Level', 'Total']);
    expect(byLabel(records).get('Net Income')?.slice(3)).toEqual([fixed(net.total)]);
  });
});

describe('the balance sheet: /balance-sheet/{csv|xlsx|pdf}', () => {
  it("its totals are the JSON report's, Assets = Liabilities + Equity in every file", async () => {
    const json = await h.api('GET', `/financial-data/balance-sheet/v2?${PERIOD}&breakdown=month`, { tenant: t });
    const data = json.body.data as Row[];
    const assets = must(find(data, 'Total Assets'), 'Total Assets');
    const both = must(find(data, 'Total Liabilities and Equity'), 'Total Liabilities and Equity');
    expect(both.amounts).toEqual(assets.amounts);

    const csv = await download(`/balance-sheet/csv?${PERIOD}&breakdown=month`, t);
    expect([csv.status, csv.type, csv.fileName]).toEqual([200, 'text/csv; charset=utf-8', 'balance-sheet_2026-01-01_2026-02-28.csv']);
    const lines = byLabel(parseCsv(csv.text));
    expect(lines.get('Total Assets')?.slice(3)).toEqual(assets.amounts.map(fixed));
    expect(lines.get('Total Liabilities and Equity')?.slice(3)).toEqual(both.amounts.map(fixed));

    const xlsx = await download(`/balance-sheet/xlsx?${PERIOD}&breakdown=month`, t);
    expect(xlsx.fileName).toBe('balance-sheet_2026-01-01_2026-02-28.xlsx');
    expect((await xlsxRows(xlsx.bytes)).get('Total Assets')).toEqual(assets.amounts);

    const pdf = await download(`/balance-sheet/pdf?endDate=2026-02-28&periodicity=totals_only`, t);
    expect([pdf.status, pdf.type]).toEqual([200, 'application/pdf']);
    const asOf = await h.api('GET', '/financial-data/balance-sheet/v2?endDate=2026-02-28&periodicity=totals_only', { tenant: t });
    const text = (await pdfPages(pdf.bytes)).map((p) => p.text).join('\n');
    expect(text).toContain('Balance Sheet\nAs of February 28, 2026');
    expect(text).toContain(`Total Assets ${printed(must(find(asOf.body.data, 'Total Assets'), 'assets').total)}`);
    expect(text).toContain(`Total Liabilities and Equity ${printed(must(find(asOf.body.data, 'Total Liabilities and Equity'), 'L+E').total)}`);
  });
});

describe('the cash-flow statement: /cash-flow-statement/{csv|xlsx|pdf}', () => {
  it("its activities, change in cash and cash at both ends are the JSON report's", async () => {
    const json = await h.api('GET', `/financial-data/cash-flow-statement?${PERIOD}&breakdown=month`, { tenant: t });
    expect(json.status).toBe(200);
    const data = json.body.data as Row[];
    const operating = must(find(data, 'Operating Activities'), 'operating');
    const change = must(find(data, 'Net Change in Cash'), 'change');
    const end = must(find(data, 'Cash at End of Period'), 'end');
    expect(change.total).not.toBe(0);

    const csv = await download(`/cash-flow-statement/csv?${PERIOD}&breakdown=month`, t);
    expect([csv.status, csv.type, csv.fileName]).toEqual([200, 'text/csv; charset=utf-8', 'cash-flow-statement_2026-01-01_2026-02-28.csv']);
    const lines = byLabel(parseCsv(csv.text));
    expect(lines.get('Total Operating Activities')?.slice(3)).toEqual([...operating.amounts, operating.total].map(fixed));
    expect(lines.get('Net Change in Cash')?.slice(3)).toEqual([...change.amounts, change.total].map(fixed));
    expect(lines.get('Cash at End of Period')?.slice(3)).toEqual([...end.amounts, end.total].map(fixed));

    const xlsx = await download(`/cash-flow-statement/xlsx?${PERIOD}&breakdown=month`, t);
    expect([xlsx.type, xlsx.fileName]).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'cash-flow-statement_2026-01-01_2026-02-28.xlsx',
    ]);
    expect((await xlsxRows(xlsx.bytes)).get('Net Change in Cash')).toEqual([...change.amounts, change.total]);

    const pdf = await download(`/cash-flow-statement/pdf?${PERIOD}&breakdown=month`, t);
    expect([pdf.status, pdf.type, pdf.fileName]).toEqual([200, 'application/pdf', 'cash-flow-statement_2026-01-01_2026-02-28.pdf']);
    const text = (await pdfPages(pdf.bytes)).map((p) => p.text).join('\n');
    expect(text).toContain('Books\nStatement of Cash Flows\nJanuary 1, 2026 to February 28, 2026');
    expect(text).toContain(`Cash at End of Period ${[...end.amounts, end.total].map(printed).join(' ')}`);
  });
});

describe('the general ledger: /general-ledger/csv', () => {
  it("every account's opening balance, debits, credits and closing balance, as GET /ledger/get-general-ledger has them", async () => {
    const json = (await h.api('GET', `/ledger/get-general-ledger?${PERIOD}`, { tenant: t })).body.data as {
      name: string;
      coaId: number;
      openingBalance: number;
      debit: number;
      credit: number;
      closingBalance: number;
    }[];
    const r = await download(`/general-ledger/csv?${PERIOD}`, t);
    expect([r.status, r.type, r.fileName]).toEqual([200, 'text/csv; charset=utf-8', 'general-ledger_2026-01-01_2026-02-28.csv']);
    const records = parseCsv(r.text);
    expect(records[0]).toEqual(['Account', 'Code', 'Type', 'Opening balance', 'Debits', 'Credits', 'Closing balance']);
    expect(records.slice(1).map((x) => [x[0], x[1], ...x.slice(3)])).toEqual(
      json.map((a) => [a.name, String(a.coaId), ...[a.openingBalance, a.debit, a.credit, a.closingBalance].map(fixed)]),
    );
    expect(json.some((a) => a.debit > 0)).toBe(true);
  });

  it("with ledgerAccountId, the account's every line over all pages, the running balance ending at its closing balance", async () => {
    const gl = (await h.api('GET', `/ledger/get-general-ledger?${PERIOD}`, { tenant: t })).body.data as {
      ledgerAccountId: string;
      name: string;
      coaId: number;
      closingBalance: number;
    }[];
    const checking = must(
      gl.find((a) => a.name.startsWith('Checking')),
      'checking',
    );
    const json: { description: string; ledgerRunningBalance: number; debit: number; credit: number }[] = [];
    for (let page = 1; ; page++) {
      const p = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checking.ledgerAccountId}&${PERIOD}&page=${page}&take=100`, {
        tenant: t,
      });
      json.push(...p.body.data);
      if (!p.body.meta.hasNextPage) break;
    }
    expect(json.length).toBeGreaterThan(100);
    const r = await download(`/general-ledger/csv?ledgerAccountId=${checking.ledgerAccountId}&${PERIOD}`, t);
    expect(r.status).toBe(200);
    expect(r.fileName).toMatch(/^general-ledger_\d+-checking-[a-z0-9-]*_2026-01-01_2026-02-28\.csv$/);
    const records = parseCsv(r.text);
    expect(records[0]).toEqual([
      'Date',
      'Description',
      'Counter account',
      'Source',
      'Debit',
      'Credit',
      'Amount',
      'Running balance',
      'Journal entry id',
      'Transaction id',
    ]);
    expect(records.slice(1).map((x) => [x[1], x[4], x[5], x[7]])).toEqual(
      json.map((l) => [l.description, fixed(l.debit), fixed(l.credit), fixed(l.ledgerRunningBalance)]),
    );
    expect(records.at(-1)?.[7]).toBe(fixed(checking.closingBalance));
    expect(records.map((x) => x[1])).toContain('Smith, Jones & "Partners"');
  });
});

describe('the transactions: /transactions/csv', () => {
  it('every page of GET /transactions/v2 with the same filters, in the same order', async () => {
    const json: { id: string; memo: string; biller: { name: string } | null; amount: number; dateTime: string }[] = [];
    for (let page = 1; ; page++) {
      const p = await h.api('GET', `/transactions/v2?page=${page}&take=100`, { tenant: t });
      json.push(...p.body.data);
      if (!p.body.meta.hasNextPage) break;
    }
    expect(json).toHaveLength(115);
    const r = await download('/transactions/csv', t);
    expect([r.status, r.type, r.fileName]).toEqual([200, 'text/csv; charset=utf-8', 'transactions.csv']);
    const records = parseCsv(r.text);
    expect(records[0]).toEqual([
      'Date',
      'Memo',
      'Biller',
      'Category',
      'Category code',
      'Debit account',
      'Credit account',
      'Amount',
      'Currency',
      'Finalized',
      'Split',
      'Pending',
      'Transaction id',
    ]);
    expect(records.slice(1).map((x) => [x[12], x[0], x[1], x[2], x[7]])).toEqual(
      json.map((x) => [x.id, x.dateTime, x.memo, x.biller?.name ?? '', fixed(x.amount)]),
    );
    expect(records.find((x) => x[2] === 'Office rent')?.[3]).toBe('Rent');
    expect(records.map((x) => x[2])).toContain('Smith, Jones & "Partners"');

    const filtered = await download('/transactions/csv?flow=inflow&startDate=2026-01-01&endDate=2026-02-28&order=ASC', t);
    expect(filtered.fileName).toBe('transactions_2026-01-01_2026-02-28.csv');
    expect(
      parseCsv(filtered.text)
        .slice(1)
        .map((x) => [x[2], x[7]]),
    ).toEqual([['Stripe payout', '2500.00']]);
  });

  it('carries the transfer filter of the list (transferStatus: review, paired), a bad one refused naming it', async () => {
    for (const status of ['review', 'paired']) {
      const listed = await h.api('GET', `/transactions/v2?transferStatus=${status}&take=100`, { tenant: t });
      expect(listed.status, status).toBe(200);
      const r = await download(`/transactions/csv?transferStatus=${status}`, t);
      expect(r.status, status).toBe(200);
      expect(
        parseCsv(r.text)
          .slice(1)
          .map((x) => x[12]),
        status,
      ).toEqual((listed.body.data as { id: string }[]).map((x) => x.id));
    }
    // Not every transaction is a transfer: the filter narrows the file.
    expect(parseCsv((await download('/transactions/csv?transferStatus=paired', t)).text).length).toBeLessThan(
      parseCsv((await download('/transactions/csv', t)).text).length,
    );
    const bad = await download('/transactions/csv?transferStatus=everything', t);
    expect([bad.status, (JSON.parse(bad.text) as { errors: { field: string }[] }).errors[0]?.field]).toEqual([400, 'transferStatus']);
  });
});

describe('the rules of the edge', () => {
  it('bad dates are a 400 naming the field, as JSON, not a file', async () => {
    for (const [path, field] of [
      ['/income-expense/csv?startDate=2026-13-01', 'startDate'],
      ['/income-expense/pdf?endDate=yesterday', 'endDate'],
      ['/balance-sheet/xlsx?startDate=2026-03-01&endDate=2026-02-01', 'startDate'],
      ['/cash-flow-statement/pdf?startDate=2026-02-31', 'startDate'],
      ['/general-ledger/csv?endDate=2026-02-30', 'endDate'],
      ['/general-ledger/csv?ledgerAccountId=nope', 'ledgerAccountId'],
      ['/transactions/csv?startDate=01/02/2026', 'startDate'],
    ] as const) {
      const r = await download(path, t);
      expect(r.status, path).toBe(400);
      expect(r.type, path).toMatch(/^application\/json/);
      const body = JSON.parse(r.text) as { errors: { field: string }[] };
      expect(body.errors[0]?.field, path).toBe(field);
    }
  });

  it('a Viewer exports the same files', async () => {
    for (const path of [
      `/income-expense/csv?${PERIOD}`,
      `/balance-sheet/csv?${PERIOD}`,
      `/cash-flow-statement/csv?${PERIOD}`,
      `/general-ledger/csv?${PERIOD}`,
      '/transactions/csv',
    ]) {
      const [owner, viewer] = [await download(path, t), await download(path, t, t.viewerToken)];
      expect(viewer.status, path).toBe(200);
      expect(viewer.text, path).toBe(owner.text);
    }
    expect((await download(`/income-expense/xlsx?${PERIOD}`, t, t.viewerToken)).status).toBe(200);
    expect((await download(`/balance-sheet/pdf?${PERIOD}`, t, t.viewerToken)).status).toBe(200);
  });

  it('another workspace exports only its own books, and cannot ask for yours', async () => {
    const txns = await csvOf('/transactions/csv', other);
    expect(txns.slice(1).map((x) => [x[2], x[7]])).toEqual([['Foreign', '-7.77']]);
    const pnl = byLabel(await csvOf(`/income-expense/csv?${PERIOD}`, other));
    expect(pnl.get('Net Income')?.slice(3)).toEqual(['-7.77', '0.00', '-7.77']);
    expect(
      pnl.has('Rent') &&
        pnl
          .get('Rent')
          ?.slice(3)
          .some((v) => v !== '0.00'),
    ).toBe(false);
    const gl = (await h.api('GET', `/ledger/get-general-ledger?${PERIOD}`, { tenant: t })).body.data as { ledgerAccountId: string; name: string }[];
    const mine = must(
      gl.find((a) => a.name.startsWith('Checking')),
      'checking',
    );
    expect((await download(`/general-ledger/csv?ledgerAccountId=${mine.ledgerAccountId}`, other)).status).toBe(404);
    expect((await download(`/income-expense/pdf?${PERIOD}`, { ...other, workspaceId: t.workspaceId })).status).toBe(404);
    expect((await download('/transactions/csv', { ...other, workspaceId: t.workspaceId })).status).toBe(404);
  });
});
