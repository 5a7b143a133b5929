// readDocument's edges (src/reading/index.ts): the kind decides the fields, a PDF's text layer is read, a JPEG
// photo is read by OCR (PNGs: reading-corpus.test.ts), and a file that cannot be read — not a PDF, not an image, a
// scan without text, tesseract missing or too slow — is refused with UnreadableDocumentError naming why, never a
// half-read result.
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readDocument, UnreadableDocumentError, type ReadableMime } from '../src/reading/index.js';
import { corpusDoc, renderNoisyPng, renderPdf } from './reading-corpus.js';

function blankPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A6' });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.rect(20, 20, 100, 100).fill('#888888');
  doc.end();
  return done;
}

describe('readDocument', () => {
  it('a PDF bill: every field of a bill, with confidences, from the text layer', async () => {
    const d = corpusDoc(7, 1, ['bill']);
    const r = await readDocument({ bytes: await renderPdf(d), mime: 'application/pdf', kind: 'bill' });
    expect(r).toMatchObject({
      source: 'pdf-text',
      merchant: d.merchant,
      vendorOrCustomer: d.merchant,
      date: d.date,
      dueDate: d.dueDate,
      total: d.total,
      invoiceNumber: d.invoiceNumber,
    });
    expect(r.lines?.map((l) => l.amount)).toEqual(d.lines.map((l) => l.amount));
    expect(r.text).toContain(d.merchant);
    for (const f of ['merchant', 'date', 'total', 'vendorOrCustomer', 'invoiceNumber', 'dueDate', 'lines'] as const) {
      expect(r.confidence[f], f).toBeGreaterThan(0.5);
      expect(r.confidence[f], f).toBeLessThanOrEqual(1);
    }
  });

  it('the same PDF as a receipt: only a receipt’s fields', async () => {
    const d = corpusDoc(7, 1, ['bill']);
    const r = await readDocument({ bytes: await renderPdf(d), mime: 'application/pdf', kind: 'receipt' });
    expect(r.merchant).toBe(d.merchant);
    expect(r.vendorOrCustomer).toBeUndefined();
    expect(r.lines).toBeUndefined();
    expect(r.invoiceNumber).toBeUndefined();
  });

  it('a photographed receipt as a JPEG through tesseract: the OCR text and its fields, confidences below a PDF’s', async () => {
    const d = corpusDoc(7, 0, ['receipt']);
    const { png } = await renderNoisyPng(await renderPdf(d), 7, 0, 300);
    const jpeg = await sharp(png).jpeg({ quality: 80 }).toBuffer();
    const r = await readDocument({ bytes: jpeg, mime: 'image/jpeg', kind: 'receipt' });
    expect(r.source).toBe('ocr');
    expect(r).toMatchObject({ merchant: d.merchant, total: d.total, date: d.date });
    expect(r.confidence.total).toBeGreaterThan(0.3);
    expect(r.confidence.total).toBeLessThan(1);
  }, 120_000);

  it.each<[string, ReadableMime, () => Promise<Uint8Array> | Uint8Array, RegExp]>([
    ['bytes that are not a PDF', 'application/pdf', () => new TextEncoder().encode('MZ\x90\x00 not a pdf'), /PDF could not be read/],
    ['a scan: a PDF with no text layer', 'application/pdf', blankPdf, /no text layer/],
    ['bytes that are not an image', 'image/png', () => new TextEncoder().encode('%PDF-1.7 not a png'), /image could not be read/],
    ['a JPEG that is cut short', 'image/jpeg', () => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), /image could not be read/],
  ])('%s is refused', async (_name, mime, bytes, message) => {
    await expect(readDocument({ bytes: await bytes(), mime, kind: 'receipt' })).rejects.toThrow(message);
    await expect(readDocument({ bytes: await bytes(), mime, kind: 'receipt' })).rejects.toBeInstanceOf(UnreadableDocumentError);
  });

  it('another type is refused before anything is read', async () => {
    await expect(readDocument({ bytes: new Uint8Array([1]), mime: 'image/gif' as ReadableMime, kind: 'receipt' })).rejects.toThrow(/Cannot read image\/gif/);
  });

  it('tesseract missing, or slower than the timeout, is an error naming it, not an empty read', async () => {
    const d = corpusDoc(7, 0, ['receipt']);
    const { png } = await renderNoisyPng(await renderPdf(d), 7, 0, 300);
    await expect(readDocument({ bytes: png, mime: 'image/png', kind: 'receipt' }, { command: 'tesseract-not-installed' })).rejects.toThrow(
      /tesseract could not be started/,
    );
    await expect(readDocument({ bytes: png, mime: 'image/png', kind: 'receipt' }, { timeoutMs: 1 })).rejects.toThrow(
      /tesseract stopped \(SIGKILL, after 1 ms\)/,
    );
  }, 120_000);
});
