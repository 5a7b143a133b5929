// The export renderers on a report as the reporting service answers it: CSV quoting and amounts, the
// statement layout (headings, indentation, totals), the XLSX read back with exceljs (number cells, number
// formats, bold totals, indents) and the PDF read back with pdf.js (title, entity, period, right-aligned
// amounts, totals, pages).
import type { ReportRowTree as ReportRow, RowTypeName } from '../src/reporting/present.js';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvField, csvRow, statementCsv } from '../src/exports/csv.js';
import { contentDisposition, exportFileName } from '../src/exports/files.js';
import { plainAmount, statementAmount } from '../src/exports/money.js';
import { pdfText, statementPdf } from '../src/exports/pdf.js';
import { balanceSheetStatement, cashFlowStatement, profitLossStatement, type Statement } from '../src/exports/statement.js';
import { AMOUNT_FORMAT, statementXlsx } from '../src/exports/xlsx.js';
import { arrayBuffer, pdfPages } from './support/pdf-text.js';

type RowInit = { name: string; rowType: RowTypeName; amounts: bigint[]; coaId?: number; children?: ReportRow[]; total?: bigint };
const row = ({ name, rowType, amounts, coaId = 0, children = [], total = amounts.reduce((s, v) => s + v, 0n) }: RowInit): ReportRow => ({
  id: '',
  name,
  rowType,
  coaId,
  type: '',
  level: 0,
  group: '',
  tag: '',
  amountsCents: amounts.map(Number),
  totalCents: Number(total),
  children,
});

// Operating Expenses has postings of its own (10.00 in January) besides its two accounts.
const rent = row({ name: 'Rent', rowType: 'account', coaId: 60100, amounts: [0n, 120_000n] });
const meals = row({ name: 'Meals, "client" lunches', rowType: 'account', coaId: 60200, amounts: [4_550n, 0n] });
const operating = row({ name: 'Operating Expenses', rowType: 'account', coaId: 60000, amounts: [5_550n, 120_000n], children: [rent, meals] });
const software = row({ name: 'Software', rowType: 'account', coaId: 61000, amounts: [0n, 2_999n] });
const sales = row({ name: 'Sales', rowType: 'account', coaId: 40100, amounts: [250_000n, 0n] });
const pnl = {
  header: { reportName: 'ProfitAndLoss', startDate: '2026-01-01', endDate: '2026-02-28', currency: 'USD' },
  columns: [
    { label: 'Jan-26', startDate: '2026-01-01', endDate: '2026-01-31' },
    { label: 'Feb-26', startDate: '2026-02-01', endDate: '2026-02-28' },
  ],
  rows: [
    row({ name: 'Income', rowType: 'section', coaId: 40000, amounts: [250_000n, 0n], children: [sales] }),
    row({ name: 'Expenses', rowType: 'section', coaId: 50000, amounts: [5_550n, 122_999n], children: [operating, software] }),
    row({ name: 'Net Income', rowType: 'summary', amounts: [244_450n, -122_999n] }),
  ],
};
const statement = profitLossStatement(pnl, 'Acme Books');

/** RFC 4180 records back into fields (the test's own reader, independent of the writer). */
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

describe('amounts and CSV fields', () => {
  it('amounts have 2 decimals, exactly, from cents', () => {
    expect([123_456n, -5n, 0n, 100n, -1_000_000_001n, 9_007_199_254_740_993n].map(plainAmount)).toEqual([
      '1234.56',
      '-0.05',
      '0.00',
      '1.00',
      '-10000000.01',
      '90071992547409.93',
    ]);
    expect([123_456_789n, -120_000n, 5n].map(statementAmount)).toEqual(['1,234,567.89', '(1,200.00)', '0.05']);
  });

  it('quotes fields with commas, quotes and line breaks (RFC 4180), and defuses text a spreadsheet would run', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1 refund')).toBe("'+1 refund");
    expect(csvField(-4_550n)).toBe('-45.50');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('Yes');
    expect(csvRow(['x', 1, 2n])).toBe('x,1,0.02\r\n');
  });
});

