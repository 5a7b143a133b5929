// A corpus of receipts, bills and invoices made by the tests themselves, with the truth known: seeded random
// merchants, customers, dates (in seven written formats), amounts (thousands separators, three currencies), fonts
// (pdfkit's standard Helvetica, Times and Courier) and four layouts. Each is rendered
//  (a) as a clean digital PDF (pdfkit, as the gateway lays out invoice PDFs), and
//  (b) as a photographed-looking PNG: the PDF drawn at 150 dpi by Debian's pdftoppm (poppler-utils), then with
//      sharp: a slight rotation, blur, contrast and brightness lost, uneven lighting and seeded speckle noise.
// Same seed, same corpus: a failing case can be regenerated and looked at.
import { spawn } from 'node:child_process';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { DocumentKind } from '../src/reading/extract.js';

/** mulberry32: a tiny seeded generator (reproducible corpora; not for anything secret). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MERCHANTS = [
  'Blue Bottle Coffee',
  'Harbor Freight Tools',
  'Greenleaf Market',
  'Northwind Traders',
  'Summit Office Supply',
  'Riverside Hardware',
  'Lakeside Bakery',
  'Maple & Oak Furniture',
  'Bright Spark Electric',
  'Copperfield Books',
  'Pinecrest Pharmacy',
  'Golden Gate Catering',
  'Redwood Plumbing Co',
  'Atlas Courier Services',
  'Sunrise Diner',
  'Evergreen Landscaping',
  'Metro Print Shop',
  'Silverline Telecom',
  'Cedar Creek Farms',
  'Bluewave Car Wash',
  'Orchard Street Deli',
  'Ironclad Security',
  'Westfield Auto Parts',
  'Harvest Moon Grocers',
  'Clearview Optics',
  'Keystone Legal LLP',
  'Brightwater Cleaning',
  'Falcon IT Solutions',
  'Juniper Design Studio',
  'Granite Peak Outfitters',
  "O'Malley's Pub",
  'Tidewater Marine Supply',
  'Quantum Labs Inc',
  'Willow Tree Florist',
  'Beacon Hill Dental',
  'Stonebridge Consulting',
  'Crescent Moon Cafe',
  'Pioneer Fuel Stop',
  'Highland Paper Co',
  'Starlight Cinemas',
];
const CUSTOMERS = [
  'Acme Widgets Ltd',
  'Jane Whitaker',
  'Brookside School',
  'Delta Freight LLC',
  'Marcus Chen',
  'Oakridge Clinic',
  'Horizon Realty',
  'Priya Natarajan',
  'Lumen Studios',
  'Carter & Sons',
  'Polar Ice Rink',
  'Vega Robotics',
];
const ITEMS = [
  'Consulting hours',
  'Website maintenance',
  'Office chairs',
  'Printer paper A4',
  'Delivery fee',
  'Coffee beans 1kg',
  'Plumbing repair',
  'Network switch',
  'Cleaning service',
  'Design retainer',
  'Catering for 20',
  'Safety boots',
  'Latte',
  'Croissant',
  'Bagel with cream cheese',
  'Orange juice',
  'Screws box',
  'LED bulbs 4-pack',
  'Paint 5L',
  'Monthly subscription',
  'Legal advice',
  'Brake pads',
  'Fuel unleaded',
  'Flowers bouquet',
  'Dental cleaning',
];
const STREETS = ['Main St', 'Oak Ave', 'Harbor Rd', 'Elm Street', 'Market Sq', 'Pine Lane', 'King St W'];
const CITIES = ['Portland, OR 97205', 'Austin, TX 78701', 'Denver, CO 80202', 'Boston, MA 02108', 'Seattle, WA 98101'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

type DateFormat = 'iso' | 'us-slash' | 'mon-d-yyyy' | 'd-month-yyyy' | 'dd-mon-yyyy' | 'eu-dot' | 'month-d-yyyy';
const DATE_FORMATS: DateFormat[] = ['iso', 'us-slash', 'mon-d-yyyy', 'd-month-yyyy', 'dd-mon-yyyy', 'eu-dot', 'month-d-yyyy'];
const FONTS: Array<[string, string]> = [
  ['Helvetica', 'Helvetica-Bold'],
  ['Times-Roman', 'Times-Bold'],
  ['Courier', 'Courier-Bold'],
];
export type Layout = 'receipt-classic' | 'receipt-titled' | 'invoice-classic' | 'invoice-from-to';
type Currency = 'USD' | 'EUR' | 'GBP';

export interface CorpusLine {
  description: string;
  quantity: number;
  rate: number;
  amount: number;
}
export interface CorpusDoc {
  id: string;
  kind: DocumentKind;
  layout: Layout;
  font: [string, string];
  merchant: string;
  customer: string;
  date: string;
  dueDate: string;
  dateFormat: DateFormat;
  invoiceNumber: string;
  currency: Currency;
  lines: CorpusLine[];
  subtotal: number;
  tax: number;
  total: number;
  totalLabel: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
export function formatDate(isoDate: string, f: DateFormat): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const mon = MONTHS[m - 1]!;
  switch (f) {
    case 'iso':
      return isoDate;
    case 'us-slash':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'mon-d-yyyy':
      return `${mon.slice(0, 3)} ${d}, ${y}`;
    case 'month-d-yyyy':
      return `${mon} ${d}, ${y}`;
    case 'd-month-yyyy':
      return `${d} ${mon} ${y}`;
    case 'dd-mon-yyyy':
      return `${pad(d)}-${mon.slice(0, 3)}-${y}`;
    case 'eu-dot':
      return `${pad(d)}.${pad(m)}.${y}`;
  }
}

export function formatMoney(v: number, c: Currency, style: number): string {
  const fixed = Math.abs(v).toFixed(2);
  const [int, dec] = fixed.split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = v < 0 ? '-' : '';
  const sym = c === 'USD' ? '$' : c === 'EUR' ? '€' : '£';
  if (style === 1) return `${sign}${grouped}.${dec} ${c}`;
  if (style === 2) return `${sign}${grouped}.${dec}`;
  return `${sign}${sym}${grouped}.${dec}`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The n-th document of the corpus with `seed`: everything about it chosen by the seeded generator. */
