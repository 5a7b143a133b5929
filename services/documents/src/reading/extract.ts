// Field extraction from a document's text (a PDF's text layer or OCR output): pure functions, no I/O.
// Every finder answers the value with a confidence (0–1) saying how it was found: a labelled value ("Total",
// "Invoice date", "Bill to") is surer than a guess (the largest amount, the first date). The caller multiplies
// by how sure the text itself is (OCR word confidence; 1 for a PDF's text layer).

export type DocumentKind = 'receipt' | 'bill' | 'invoice';
export type FieldName = 'merchant' | 'date' | 'total' | 'currency' | 'vendorOrCustomer' | 'invoiceNumber' | 'dueDate' | 'lines';

export interface ReadLineItem {
  description: string;
  quantity?: number;
  rate?: number;
  amount: number;
}

export interface ExtractedFields {
  merchant?: string;
  date?: string;
  total?: number;
  currency?: string;
  vendorOrCustomer?: string;
  invoiceNumber?: string;
  dueDate?: string;
  lines?: ReadLineItem[];
  /** Per field found: how sure (0–1). */
  confidence: Partial<Record<FieldName, number>>;
  /** Per field found: the index of the text line it came from (for the OCR confidence of that line). */
  sourceLine: Partial<Record<FieldName, number>>;
}

interface Found<T> {
  value: T;
  confidence: number;
  line: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Text clean-up

/** The text as trimmed lines; a tab or a wide gap (a column break) stays as two spaces, other runs become one. */
export function textLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\t/g, '  ').replace(/ {3,}/g, '  ').trim());
}

const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;

// ---------------------------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

function iso(y: number, m: number, d: number): string | undefined {
  if (y < 100) y += 2000;
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1) return undefined;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export interface DateMatch {
  date: string;
  index: number;
  length: number;
  ambiguous: boolean;
}

/**
 * Every date written in `s`, in order: 2026-01-05, 2026/01/05, Jan 5, 2026, 5 January 2026, 05-Jan-2026,
 * 01/05/2026 (month first, as US invoices write it, unless the first number cannot be a month: 25/01/2026 is
 * day first), 05.01.2026 (dots: day first, as European invoices write it), two-digit years as 20yy.
 */
