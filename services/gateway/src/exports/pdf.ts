import PDFDocument from 'pdfkit';
import { statementAmount } from './money.js';
import { isBold, type Statement, type StatementLine } from './statement.js';

const MARGIN = 48;
const INDENT = 12;
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';

type Doc = InstanceType<typeof PDFDocument>;

/** Characters the standard PDF fonts can draw (Windows-1252 beyond Latin-1). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const drawable = (c: string) => (c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || WIN_ANSI_EXTRA.has(c);

/**
 * Text as the standard Helvetica can draw it: accents it lacks are dropped ("ő" → "o"), any
 * other character becomes "?" rather than garbage. (CSV and XLSX keep every character.)
 */
export function pdfText(text: string): string {
  return [...text].map((c) => (drawable(c) ? c : [...c.normalize('NFKD')].filter(drawable).join('') || '?')).join('');
}

/** Cuts text to a width with an ellipsis (a label never runs into the amounts). */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * A statement as an accountant's PDF: entity, title and period centred on top; a header row of column
 * labels; account names indented by level; amounts right-aligned in their columns (negatives in
 * parentheses); totals bold with a rule above, the bottom line double-ruled; the header row repeated on
 * every page and "Page n of m" at the foot. Wide reports turn landscape and use a smaller type.
 */
export async function statementPdf(s: Statement): Promise<Buffer> {
  const landscape = s.columns.length > 4;
  const doc = new PDFDocument({
    size: 'LETTER',
    layout: landscape ? 'landscape' : 'portrait',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `${s.title} — ${s.entity}`, Author: 'Ledgerline' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const labelWidth = Math.min(220, width * (landscape ? 0.24 : 0.4));
  const n = Math.max(1, s.columns.length);
  const colWidth = (width - labelWidth) / n;
  // The largest type (9 pt down to 5 pt) at which the widest amount and label fit their column.
  const widest = [...s.columns, ...s.lines.flatMap((l) => (l.amountsCents ?? []).map(statementAmount))];
  let size = 9;
  doc.font(BOLD);
  while (size > 5 && widest.some((t) => doc.fontSize(size).widthOfString(t) > colWidth - 4)) size -= 0.5;
  const rowHeight = size * 1.65;
  const bottom = doc.page.height - MARGIN - 14;
  const colX = (i: number) => MARGIN + labelWidth + i * colWidth;

  const title = () => {
    let y = MARGIN;
    doc.font(BOLD).fontSize(14).text(pdfText(s.entity), MARGIN, y, { width, align: 'center' });
    y += 19;
    doc.font(BOLD).fontSize(12).text(s.title, MARGIN, y, { width, align: 'center' });
    y += 16;
    doc.font(REGULAR).fontSize(10).text(s.period, MARGIN, y, { width, align: 'center' });
    return y + 24;
  };
  const columnHeader = (y: number) => {
    doc.font(BOLD).fontSize(size);
    // Labels end where the digits of the amounts below them end.
    const hang = doc.font(REGULAR).fontSize(size).widthOfString(')');
    doc.font(BOLD);
    s.columns.forEach((label, i) => doc.text(pdfText(label), colX(i), y, { width: colWidth - hang, align: 'right', lineBreak: false }));
    const ruleY = y + rowHeight - 3;
    doc
      .moveTo(MARGIN, ruleY)
      .lineTo(MARGIN + width, ruleY)
      .lineWidth(0.75)
      .stroke();
    return y + rowHeight + 2;
  };
  const line = (l: StatementLine, y: number) => {
    const bold = isBold(l.kind) || l.kind === 'heading';
    doc.font(bold ? BOLD : REGULAR).fontSize(size);
    const x = MARGIN + l.depth * INDENT;
    doc.text(fit(doc, pdfText(l.label), labelWidth - l.depth * INDENT - 6), x, y, { lineBreak: false });
    if (!l.amountsCents) return;
    doc.font(isBold(l.kind) ? BOLD : REGULAR);
    l.amountsCents.forEach((cents, i) => {
      const text = statementAmount(cents);
      // Parentheses hang to the right so the digits of positives and negatives line up.
      const hang = text.startsWith('(') ? 0 : doc.widthOfString(')');
      doc.text(text, colX(i), y, { width: colWidth - hang, align: 'right', lineBreak: false });
    });
    if (isBold(l.kind)) {
      const left = colX(0) + colWidth * 0.25;
      doc
        .moveTo(left, y - 2)
        .lineTo(MARGIN + width, y - 2)
        .lineWidth(0.5)
        .stroke();
      if (l.kind === 'summary') {
        const under = y + size + 2;
        doc
          .moveTo(left, under)
          .lineTo(MARGIN + width, under)
          .lineWidth(0.5)
          .stroke();
        doc
          .moveTo(left, under + 2)
          .lineTo(MARGIN + width, under + 2)
          .lineWidth(0.5)
          .stroke();
      }
    }
  };

  let y = columnHeader(title());
  for (const l of s.lines) {
    if (y + rowHeight > bottom) {
      doc.addPage();
      y = columnHeader(title());
    }
    // A little air before a section's heading and its total.
    if (l.depth === 0 && (l.kind === 'heading' || l.kind === 'summary') && y > MARGIN + 80) y += rowHeight * 0.4;
    line(l, y);
    y += l.kind === 'total' || l.kind === 'summary' ? rowHeight * 1.3 : rowHeight;
  }

  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    // Writing inside the bottom margin would start a new page.
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, bottom: 0 };
    doc
      .font(REGULAR)
      .fontSize(8)
      .text(`Page ${i + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN, { width, align: 'center', lineBreak: false });
    doc.page.margins = margins;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