describe('the statement layout', () => {
  it('headings, accounts one level deeper, a parent\'s own postings, "Total ..." lines and the bottom line', () => {
    expect(statement.columns).toEqual(['Jan-26', 'Feb-26', 'Total']);
    expect(statement.period).toBe('January 1, 2026 to February 28, 2026');
    expect(statement.lines.map((l) => [l.label, l.depth, l.kind, l.amountsCents])).toEqual([
      ['Income', 0, 'heading', null],
      ['Sales', 1, 'account', [250_000n, 0n, 250_000n]],
      ['Total Income', 0, 'total', [250_000n, 0n, 250_000n]],
      ['Expenses', 0, 'heading', null],
      ['Operating Expenses', 1, 'heading', null],
      ['Rent', 2, 'account', [0n, 120_000n, 120_000n]],
      ['Meals, "client" lunches', 2, 'account', [4_550n, 0n, 4_550n]],
      ['Operating Expenses', 2, 'account', [1_000n, 0n, 1_000n]],
      ['Total Operating Expenses', 1, 'total', [5_550n, 120_000n, 125_550n]],
      ['Software', 1, 'account', [0n, 2_999n, 2_999n]],
      ['Total Expenses', 0, 'total', [5_550n, 122_999n, 128_549n]],
      ['Net Income', 0, 'summary', [244_450n, -122_999n, 121_451n]],
    ]);
  });

  it("a balance sheet's own totals close its sections, with the rows between them inside", () => {
    const checking = row({ name: 'Checking', rowType: 'account', coaId: 10100, amounts: [175_450n] });
    const clearing = row({ name: 'Clearing', rowType: 'account', coaId: 90100, amounts: [-50n] });
    const obe = row({ name: 'Opening Balance Equity', rowType: 'account', coaId: 30100, amounts: [100n] });
    const sheet = balanceSheetStatement(
      {
        header: { startDate: '2026-01-01', endDate: '2026-02-28' },
        columns: [{ label: 'Feb-26' }],
        rows: [
          row({ name: 'Assets', rowType: 'section', amounts: [175_450n], children: [checking] }),
          row({ name: 'Transfer', rowType: 'section', amounts: [-50n], children: [clearing] }),
          row({ name: 'Total Assets', rowType: 'summary', amounts: [175_400n] }),
          row({ name: 'Liability', rowType: 'section', amounts: [0n] }),
          row({ name: 'Equity', rowType: 'section', amounts: [100n], children: [obe] }),
          row({ name: 'Net Income', rowType: 'computed', amounts: [175_300n] }),
          row({ name: 'Total Equity', rowType: 'summary', amounts: [175_400n] }),
          row({ name: 'Total Liabilities and Equity', rowType: 'summary', amounts: [175_400n] }),
        ],
      },
      'A',
    );
    expect(sheet.lines.map((l) => [l.label, l.depth, l.kind, l.amountsCents?.[0] ?? null])).toEqual([
      ['Assets', 0, 'heading', null],
      ['Checking', 1, 'account', 175_450n],
      ['Transfer', 1, 'heading', null],
      ['Clearing', 2, 'account', -50n],
      ['Total Transfer', 1, 'total', -50n],
      ['Total Assets', 0, 'summary', 175_400n],
      ['Liability', 0, 'total', 0n],
      ['Equity', 0, 'heading', null],
      ['Opening Balance Equity', 1, 'account', 100n],
      ['Net Income', 1, 'account', 175_300n],
      ['Total Equity', 0, 'summary', 175_400n],
      ['Total Liabilities and Equity', 0, 'summary', 175_400n],
    ]);
  });

  it('the cash-flow statement: activities with their lines and totals, then the change in cash and cash at both ends', () => {
    const cf = cashFlowStatement(
      {
        header: { startDate: '2026-01-01', endDate: '2026-02-28' },
        columns: [{ label: 'Jan-26' }, { label: 'Feb-26' }],
        rows: [
          row({
            name: 'Operating Activities',
            rowType: 'section',
            amounts: [244_450n, -125_998n],
            children: [
              row({ name: 'Net Income', rowType: 'computed', amounts: [244_450n, -122_999n] }),
              row({ name: 'Visa', rowType: 'account', coaId: 20100, amounts: [0n, -2_999n] }),
            ],
          }),
          row({ name: 'Net Change in Cash', rowType: 'summary', amounts: [244_450n, -125_998n] }),
          row({ name: 'Cash at End of Period', rowType: 'summary', amounts: [294_450n, 168_452n], total: 168_452n }),
        ],
      },
      'A',
    );
    expect(cf).toMatchObject({ title: 'Statement of Cash Flows', period: 'January 1, 2026 to February 28, 2026', columns: ['Jan-26', 'Feb-26', 'Total'] });
    expect(cf.lines.map((l) => [l.label, l.depth, l.kind, l.amountsCents])).toEqual([
      ['Operating Activities', 0, 'heading', null],
      ['Net Income', 1, 'account', [244_450n, -122_999n, 121_451n]],
      ['Visa', 1, 'account', [0n, -2_999n, -2_999n]],
      ['Total Operating Activities', 0, 'total', [244_450n, -125_998n, 118_452n]],
      ['Net Change in Cash', 0, 'summary', [244_450n, -125_998n, 118_452n]],
      ['Cash at End of Period', 0, 'summary', [294_450n, 168_452n, 168_452n]],
    ]);
  });

  it('one period has no Total column; a balance sheet of one column reads "As of"', () => {
    const single = profitLossStatement({ ...pnl, columns: [{ label: 'Total' }], rows: [row({ name: 'Net Income', rowType: 'summary', amounts: [5n] })] }, 'A');
    expect(single.columns).toEqual(['Total']);
    expect(single.lines[0]?.amountsCents).toEqual([5n]);
    const bs = balanceSheetStatement({ header: { startDate: '2026-01-01', endDate: '2026-02-28' }, columns: [{ label: 'Total' }], rows: [] }, 'A');
    expect(bs).toMatchObject({ title: 'Balance Sheet', period: 'As of February 28, 2026' });
  });

  it('file names carry the report and its period; content-disposition quotes them', () => {
    expect(exportFileName('profit-and-loss', ['2026-01-01', '2026-12-31'], 'xlsx')).toBe('profit-and-loss_2026-01-01_2026-12-31.xlsx');
    expect(exportFileName('general-ledger', ['10100 Café "Chase" Checking', '', ''], 'csv')).toBe('general-ledger_10100-cafe-chase-checking.csv');
    expect(contentDisposition('transactions.csv')).toBe('attachment; filename="transactions.csv"');
  });
});

