import type { GeneralLedgerAccount, LedgerLine, Transaction } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { plainAmount } from './money.js';
import type { Statement } from './statement.js';

/**
 * A CSV cell: text, an amount in cents (bigint, written with 2 decimals), a plain integer (codes,
 * levels), a yes/no, or empty.
 */
export type CsvCell = string | bigint | number | boolean | null;

/** Text a spreadsheet would run as a formula (OWASP "CSV injection"): bank memos come from outside. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(cell: CsvCell): string {
  let text: string;
  if (cell === null) return '';
  if (typeof cell === 'bigint') text = plainAmount(cell);
  else if (typeof cell === 'number') text = String(cell);
  else if (typeof cell === 'boolean') text = cell ? 'Yes' : 'No';
  else text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated (RFC 4180 §2). */
export const csvRow = (cells: readonly CsvCell[]): string => `${cells.map(csvField).join(',')}\r\n`;

/**
 * The UTF-8 byte order mark every CSV starts with: without it Excel reads the file in the machine's
 * legacy code page, and names such as "Checking ••1234" or "Café" come out garbled.
 */
export const CSV_BOM = '\uFEFF';

/** A statement as CSV: a header row, then one record per line (indentation as a Level column). */
export function statementCsv(s: Statement): string {
  const rows = [CSV_BOM + csvRow(['Account', 'Code', 'Level', ...s.columns])];
  for (const l of s.lines) rows.push(csvRow([l.label, l.code, l.depth, ...(l.amountsCents ?? s.columns.map(() => null))]));
  return rows.join('');
}

export const GENERAL_LEDGER_HEADER = ['Account', 'Code', 'Type', 'Opening balance', 'Debits', 'Credits', 'Closing balance'] as const;
export const generalLedgerCsvRow = (a: GeneralLedgerAccount): string =>
  csvRow([a.name, a.coaId === 0 ? null : a.coaId, a.type, a.openingBalanceCents, a.debitCents, a.creditCents, a.closingBalanceCents]);

export const LEDGER_LINES_HEADER = [
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
] as const;
export const ledgerLineCsvRow = (l: LedgerLine): string =>
  csvRow([
    l.isOpeningBalance ? l.date || null : l.date,
    l.isOpeningBalance ? l.description || 'Opening balance' : l.description,
    l.counterAccount,
    l.sourceType,
    l.debitCents,
    l.creditCents,
    l.ledgerAmountCents,
    l.ledgerRunningBalanceCents,
    l.journalEntryId || null,
    l.transactionId || null,
  ]);

export const TRANSACTIONS_HEADER = [
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
] as const;
export const transactionCsvRow = (t: Transaction): string =>
  csvRow([
    t.date,
    t.memo,
    t.biller?.name ?? null,
    t.category?.name ?? null,
    t.category?.coaId || null,
    t.debitAccount?.name ?? null,
    t.creditAccount?.name ?? null,
    t.amountCents,
    t.isoCurrencyCode,
    t.isTransactionFinalized,
    t.isSplittedParent || t.isSplittedChildren,
    t.pending,
    t.id,
  ]);