export function corpusDoc(seed: number, n: number, kinds: DocumentKind[] = ['receipt', 'bill', 'invoice']): CorpusDoc {
  const r = rng(seed * 100_003 + n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const kind = kinds[n % kinds.length]!;
  const layout: Layout = kind === 'receipt' ? pick(['receipt-classic', 'receipt-titled'] as const) : pick(['invoice-classic', 'invoice-from-to'] as const);
  const start = Date.UTC(2024, 0, 1);
  const day = Math.floor(r() * 1000);
  const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
  const dueDate = new Date(start + (day + pick([7, 14, 15, 30, 45, 60])) * 86_400_000).toISOString().slice(0, 10);
  const count = 1 + Math.floor(r() * (kind === 'receipt' ? 5 : 4));
  const big = r() < 0.35;
  const lines: CorpusLine[] = [];
  for (let i = 0; i < count; i++) {
    const quantity = kind === 'receipt' ? 1 + Math.floor(r() * 3) : 1 + Math.floor(r() * 12);
    const rate = round2(kind === 'receipt' ? 0.5 + r() * 40 : big ? 120 + r() * 2400 : 5 + r() * 300);
    lines.push({ description: pick(ITEMS), quantity, rate, amount: round2(quantity * rate) });
  }
  const subtotal = round2(lines.reduce((s, l) => s + l.amount, 0));
  const tax = r() < 0.7 ? round2(subtotal * pick([0.05, 0.0725, 0.08, 0.1, 0.2])) : 0;
  const total = round2(subtotal + tax);
  const totalLabel =
    kind === 'receipt'
      ? pick(['TOTAL', 'Total', 'Grand Total', 'Total Due', 'Amount Due'])
      : pick(['Total', 'Total Due', 'Amount Due', 'Balance Due', 'Invoice Total']);
  return {
    id: `${kind}-${String(n).padStart(3, '0')}`,
    kind,
    layout,
    font: pick(FONTS),
    merchant: pick(MERCHANTS),
    customer: pick(CUSTOMERS),
    date,
    dueDate,
    dateFormat: pick(DATE_FORMATS),
    invoiceNumber: pick(['INV-', 'INV', '', 'B-', '2026-']) + String(1000 + Math.floor(r() * 90000)),
    currency: pick(['USD', 'USD', 'USD', 'EUR', 'GBP'] as const),
    lines,
    subtotal,
    tax,
    total,
    totalLabel,
  };
}

/** The document as a clean digital PDF. */
export function renderPdf(d: CorpusDoc): Promise<Buffer> {
  const r = rng(d.total * 100 + d.lines.length);
  const receipt = d.kind === 'receipt';
  const width = receipt ? 240 : 612;
  const height = receipt ? 250 + d.lines.length * 16 + 150 : 792;
  const doc = new PDFDocument({ size: [width, height], margin: 18, info: { Title: d.id, CreationDate: new Date(Date.UTC(2026, 0, 1)) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const [font, bold] = d.font;
  const style = Math.floor(r() * 3);
  const money = (v: number) => formatMoney(v, d.currency, style);
  const dt = (iso: string) => formatDate(iso, d.dateFormat);
  const street = `${100 + Math.floor(r() * 8000)} ${STREETS[Math.floor(r() * STREETS.length)]}`;
  const city = CITIES[Math.floor(r() * CITIES.length)]!;
  const phone = `(${500 + Math.floor(r() * 400)}) 555-${1000 + Math.floor(r() * 8999)}`;

  if (receipt) {
    const w = width - 36;
    const row = (left: string, right: string, y: number, f = font) => {
      doc
        .font(f)
        .fontSize(9)
        .text(left, 18, y, { width: w * 0.66, lineBreak: false });
      doc.font(f).fontSize(9).text(right, 18, y, { width: w, align: 'right', lineBreak: false });
    };
    let y = 18;
    if (d.layout === 'receipt-titled') {
      doc.font(bold).fontSize(10).text('SALES RECEIPT', 18, y, { width: w, align: 'center' });
      y += 20;
    }
    doc.font(bold).fontSize(13).text(d.merchant, 18, y, { width: w, align: 'center' });
    y += 20;
    doc.font(font).fontSize(8).text(street, 18, y, { width: w, align: 'center' });
    y += 11;
    doc.font(font).fontSize(8).text(city, 18, y, { width: w, align: 'center' });
    y += 11;
    doc.font(font).fontSize(8).text(`Tel ${phone}`, 18, y, { width: w, align: 'center' });
    y += 18;
    const time = `${pad(7 + Math.floor(r() * 12))}:${pad(Math.floor(r() * 60))}`;
    if (d.layout === 'receipt-titled') row(`Date: ${dt(d.date)}`, time, y);
    else row(dt(d.date), time, y);
    y += 13;
    row(`Receipt #${d.invoiceNumber}`, `Reg ${1 + Math.floor(r() * 6)}`, y);
    y += 18;
    for (const l of d.lines) {
      row(l.quantity > 1 ? `${l.quantity} x ${l.description}` : l.description, money(l.amount), y);
      y += 14;
    }
    y += 6;
    row('Subtotal', money(d.subtotal), y);
    y += 13;
    if (d.tax) {
      row('Tax', money(d.tax), y);
      y += 13;
    }
    doc.font(bold).fontSize(11);
    doc.text(d.totalLabel, 18, y, { width: w * 0.6, lineBreak: false });
    doc.text(money(d.total), 18, y, { width: w, align: 'right', lineBreak: false });
    y += 20;
    row(`VISA ****${1000 + Math.floor(r() * 8999)}`, money(d.total), y);
    y += 20;
    doc.font(font).fontSize(9).text('Thank you for your visit!', 18, y, { width: w, align: 'center' });
  } else {
    const L = 50,
      R = 562;
    const right = (text: string, y: number, f = font, size = 10) =>
      doc
        .font(f)
        .fontSize(size)
        .text(text, 330, y, { width: R - 330, align: 'right', lineBreak: false });
    let y = 50;
    if (d.layout === 'invoice-classic') {
      doc.font(bold).fontSize(20).text(d.merchant, L, y, { lineBreak: false });
      right('INVOICE', y, bold, 20);
      y += 30;
      doc.font(font).fontSize(10).text(street, L, y);
      doc.text(city, L, y + 13);
      doc.text(phone, L, y + 26);
      right(`Invoice #: ${d.invoiceNumber}`, y);
      right(`Invoice Date: ${dt(d.date)}`, y + 14);
      right(`Due Date: ${dt(d.dueDate)}`, y + 28);
      y += 70;
      doc.font(bold).fontSize(11).text('Bill To:', L, y);
      y += 15;
      doc.font(font).fontSize(10).text(d.customer, L, y);
      doc.text(CITIES[(d.lines.length + 2) % CITIES.length]!, L, y + 13);
      y += 50;
    } else {
      doc
        .font(bold)
        .fontSize(18)
        .text(d.kind === 'bill' ? 'TAX INVOICE' : 'INVOICE', L, y);
      y += 36;
      doc.font(bold).fontSize(10).text('From:', L, y);
      doc.text('To:', 320, y);
      y += 14;
      doc.font(font).fontSize(11).text(d.merchant, L, y, { lineBreak: false });
      doc.text(d.customer, 320, y, { lineBreak: false });
      y += 14;
      doc.fontSize(10).text(street, L, y, { lineBreak: false });
      y += 13;
      doc.text(city, L, y, { lineBreak: false });
      y += 30;
      doc.font(font).fontSize(10);
      doc.text(`Invoice No. ${d.invoiceNumber}`, L, y);
      y += 14;
      doc.text(`Issue date: ${dt(d.date)}`, L, y);
      y += 14;
      doc.text(`Payment due: ${dt(d.dueDate)}`, L, y);
      y += 34;
    }
    const cols = { desc: L, qty: 330, rate: 400, amount: 480 };
    doc.font(bold).fontSize(10);
    doc.text(d.layout === 'invoice-classic' ? 'Description' : 'Item', cols.desc, y, { lineBreak: false });
    doc.text(d.layout === 'invoice-classic' ? 'Qty' : 'Quantity', cols.qty, y, { width: 60, align: 'right', lineBreak: false });
    doc.text(d.layout === 'invoice-classic' ? 'Rate' : 'Price', cols.rate, y, { width: 70, align: 'right', lineBreak: false });
    doc.text('Amount', cols.amount, y, { width: R - cols.amount, align: 'right', lineBreak: false });
    y += 6;
    doc
      .moveTo(L, y + 10)
      .lineTo(R, y + 10)
      .lineWidth(0.5)
      .stroke();
    y += 18;
    doc.font(font).fontSize(10);
    for (const l of d.lines) {
      doc.text(l.description, cols.desc, y, { lineBreak: false });
      doc.text(String(l.quantity), cols.qty, y, { width: 60, align: 'right', lineBreak: false });
      doc.text(money(l.rate), cols.rate, y, { width: 70, align: 'right', lineBreak: false });
      doc.text(money(l.amount), cols.amount, y, { width: R - cols.amount, align: 'right', lineBreak: false });
      y += 18;
    }
    y += 14;
    const sum = (label: string, v: number, f = font) => {
      doc
        .font(f)
        .fontSize(f === bold ? 12 : 10)
        .text(label, 360, y, { width: 110, lineBreak: false });
      doc.text(money(v), cols.amount - 20, y, { width: R - cols.amount + 20, align: 'right', lineBreak: false });
      y += f === bold ? 20 : 15;
    };
    sum('Subtotal', d.subtotal);
    if (d.tax) sum('Tax', d.tax);
    sum(d.totalLabel, d.total, bold);
    y += 30;
    doc
      .font(font)
      .fontSize(9)
      .text(`Terms: Net ${Math.max(1, Math.round((Date.parse(d.dueDate) - Date.parse(d.date)) / 86_400_000))}. Thank you for your business.`, L, y);
  }
  doc.end();
  return done;
}

/** Run a program with `input` on stdin; its stdout. */
function run(cmd: string, args: string[], input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${cmd} exit ${code}: ${Buffer.concat(err).toString()}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

export interface NoiseSettings {
  angle: number;
  blur: number;
  contrast: number;
  brightness: number;
  noise: number;
  shade: number;
}

/** How degraded the n-th image is: rotation ±2.5°, blur σ 0.5–1.1, contrast 55–80 %, speckle noise σ 12–28 grey levels, a lighting gradient. */
export function noiseFor(seed: number, n: number): NoiseSettings {
  const r = rng(seed * 7919 + n);
  return {
    angle: (r() * 2 - 1) * 2.5,
    blur: 0.5 + r() * 0.6,
    contrast: 0.55 + r() * 0.25,
    brightness: 10 + r() * 40,
    noise: 12 + r() * 16,
    shade: 20 + r() * 40,
  };
}

/**
 * The PDF as a photographed-looking PNG: drawn by pdftoppm at `dpi`, then rotated, blurred, washed out, unevenly
 * lit and speckled (seeded). A phone photo of a receipt or a page is 200–300 dpi of paper: receipts are drawn at
 * 300, pages at 200.
 */
export async function renderNoisyPng(pdf: Buffer, seed: number, n: number, dpi = 200): Promise<{ png: Buffer; noise: NoiseSettings }> {
  const noise = noiseFor(seed, n);
  // A phone photo of a receipt or a page is 200-300 dpi of paper: receipts (narrow) at 300, pages at 200.
  const page = await run('pdftoppm', ['-png', '-r', String(dpi), '-gray', '-singlefile', '-'], pdf);
  const { data, info } = await sharp(page)
    .rotate(noise.angle, { background: { r: 235, g: 235, b: 230 } })
    .blur(noise.blur)
    .linear(noise.contrast, noise.brightness)
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const r = rng(seed * 104_729 + n);
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-9)) * Math.cos(2 * Math.PI * r());
  const { width, height, channels } = info;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      // Lighting falls off towards one corner, like a phone photo under a lamp.
      const shade = noise.shade * ((x / width + y / height) / 2);
      const v = data[i]! - shade + gauss() * noise.noise;
      data[i] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  const png = await sharp(data, { raw: { width, height, channels } }).png().toBuffer();
  return { png, noise };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

export type ReadFn = (
  doc: CorpusDoc,
  bytes: Buffer,
) => Promise<{
  merchant?: string;
  date?: string;
  total?: number;
  vendorOrCustomer?: string;
  invoiceNumber?: string;
  dueDate?: string;
  lines?: Array<{ amount: number }>;
}>;
export const MEASURED = ['total', 'date', 'merchant', 'vendorOrCustomer', 'invoiceNumber', 'dueDate', 'lines'] as const;
export type Measured = (typeof MEASURED)[number];
export interface Accuracy {
  n: number;
  byField: Record<Measured, { correct: number; of: number }>;
  misses: string[];
}

/** A merchant or party name matches when its letters and digits match, case aside ("Maple & Oak" = "MAPLE & OAK."). */
export const sameName = (a: string | undefined, b: string) => (a ?? '').toLowerCase().replace(/[^a-z0-9]/g, '') === b.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Read every document (`concurrency` at a time) and count, per field, the ones read right. */
export async function measure(docs: Array<{ doc: CorpusDoc; bytes: Buffer }>, read: ReadFn, concurrency = 2): Promise<Accuracy> {
  const byField = Object.fromEntries(MEASURED.map((f) => [f, { correct: 0, of: 0 }])) as Accuracy['byField'];
  const misses: string[] = [];
  let next = 0;
  const count = (d: CorpusDoc, field: Measured, ok: boolean, got: unknown, want: unknown) => {
    byField[field].of++;
    if (ok) byField[field].correct++;
    else misses.push(`${d.id} (${d.layout}, ${d.font[0]}, ${d.dateFormat}) ${field}: read ${JSON.stringify(got)}, is ${JSON.stringify(want)}`);
  };
  const worker = async () => {
    while (next < docs.length) {
      const { doc: d, bytes } = docs[next++]!;
      const r = await read(d, bytes);
      count(d, 'total', r.total === d.total, r.total, d.total);
      count(d, 'date', r.date === d.date, r.date, d.date);
      count(d, 'merchant', sameName(r.merchant, d.merchant), r.merchant, d.merchant);
      if (d.kind === 'receipt') continue;
      const party = d.kind === 'bill' ? d.merchant : d.customer;
      count(d, 'vendorOrCustomer', sameName(r.vendorOrCustomer, party), r.vendorOrCustomer, party);
      count(d, 'invoiceNumber', r.invoiceNumber === d.invoiceNumber, r.invoiceNumber, d.invoiceNumber);
      count(d, 'dueDate', r.dueDate === d.dueDate, r.dueDate, d.dueDate);
      const amounts = (r.lines ?? []).map((l) => l.amount);
      count(
        d,
        'lines',
        JSON.stringify(amounts) === JSON.stringify(d.lines.map((l) => l.amount)),
        amounts,
        d.lines.map((l) => l.amount),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { n: docs.length, byField, misses };
}

export const percent = (x: { correct: number; of: number }) => (x.of ? (100 * x.correct) / x.of : 100);