describe('CSV', () => {
  it('a byte order mark (Excel then reads UTF-8), a header row, then every line with its code, level and amounts', () => {
    const text = statementCsv(statement);
    expect(text.startsWith('\uFEFFAccount,')).toBe(true);
    const records = parseCsv(text.slice(1));
    expect(records[0]).toEqual(['Account', 'Code', 'Level', 'Jan-26', 'Feb-26', 'Total']);
    expect(records).toHaveLength(statement.lines.length + 1);
    expect(records).toContainEqual(['Meals, "client" lunches', '60200', '2', '45.50', '0.00', '45.50']);
    expect(records).toContainEqual(['Expenses', '50000', '0', '', '', '']);
    expect(records.at(-1)).toEqual(['Net Income', '', '0', '2444.50', '-1229.99', '1214.51']);
  });
});

describe('XLSX', () => {
  it('number cells with the amount format, indented names, bold totals, the title block', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(arrayBuffer(await statementXlsx(statement)));
    const ws = wb.worksheets[0];
    if (!ws) throw new Error('no worksheet');
    expect(ws.name).toBe('Profit and Loss');
    expect([1, 2, 3].map((r) => ws.getRow(r).getCell(1).value)).toEqual(['Profit and Loss', 'Acme Books', 'January 1, 2026 to February 28, 2026']);
    expect(ws.getRow(5).values).toEqual([undefined, 'Account', 'Jan-26', 'Feb-26', 'Total']);
    const byLabel = new Map<string, ExcelJS.Row>();
    ws.eachRow((r, n) => n > 5 && byLabel.set(`${String(r.getCell(1).value)}@${n}`, r));
    const rows = [...byLabel.values()];
    expect(rows).toHaveLength(statement.lines.length);
    rows.forEach((r, i) => {
      const line = statement.lines[i];
      if (!line) throw new Error('more rows than lines');
      expect(r.getCell(1).value).toBe(line.label);
      expect(r.getCell(1).alignment?.indent ?? 0).toBe(line.depth);
      const values = [2, 3, 4].map((c) => r.getCell(c).value);
      expect(values).toEqual(line.amountsCents ? line.amountsCents.map((v) => Number(v) / 100) : [null, null, null]);
      for (const c of [2, 3, 4]) expect(r.getCell(c).numFmt).toBe(AMOUNT_FORMAT);
      expect(Boolean(r.getCell(2).font?.bold)).toBe(line.kind === 'total' || line.kind === 'summary');
    });
    const net = rows.at(-1);
    expect(typeof net?.getCell(4).value).toBe('number');
    expect(net?.getCell(3).value).toBe(-1229.99);
  });
});