export function findDates(s: string): DateMatch[] {
  const out: DateMatch[] = [];
  const taken: Array<[number, number]> = [];
  const add = (index: number, length: number, date: string | undefined, ambiguous = false) => {
    if (!date || taken.some(([a, b]) => index < b && index + length > a)) return;
    taken.push([index, index + length]);
    out.push({ date, index, length, ambiguous });
  };
  const run = (re: RegExp, f: (m: RegExpExecArray) => [string | undefined, boolean?]) => {
    for (const m of s.matchAll(re)) {
      const [date, amb] = f(m as RegExpExecArray);
      add(m.index ?? 0, m[0].length, date, amb ?? false);
    }
  };
  // ISO-like, year first.
  run(/(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g, (m) => [iso(+m[1]!, +m[2]!, +m[3]!)]);
  // Month name first: Jan 5, 2026 / January 05 2026 / Jan. 5th, 2026
  run(new RegExp(`\\b${MONTH_RE}\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s*[,.]?\\s*(\\d{4})(?!\\d)`, 'gi'), (m) => [
    iso(+m[3]!, MONTHS[m[1]!.toLowerCase().slice(0, 3)]!, +m[2]!),
  ]);
  // Day first with a month name: 5 January 2026 / 05-Jan-2026 / 5 Jan, 26
  run(new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th)?[\\s-]*${MONTH_RE}[\\s,-]*(\\d{4}|\\d{2})(?!\\d)`, 'gi'), (m) => [
    iso(+m[3]!, MONTHS[m[2]!.toLowerCase().slice(0, 3)]!, +m[1]!),
  ]);
  // Dotted day.month.year (European).
  run(/(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?![\d.])/g, (m) => [iso(+m[3]!, +m[2]!, +m[1]!)]);
  // Slashed or dashed numbers: month first unless the first cannot be a month.
  run(/(?<![\d/])(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})(?![\d/])/g, (m) => {
    const a = +m[1]!,
      b = +m[2]!,
      y = +m[3]!;
    if (a > 12) return [iso(y, b, a)];
    return [iso(y, a, b), b <= 12 && a !== b];
  });
  return out.sort((x, y) => x.index - y.index);
}

// ---------------------------------------------------------------------------------------------------------------
// Amounts and currency

const CURRENCY_SYMBOLS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' };
const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'JPY', 'CHF', 'INR', 'SGD', 'ZAR'];

export interface AmountMatch {
  value: number;
  index: number;
  length: number;
  decimals: boolean;
  currency?: string;
}

/**
 * Every money amount in `s`: 1,234.56 / 1234.56 / $1,234.56 / -$5.00 / (5.00) / 1.234,56 (comma decimals) /
 * 1,234.56 USD. Plain integers count only with a currency mark (a quantity or a year is not money).
 * Common OCR slips inside a number are mended: O→0, l/I→1, S before digits→$, a space after the separator.
 */
export function findAmounts(raw: string): AmountMatch[] {
  // Mend OCR slips only inside number-like runs, keeping the string's length so indexes stay valid.
  const s = raw
    .replace(/(?<=\d)[Oo](?=[\d.,]|\b)/g, '0')
    .replace(/(?<=[\d.,])[lI](?=\d)/g, '1')
    .replace(/(?<![\p{L}\d])S(?=\d{1,3}(?:[.,]\d{3})*[.,]\d{2}\b)/gu, '$');
  const out: AmountMatch[] = [];
  const re =
    /(\(?)(-)?\s?(?:([$€£¥₹])\s?|\b(USD|EUR|GBP|CAD|AUD|NZD|JPY|CHF|INR|SGD|ZAR)\s?)?(-)?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,3}(?:\.\d{3})+,\d{2}|\d{1,3}(?:\.\d{3})+\.\d{2}|\d+[.,]\d{2}|\d+)(?![\d,.]*\d)(\s?(?:USD|EUR|GBP|CAD|AUD|NZD|JPY|CHF|INR|SGD|ZAR)\b|\s?[€£])?(\)?)/g;
  for (const m of s.matchAll(re)) {
    const [matched, open, minus1, sym, code, minus2, num, suffix, close] = m;
    // The optional space before a sign or symbol is not part of the amount.
    const whole = matched.trimStart();
    const idx = (m.index ?? 0) + matched.length - whole.length;
    // A number glued to letters (INV-1042, A12) or part of a date or phone is not an amount.
    const before = s[idx - 1] ?? ' ';
    const after = s[idx + whole.length] ?? ' ';
    if (/[\p{L}\d/#:-]/u.test(before) && !sym && !code && !minus1) continue;
    if (/[\p{L}/]/u.test(after) && !suffix) continue;
    let n = num!;
    let decimals = true;
    if (/^\d{1,3}(?:\.\d{3})+,\d{2}$/.test(n) || /^\d+,\d{2}$/.test(n)) n = n.replace(/\./g, '').replace(',', '.');
    else if (/^\d{1,3}(?:\.\d{3})+\.\d{2}$/.test(n)) n = n.replace(/\.(?=\d{3}\.)/g, '');
    else if (/^\d+$/.test(n)) decimals = false;
    n = n.replace(/,/g, '');
    const currencyMark = sym ?? code ?? suffix?.trim();
    if (!decimals && !currencyMark) continue;
    let value = Number(n);
    if (!Number.isFinite(value)) continue;
    if (minus1 || minus2 || (open && close)) value = -value;
    const currency = currencyMark ? (CURRENCY_SYMBOLS[currencyMark] ?? (CURRENCY_CODES.includes(currencyMark) ? currencyMark : undefined)) : undefined;
    out.push({ value: Math.round(value * 100) / 100, index: idx, length: whole.length, decimals, ...(currency ? { currency } : {}) });
  }
  return out;
}

/** The document's currency: an ISO code written anywhere, else the most used symbol. */
export function findCurrency(lines: string[]): Found<string> | undefined {
  const counts = new Map<string, { n: number; line: number }>();
  lines.forEach((l, i) => {
    for (const code of CURRENCY_CODES) if (new RegExp(`\\b${code}\\b`).test(l)) bump(code, i, 3);
    for (const [sym, code] of Object.entries(CURRENCY_SYMBOLS)) if (l.includes(sym)) bump(code, i, 1);
  });
  function bump(code: string, line: number, by: number) {
    const c = counts.get(code);
    counts.set(code, { n: (c?.n ?? 0) + by, line: c?.line ?? line });
  }
  const best = [...counts.entries()].sort((a, b) => b[1].n - a[1].n)[0];
  if (!best) return undefined;
  return { value: best[0], confidence: best[1].n >= 3 ? 0.95 : 0.8, line: best[1].line };
}

// ---------------------------------------------------------------------------------------------------------------
// Total

const TOTAL_LABELS: Array<{ re: RegExp; confidence: number }> = [
  { re: /\b(grand\s*total|total\s*(?:amount|due|payable|\(?(?:usd|eur|gbp|cad|aud)\)?)|invoice\s*total|amount\s*total)\b/i, confidence: 0.97 },
  { re: /(?<!sub\s?)(?<!sub-)\btotal\b(?!\s*(?:tax|vat|gst|items?|qty|quantity|savings?|discount)\b)/i, confidence: 0.95 },
  { re: /\b(amount|balance)\s*due\b/i, confidence: 0.9 },
];
const NOT_TOTAL =
  /\b(sub\s?-?total|tax\s*total|total\s*(?:tax|vat|gst)|tip|change|cash\s*tendered|tendered|paid\s*to\s*date|payments?\s*received|discount|savings)\b/i;

/** The document's total: the last amount on a "Total" / "Grand total" line, else "Amount due" / "Balance due"; the label's amount may be on the next line. Else the largest amount, less sure. */
export function findTotal(lines: string[]): Found<number> | undefined {
  for (const { re, confidence } of TOTAL_LABELS) {
    // The last labelled line wins (a receipt's "TOTAL" comes after its items; a repeated total is the same).
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i]!;
      if (!re.test(l) || NOT_TOTAL.test(l.replace(re, ''))) continue;
      if (NOT_TOTAL.test(l) && !re.test(l.replace(NOT_TOTAL, ''))) continue;
      const after = l.slice(l.search(re));
      const here = findAmounts(after).filter((a) => a.decimals || a.currency);
      if (here.length) return { value: here[here.length - 1]!.value, confidence, line: i };
      const next = lines.slice(i + 1, i + 3).findIndex((n) => n !== '');
      if (next >= 0) {
        const nl = lines[i + 1 + next]!;
        const a = findAmounts(nl).filter((x) => x.decimals);
        if (a.length === 1 && letters(nl) <= 4) return { value: a[0]!.value, confidence: confidence - 0.1, line: i + 1 + next };
      }
    }
  }
  let best: Found<number> | undefined;
  lines.forEach((l, i) => {
    if (findDates(l).length && !/[$€£]/.test(l)) return;
    for (const a of findAmounts(l)) if (a.decimals && (!best || a.value > best.value)) best = { value: a.value, confidence: 0.5, line: i };
  });
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Dates by label

// OCR reads the D of "Due Date" as O or Q now and then: "Oue Date" / "Que Date" count (only before "date").
const DUE_LABEL = /\b(due\s*(?:date|on|by)?|[oq]ue\s*date|payment\s*due|pay\s*by)\b/i;
const DATE_LABEL =
  /\b((?:invoice|bill|issue|issued|receipt|transaction|txn|order|purchase|document|tax\s*point)\s*date|date\s*(?:of\s*issue|issued)|dated|date)\b/i;

/** The document's date: one on a "Date" / "Invoice date" / "Issue date" line (not "Due date"), else the first date not on a due line. */
export function findDate(lines: string[]): Found<string> | undefined {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const m = DATE_LABEL.exec(l);
    if (!m) continue;
    const rest = l.slice(m.index + m[0].length);
    const dueAt = rest.search(DUE_LABEL);
    const span = dueAt >= 0 ? rest.slice(0, dueAt) : rest;
    const d = findDates(span)[0] ?? (span.trim() === '' ? findDates(lines[i + 1] ?? '')[0] : undefined);
    if (d && !DUE_LABEL.test(l.slice(0, m.index + m[0].length))) return { value: d.date, confidence: d.ambiguous ? 0.75 : 0.95, line: i };
  }
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const ds = findDates(l);
    if (!ds.length) continue;
    const due = DUE_LABEL.exec(l);
    const d = due ? ds.find((x) => x.index < due.index) : ds[0];
    if (d) return { value: d.date, confidence: d.ambiguous ? 0.55 : 0.7, line: i };
  }
  return undefined;
}

/** The due date: one after "Due date" / "Due" / "Payment due"; "Due on receipt" is the document's date. */
export function findDueDate(lines: string[], documentDate?: string): Found<string> | undefined {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const m = DUE_LABEL.exec(l);
    if (!m || /\b(amount|balance|total)\s*due\b/i.test(l.slice(Math.max(0, m.index - 10), m.index + m[0].length))) continue;
    const rest = l.slice(m.index + m[0].length);
    const d = findDates(rest)[0] ?? (rest.trim() === '' ? findDates(lines[i + 1] ?? '')[0] : undefined);
    if (d) return { value: d.date, confidence: d.ambiguous ? 0.75 : 0.95, line: i };
    if (/on\s*receipt/i.test(l) && documentDate) return { value: documentDate, confidence: 0.8, line: i };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Names

const TITLE_WORDS =
  /^(?:tax\s*)?(?:invoice|receipt|sales\s*receipt|bill|statement|quote|estimate|credit\s*note|purchase\s*order|remittance(?:\s*advice)?|original|copy|customer\s*copy|merchant\s*copy|welcome(?:\s*to)?|thank\s*you.*)[\s:#.!-]*$/i;
const NOT_A_NAME = /(@|www\.|https?:|\.com\b|\b(tel|phone|fax|ph|abn|vat|gst|ein|tax\s*id|reg(?:istration)?\s*no)\b|^\s*[#\d(+])/i;
const LABEL_ONLY =
  /^(from|to|bill\s*to|billed\s*to|sold\s*to|ship\s*to|invoice\s*to|customer|client|vendor|supplier|payee|seller|issued\s*by|pay\s*to)\s*:?\s*$/i;

/** A line that reads like a name: enough letters, not mostly symbols, not a title, label, address or contact. */
export function isNameLike(l: string): boolean {
  const t = l.trim();
  if (t.length < 3 || t.length > 80) return false;
  const n = letters(t);
  if (n < 3 || n / t.replace(/\s/g, '').length < 0.6) return false;
  if (TITLE_WORDS.test(t) || NOT_A_NAME.test(t) || LABEL_ONLY.test(t)) return false;
  if (findDates(t).length || findAmounts(t).length) return false;
  if (/^(date|time|invoice|bill|receipt|order|terms|due|page|total|subtotal|cashier|server|table|register|store|trans)\b/i.test(t)) return false;
  return true;
}

/** Tidy a name: no trailing punctuation, OCR's stray edge marks dropped. */
export function cleanName(s: string): string {
  return s
    .replace(/^[^\p{L}\d]+/u, '')
    .replace(/[\s,;:|_~.-]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The name after a label: on the same line ("From: Acme Ltd"), or on the next lines in the label's column ("From:
 * To:" side by side, then "Acme Ltd  Jane Doe": the first column is From's, the second To's).
 */
function nameAfterLabel(lines: string[], label: RegExp, confidence: number): Found<string> | undefined {
  for (let i = 0; i < lines.length; i++) {
    const cells = lines[i]!.split(/\s{2,}/);
    const col = cells.findIndex((c) => label.test(c));
    if (col < 0) continue;
    const cell = cells[col]!;
    const m = label.exec(cell)!;
    const rest = cleanName(cell.slice(m.index + m[0].length).replace(/^\s*[:#-]?\s*/, ''));
    // "Bill To: Jane Doe Invoice #: 12" — cut at a second label on the same line.
    const own = cleanName(rest.split(/\b(?:invoice|date|due|terms|ship\s*to|bill\s*to|from)\b/i)[0] ?? '');
    if (own && isNameLike(own)) return { value: own, confidence, line: i };
    const labelsOnLine = cells.filter((c) => /:\s*$/.test(c) || LABEL_ONLY.test(c)).length;
    for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
      if ((lines[j] ?? '') === '') continue;
      const below = lines[j]!.split(/\s{2,}/);
      // Side-by-side labels: the same column below; a single label: the first cell below.
      const c = cleanName((labelsOnLine > 1 && below.length === labelsOnLine ? below[col] : below[0]) ?? '');
      if (isNameLike(c)) return { value: c, confidence: confidence - 0.05, line: j };
      break;
    }
  }
  return undefined;
}

const FROM_LABEL = /\b(from|issued\s*by|seller|supplier|vendor|pay\s*to|remit\s*to)\b\s*:/i;
const TO_LABEL = /\b(bill(?:ed)?\s*to|sold\s*to|invoice\s*to|customer|client|to)\b\s*:?(?=\s|$)/i;

/** The issuer: the "From" / "Supplier" block, else the first name-like line at the top. */
export function findMerchant(lines: string[]): Found<string> | undefined {
  const from = nameAfterLabel(lines, FROM_LABEL, 0.92);
  if (from) return from;
  const toAt = lines.findIndex((l) => TO_LABEL.test(l) && /\b(bill(?:ed)?|sold|invoice)\s*to\b|^(to|customer|client)\b/i.test(l));
  const limit = Math.min(lines.length, toAt >= 0 ? toAt : 12);
  for (let i = 0; i < limit; i++) {
    const c = cleanName(lines[i]!.split(/\s{2,}/)[0] ?? '');
    if (isNameLike(c)) return { value: c, confidence: i < 3 ? 0.85 : 0.7, line: i };
  }
  return undefined;
}

/** The customer an invoice is addressed to: the "Bill to" / "Customer" / "To" block. */
export function findCustomer(lines: string[]): Found<string> | undefined {
  return (
    nameAfterLabel(lines, /\b(bill(?:ed)?\s*to|sold\s*to|invoice\s*to|customer(?:\s*name)?|client)\b\s*:?/i, 0.9) ??
    nameAfterLabel(lines, /^\s*to\b\s*:?/i, 0.8)
  );
}

/** The invoice or bill number: after "Invoice #", "Invoice No.", "Invoice number", "Bill #", "Ref", or a bare INV-1234. */
export function findInvoiceNumber(lines: string[]): Found<string> | undefined {
  const labelled = /\b(?:invoice|inv|bill|receipt|document|reference|ref)\.?\s*(?:#|no\.?|num(?:ber)?\.?|number|id)?\s*[:#;,.]?\s*([A-Z0-9][A-Z0-9/_-]{1,30})/i;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const m = labelled.exec(l);
    if (!m) continue;
    const v = m[1]!.replace(/[-_/]+$/, '');
    // The label must be a number label ("Invoice #" / "Invoice No"), not the title or "Invoice date".
    const label = m[0].slice(0, m[0].length - m[1]!.length);
    if (!/[#:]|\bno\b|\bnum|\bnumber|\bid\b|\bref/i.test(label)) continue;
    if (/^(date|to|due|total|amount)$/i.test(v) || !/\d/.test(v)) continue;
    return { value: v, confidence: 0.92, line: i };
  }
  for (let i = 0; i < lines.length; i++) {
    const m = /\b((?:INV|BILL)[-/ ]?\d{2,}[A-Z0-9-]*)\b/i.exec(lines[i]!);
    if (m) return { value: m[1]!.replace(/\s/g, '-'), confidence: 0.75, line: i };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Line items

const TABLE_HEADER = /\b(description|item|items|product|service|details|particulars)\b/i;
const TABLE_HEADER_NUM = /\b(qty|quantity|amount|price|rate|unit|total|hrs|hours)\b/i;
const TABLE_END = /\b(sub\s?-?total|total|tax|vat|gst|amount\s*due|balance\s*due|notes?|terms|payment)\b/i;

/** Parse one table row: a description then numbers; three numbers are quantity, rate, amount; two are quantity and amount (or rate and amount). */
export function parseItemRow(row: string): ReadLineItem | undefined {
  const amounts = findAmounts(row);
  const last = amounts[amounts.length - 1];
  if (!last || !last.decimals) return undefined;
  const firstMoney = amounts[0]!;
  let description = row.slice(0, firstMoney.index);
  // Numbers before the money: a quantity (1, 2.5, 3 x).
  const qtyMatch = /(?:^|\s)(\d+(?:\.\d+)?)\s*(?:x|@|pcs|ea|hrs?)?\s*$/i.exec(description);
  let quantity: number | undefined;
  if (qtyMatch && letters(description.slice(0, qtyMatch.index)) >= 2) {
    quantity = Number(qtyMatch[1]);
    description = description.slice(0, qtyMatch.index);
  }
  description = cleanName(description);
  if (letters(description) < 2) return undefined;
  const money = amounts.map((a) => a.value);
  let rate: number | undefined;
  if (money.length >= 2) {
    rate = money[money.length - 2];
    if (quantity === undefined && rate && Math.abs(last.value / rate - Math.round(last.value / rate)) < 1e-6 && Math.round(last.value / rate) >= 1) {
      quantity = Math.round(last.value / rate);
    }
  } else if (quantity !== undefined && quantity > 0) {
    rate = Math.round((last.value / quantity) * 100) / 100;
  }
  return { description, ...(quantity !== undefined ? { quantity } : {}), ...(rate !== undefined ? { rate } : {}), amount: last.value };
}

/** The table's rows: after a header naming a description and a number column, up to the subtotal or total. */
export function findLineItems(lines: string[]): Found<ReadLineItem[]> | undefined {
  const head = lines.findIndex((l) => TABLE_HEADER.test(l) && TABLE_HEADER_NUM.test(l));
  if (head < 0) return undefined;
  const items: ReadLineItem[] = [];
  let consistent = 0;
  for (let i = head + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l === '') continue;
    if (TABLE_END.test(l) && findAmounts(l).length && /^\s*(sub|total|tax|vat|gst|amount|balance)/i.test(l)) break;
    const row = parseItemRow(l);
    if (!row) {
      // A description wrapped onto the next line continues the previous row.
      if (items.length && letters(l) > 2 && !findAmounts(l).length && !TABLE_END.test(l)) items[items.length - 1]!.description += ` ${l.trim()}`;
      continue;
    }
    if (row.quantity !== undefined && row.rate !== undefined && Math.abs(row.quantity * row.rate - row.amount) <= 0.01) consistent++;
    items.push(row);
  }
  if (!items.length) return undefined;
  return { value: items, confidence: 0.6 + 0.35 * (consistent / items.length), line: head };
}

// ---------------------------------------------------------------------------------------------------------------
// All fields, by kind

/**
 * The fields a document of `kind` needs: a receipt's merchant, date and total (and currency); a bill's or
 * invoice's also the other party (a bill's vendor is its issuer; an invoice's customer is whom it is billed to),
 * the invoice number, the due date and the line items.
 */
export function extractFields(text: string, kind: DocumentKind): ExtractedFields {
  const lines = textLines(text);
  const out: ExtractedFields = { confidence: {}, sourceLine: {} };
  const set = <K extends FieldName>(field: K, found: Found<NonNullable<ExtractedFields[K]>> | undefined) => {
    if (!found) return;
    (out as unknown as Record<string, unknown>)[field] = found.value;
    out.confidence[field] = Math.round(found.confidence * 100) / 100;
    out.sourceLine[field] = found.line;
  };
  set('merchant', findMerchant(lines));
  const date = findDate(lines);
  set('date', date);
  set('total', findTotal(lines));
  set('currency', findCurrency(lines));
  if (kind === 'receipt') return out;
  if (kind === 'bill')
    set(
      'vendorOrCustomer',
      out.merchant !== undefined ? { value: out.merchant, confidence: out.confidence.merchant!, line: out.sourceLine.merchant! } : undefined,
    );
  else set('vendorOrCustomer', findCustomer(lines));
  set('invoiceNumber', findInvoiceNumber(lines));
  set('dueDate', findDueDate(lines, date?.value));
  set('lines', findLineItems(lines));
  return out;
}
