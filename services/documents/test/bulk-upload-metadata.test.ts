// The bulk-upload job's mapping of what reading found to a draft's metaData (decision "bulk-upload job" point 5):
// the bill / invoice payload's names, lines in dollars, flat `extracted` values, and a blank draft with the reason.
import { describe, expect, it } from 'vitest';
import { firstDraftProblem } from '../src/domain/drafts.js';
import type { ReadResult } from '../src/reading/index.js';
import { draftMetaData } from '../src/usecases/bulk-upload.js';

const read: ReadResult = {
  text: 'ignored',
  source: 'pdf-text',
  merchant: 'Northwind Traders',
  vendorOrCustomer: 'Northwind Traders',
  date: '2026-03-04',
  dueDate: '2026-04-03',
  invoiceNumber: 'INV-1042',
  total: 1234.5,
  currency: 'USD',
  lines: [
    { description: 'Paper', quantity: 3, rate: 100.1, amount: 300.3 },
    { description: 'Toner', amount: 934.2 },
  ],
  confidence: { total: 0.98, date: 0.9 },
};

describe('draftMetaData', () => {
  it('maps a bill: billDate, dueDate, invoiceCode, lines (no quantity or rate on bills), biller and total in extracted', () => {
    const m = draftMetaData('bill', 'u-1', 'a.pdf', read);
    expect(m).toEqual({
      uploadId: 'u-1',
      billDate: '2026-03-04',
      dueDate: '2026-04-03',
      invoiceCode: 'INV-1042',
      lineItems: [
        { description: 'Paper', amount: 300.3 },
        { description: 'Toner', amount: 934.2 },
      ],
      extracted: {
        fileName: 'a.pdf',
        billerName: 'Northwind Traders',
        merchant: 'Northwind Traders',
        vendorOrCustomer: 'Northwind Traders',
        date: '2026-03-04',
        dueDate: '2026-04-03',
        invoiceNumber: 'INV-1042',
        currency: 'USD',
        total: 1234.5,
        lineCount: 2,
        source: 'pdf-text',
        totalConfidence: 0.98,
        dateConfidence: 0.9,
      },
    });
    // Flat: every extracted value a string or number (the drafts API's metaData.extracted).
    expect(Object.values(m.extracted as object).every((v) => typeof v === 'string' || typeof v === 'number')).toBe(true);
  });

  it('maps an invoice: invoiceDate, referenceNo, lines with quantity and rate, customerName', () => {
    const m = draftMetaData('invoice', 'u-2', 'b.pdf', read);
    expect(m).toMatchObject({ invoiceDate: '2026-03-04', referenceNo: 'INV-1042', extracted: { customerName: 'Northwind Traders' } });
    expect((m.lineItems as unknown[])[0]).toEqual({ description: 'Paper', amount: 300.3, quantity: 3, rate: 100.1 });
    expect(m.billDate).toBeUndefined();
  });

  it('without lines read, one line of the total; without anything read, a blank draft with the reason that conversion refuses', () => {
    const m = draftMetaData('bill', 'u-3', 'c.pdf', { ...read, lines: [] });
    expect(m.lineItems).toEqual([{ description: 'Northwind Traders', amount: 1234.5 }]);
    const blank = draftMetaData('bill', 'u-4', 'scan.pdf', undefined, 'scan.pdf: no text');
    expect(blank).toEqual({ uploadId: 'u-4', extracted: { fileName: 'scan.pdf', error: 'scan.pdf: no text' } });
    expect(firstDraftProblem('bill', blank)).toBeDefined();
  });
});