describe('PDF', () => {
  it("an accountant's statement: entity, title, period, indented accounts, right-aligned amounts, totals", async () => {
    const [page, ...more] = await pdfPages(await statementPdf(statement));
    expect(more).toEqual([]);
    if (!page) throw new Error('no page');
    const texts = page.lines.map((l) => l.text);
    expect(texts.slice(0, 3)).toEqual(['Acme Books', 'Profit and Loss', 'January 1, 2026 to February 28, 2026']);
    expect(texts).toContain('Jan-26 Feb-26 Total');
    expect(texts).toContain('Total Income 2,500.00 0.00 2,500.00');
    expect(texts).toContain('Total Expenses 55.50 1,229.99 1,285.49');
    expect(texts).toContain('Net Income 2,444.50 (1,229.99) 1,214.51');
    expect(texts).toContain('Page 1 of 1');
    const at = (label: string) => page.lines.find((l) => l.pieces[0]?.text === label)?.pieces ?? [];
    // Indentation grows with the account's level.
    const [expenses, operating, rentLine] = [at('Expenses')[0], at('Operating Expenses')[0], at('Rent')[0]];
    expect(operating?.x).toBeGreaterThan(expenses?.x ?? Infinity);
    expect(rentLine?.x).toBeGreaterThan(operating?.x ?? Infinity);
    // Amounts of a column end at the same place, whatever their width.
    const totalColumn = ['Total Income', 'Rent', 'Software', 'Total Expenses'].map((l) => at(l).at(-1)?.right ?? 0);
    for (const r of totalColumn) expect(r).toBeCloseTo(totalColumn[0] ?? 0, 0);
  });

  it('names the standard fonts cannot draw lose the accent they lack or show "?", never garbage', async () => {
    expect(pdfText('Zürich Café — “Rent” € ő ł 日 😀')).toBe('Zürich Café — “Rent” € o ? ? ?');
    const [page] = await pdfPages(
      await statementPdf({
        ...statement,
        entity: 'Łódź Café 日本',
        lines: [{ label: 'Çağrı Öğün', code: null, depth: 0, kind: 'account', amountsCents: [1n, 2n, 3n] }],
      }),
    );
    expect(page?.lines.map((l) => l.text)).toEqual([
      '?ódz Café ??',
      'Profit and Loss',
      'January 1, 2026 to February 28, 2026',
      'Jan-26 Feb-26 Total',
      'Çagr? Ögün 0.01 0.02 0.03',
      'Page 1 of 1',
    ]);
  });

  it('a long statement runs over pages, each with the column header and its page number', async () => {
    const many = Array.from({ length: 120 }, (_, i) => row({ name: `Account ${i + 1}`, rowType: 'account', coaId: 60000 + i, amounts: [BigInt(i * 101), 0n] }));
    const total = many.reduce((s, r) => s + BigInt(r.amountsCents[0] ?? 0), 0n);
    const long: Statement = profitLossStatement(
      { ...pnl, rows: [row({ name: 'Expenses', rowType: 'section', amounts: [total, 0n], children: many })] },
      'Acme Books',
    );
    const pages = await pdfPages(await statementPdf(long));
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((p, i) => {
      expect(p.text).toContain('Jan-26 Feb-26 Total');
      expect(p.text).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const all = pages.map((p) => p.text).join('\n');
    for (let i = 1; i <= 120; i++) expect(all).toContain(`Account ${i} `);
    expect(all).toContain(`Total Expenses ${statementAmount(total)} 0.00 ${statementAmount(total)}`);
  });
});
