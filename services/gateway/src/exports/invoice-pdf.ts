import PDFDocument from 'pdfkit';
import { statementAmount } from './money.js';
import { pdfText } from './pdf.js';

const MARGIN = 54;
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';

type Doc = InstanceType<typeof PDFDocument>;

/** What an invoice PDF shows; amounts in cents, dates YYYY-MM-DD. The renderer computes nothing but the layout. */
export interface InvoicePrint {
  invoiceId: string;
  referenceNo: string;
  invoiceDate: string;
  dueDate: string;
  /** The invoice's companyName, else the workspace's name. */
  companyName: string;
  companyAddress: string;
  customerName: string;
  description: string;
  lines: { serviceName: string; quantity: string; rateCents: bigint; amountCents: bigint }[];
  totalCents: bigint;
  paidCents: bigint;
  voided: boolean;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 2024-03-05 → "Mar 5, 2024" (no time zone involved: the date is a calendar date). */
export function printedDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  return `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}, ${m[1]}`;
}
const money = (cents: bigint) => (cents < 0n ? `-$${statementAmount(-cents)}` : `$${statementAmount(cents)}`);
/** Short ids show the last 6 characters in upper case (spec §5). */
export const invoiceNumber = (p: Pick<InvoicePrint, 'invoiceId' | 'referenceNo'>) =>
  p.referenceNo || `INV-${p.invoiceId.replace(/-/g, '').slice(-6).toUpperCase()}`;

/**
 * An invoice as a customer receives it (spec §2 "download an invoice as PDF"; issue #18 item 3): the issuing company's
 * name and address top left and "INVOICE" with its number, date and due date top right; "Bill to" the customer; a
 * table of the lines (description, quantity, rate, amount) whose header repeats on every page; subtotal, payments
 * received, total and balance due right-aligned under it; "Page n of m" at the foot. US Letter, standard fonts.
 */
export async function invoicePdf(p: InvoicePrint): Promise<Buffer> {
  const number = invoiceNumber(p);
  const doc: Doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Invoice ${pdfText(number)}`, Author: pdfText(p.companyName || 'Ledgerline') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const right = MARGIN + width;
  const bottom = doc.page.height - MARGIN - 20;
  // Columns: description | quantity | rate | amount.
  const amountW = 100;
  const rateW = 90;
  const qtyW = 60;
  const descW = width - amountW - rateW - qtyW - 12;
  const xQty = MARGIN + descW + 4;
  const xRate = xQty + qtyW + 4;
  const xAmount = xRate + rateW + 4;

  // Header: the company on the left, the invoice's identity on the right.
  let y = MARGIN;
  doc
    .font(BOLD)
    .fontSize(16)
    .text(pdfText(p.companyName || 'Invoice'), MARGIN, y, { width: width * 0.55 });
  let leftY = doc.y + 2;
  if (p.companyAddress) {
    // An address keeps its own line breaks.
    doc
      .font(REGULAR)
      .fontSize(9.5)
      .text(p.companyAddress.split(/\r?\n/).map(pdfText).join('\n'), MARGIN, leftY, { width: width * 0.55 });
    leftY = doc.y;
  }
  doc
    .font(BOLD)
    .fontSize(22)
    .fillColor('#1f3a5f')
    .text(p.voided ? 'INVOICE (VOID)' : 'INVOICE', MARGIN + width * 0.55, y, { width: width * 0.45, align: 'right' });
  doc.fillColor('black');
  let rightY = doc.y + 6;
  const meta: [string, string][] = [
    ['Invoice no.', number],
    ['Invoice date', printedDate(p.invoiceDate)],
    ['Due date', printedDate(p.dueDate || p.invoiceDate)],
  ];
  for (const [label, value] of meta) {
    doc
      .font(BOLD)
      .fontSize(9.5)
      .text(label, MARGIN + width * 0.55, rightY, { width: width * 0.2, lineBreak: false });
    doc.font(REGULAR).text(pdfText(value), MARGIN + width * 0.75, rightY, { width: width * 0.25, align: 'right', lineBreak: false });
    rightY += 14;
  }
  y = Math.max(leftY, rightY) + 18;

  doc.font(BOLD).fontSize(9).fillColor('#555555').text('BILL TO', MARGIN, y);
  doc
    .fillColor('black')
    .font(BOLD)
    .fontSize(11)
    .text(pdfText(p.customerName), MARGIN, doc.y + 2, { width: width * 0.6 });
  y = doc.y + 6;
  if (p.description) {
    doc.font(REGULAR).fontSize(9.5).text(pdfText(p.description), MARGIN, y, { width });
    y = doc.y + 6;
  }
  y += 10;

  const header = (top: number) => {
    doc.rect(MARGIN, top, width, 20).fill('#eef2f7');
    doc.fillColor('black').font(BOLD).fontSize(9.5);
    doc.text('Description', MARGIN + 6, top + 6, { width: descW - 6, lineBreak: false });
    doc.text('Qty', xQty, top + 6, { width: qtyW, align: 'right', lineBreak: false });
    doc.text('Rate', xRate, top + 6, { width: rateW, align: 'right', lineBreak: false });
    doc.text('Amount', xAmount, top + 6, { width: amountW - 6, align: 'right', lineBreak: false });
    return top + 26;
  };
  y = header(y);
  doc.font(REGULAR).fontSize(9.5);
  for (const l of p.lines) {
    const text = pdfText(l.serviceName);
    const h = Math.max(14, doc.heightOfString(text, { width: descW - 6 }));
    if (y + h > bottom) {
      doc.addPage();
      y = header(MARGIN);
      doc.font(REGULAR).fontSize(9.5);
    }
    doc.text(text, MARGIN + 6, y, { width: descW - 6 });
    doc.text(l.quantity || '1', xQty, y, { width: qtyW, align: 'right', lineBreak: false });
    doc.text(money(l.rateCents), xRate, y, { width: rateW, align: 'right', lineBreak: false });
    doc.text(money(l.amountCents), xAmount, y, { width: amountW - 6, align: 'right', lineBreak: false });
    y += h + 6;
    doc
      .moveTo(MARGIN, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke()
      .strokeColor('black');
  }

  // Totals, right-aligned under the amounts; they move to a new page rather than split.
  const totals: [string, bigint, boolean][] = [
    ['Subtotal', p.totalCents, false],
    ['Total', p.totalCents, true],
  ];
  if (p.paidCents > 0n) totals.push(['Payments received', -p.paidCents, false]);
  totals.push(['Balance due', p.totalCents - p.paidCents > 0n ? p.totalCents - p.paidCents : 0n, true]);
  if (y + totals.length * 18 + 10 > bottom) {
    doc.addPage();
    y = MARGIN;
  }
  y += 8;
  const labelX = xRate - 60;
  for (const [label, cents, bold] of totals) {
    doc.font(bold ? BOLD : REGULAR).fontSize(bold ? 11 : 9.5);
    doc.text(label, labelX, y, { width: rateW + 60, align: 'right', lineBreak: false });
    doc.text(money(cents), xAmount, y, { width: amountW - 6, align: 'right', lineBreak: false });
    if (label === 'Total')
      doc
        .moveTo(labelX + 20, y - 4)
        .lineTo(right, y - 4)
        .lineWidth(0.75)
        .stroke();
    y += bold ? 20 : 16;
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
      .fillColor('#555555')
      .text(`Invoice ${pdfText(number)} - Page ${i + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN + 10, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.fillColor('black');
    doc.page.margins = margins;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
