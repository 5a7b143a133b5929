import ExcelJS from 'exceljs';
import { amountNumber } from './money.js';
import { isBold, type Statement } from './statement.js';

/** Thousands separators, negatives in parentheses: how accountants read amounts. */
export const AMOUNT_FORMAT = '#,##0.00;(#,##0.00)';

/** Rows above the column header: title, entity, period, a blank row. */
const HEADER_ROW = 5;

/**
 * A statement as an Excel workbook: the title block, a header row, accounts indented by level (Excel's
 * cell indent, so the names stay clean text), amounts as number cells with AMOUNT_FORMAT, totals bold
 * with a rule above them. Values come from cents, so a cell equals the report's amount exactly.
 */
export async function statementXlsx(s: Statement): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Ledgerline';
  wb.title = `${s.title} — ${s.entity}`;
  const ws = wb.addWorksheet(s.title.slice(0, 31), {
    views: [{ state: 'frozen', xSplit: 1, ySplit: HEADER_ROW }],
    pageSetup: { orientation: s.columns.length > 4 ? 'landscape' : 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  ws.columns = [{ width: 42 }, ...s.columns.map(() => ({ width: 15 }))];

  const title = ws.getRow(1);
  title.getCell(1).value = s.title;
  title.getCell(1).font = { bold: true, size: 14 };
  ws.getRow(2).getCell(1).value = s.entity;
  ws.getRow(3).getCell(1).value = s.period;

  const header = ws.getRow(HEADER_ROW);
  header.values = ['Account', ...s.columns];
  header.font = { bold: true };
  header.eachCell((cell, col) => {
    cell.border = { bottom: { style: 'thin' } };
    if (col > 1) cell.alignment = { horizontal: 'right' };
  });

  for (const line of s.lines) {
    const row = ws.addRow([line.label, ...(line.amountsCents ?? []).map(amountNumber)]);
    row.getCell(1).alignment = { indent: line.depth };
    const bold = isBold(line.kind) || line.kind === 'heading';
    if (bold) row.getCell(1).font = { bold: true };
    for (let c = 2; c <= s.columns.length + 1; c++) {
      const cell = row.getCell(c);
      cell.numFmt = AMOUNT_FORMAT;
      if (isBold(line.kind)) {
        cell.font = { bold: true };
        cell.border = line.kind === 'summary' ? { top: { style: 'thin' }, bottom: { style: 'double' } } : { top: { style: 'thin' } };
      }
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
