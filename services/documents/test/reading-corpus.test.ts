// Reading accuracy on a corpus the test makes itself (test/reading-corpus.ts): receipts, bills and invoices with
// known merchant, date and total, read back by readDocument (src/reading) (a) as clean digital PDFs and (b) as
// noisy, photographed-looking PNGs through tesseract. The figures and misses are printed (console.warn). Goals (issue #19): ≥ 99 % on the PDFs and ≥ 95 % on the
// images, for total, date and merchant each. Corpus: 100 PDFs and 30 PNGs (seed 2026); the misses are printed.
// Needs Debian's pdftoppm (poppler-utils) and tesseract (tesseract-ocr, tesseract-ocr-eng), as .ci/run installs.
import { describe, expect, it } from 'vitest';
import { readDocument } from '../src/reading/index.js';
import { corpusDoc, measure, percent, renderNoisyPng, renderPdf, type Accuracy } from './reading-corpus.js';

const SEED = 2026;
const PDFS = 100;
const PNGS = 30;

function report(name: string, a: Accuracy): string {
  const rows = Object.entries(a.byField)
    .filter(([, v]) => v.of > 0)
    .map(([k, v]) => `${k} ${v.correct}/${v.of} (${percent(v).toFixed(1)} %)`);
  return `${name}, ${a.n} documents: ${rows.join(', ')}${a.misses.length ? `\n  misses:\n  ${a.misses.join('\n  ')}` : ''}`;
}

describe('reading a generated corpus', () => {
  it(`digital PDFs (${PDFS}): total, date and merchant each read right ≥ 99 %`, async () => {
    const docs = await Promise.all(
      Array.from({ length: PDFS }, async (_, n) => {
        const doc = corpusDoc(SEED, n);
        return { doc, bytes: await renderPdf(doc) };
      }),
    );
    const a = await measure(docs, (d, bytes) => readDocument({ bytes, mime: 'application/pdf', kind: d.kind }));
    console.warn(report('digital PDFs', a));
    expect(percent(a.byField.total)).toBeGreaterThanOrEqual(99);
    expect(percent(a.byField.date)).toBeGreaterThanOrEqual(99);
    expect(percent(a.byField.merchant)).toBeGreaterThanOrEqual(99);
    // Bills' and invoices' other fields are measured too; printed above, held to the same goal.
    for (const f of ['vendorOrCustomer', 'invoiceNumber', 'dueDate', 'lines'] as const) expect(percent(a.byField[f]), f).toBeGreaterThanOrEqual(99);
  }, 240_000);

  it(`noisy photographed PNGs (${PNGS}): total, date and merchant each read right ≥ 95 %`, async () => {
    const docs = [];
    for (let n = 0; n < PNGS; n++) {
      const doc = corpusDoc(SEED, n);
      const { png } = await renderNoisyPng(await renderPdf(doc), SEED, n, doc.kind === 'receipt' ? 300 : 200);
      docs.push({ doc, bytes: png });
    }
    const a = await measure(docs, (d, bytes) => readDocument({ bytes, mime: 'image/png', kind: d.kind }));
    console.warn(report('noisy PNGs', a));
    expect(percent(a.byField.total)).toBeGreaterThanOrEqual(95);
    expect(percent(a.byField.date)).toBeGreaterThanOrEqual(95);
    expect(percent(a.byField.merchant)).toBeGreaterThanOrEqual(95);
  }, 900_000);
});
