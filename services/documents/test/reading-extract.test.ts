// The reading rules (src/reading/extract.ts) on hand-written text: dates in the common formats, totals after
// their labels, currencies and thousands separators, the merchant and the customer, the invoice number, the due
// date and the line items, and what a receipt, a bill and an invoice each get.
import { describe, expect, it } from 'vitest';
import {
  extractFields,
  findAmounts,
  findCurrency,
  findCustomer,
  findDate,
  findDates,
  findDueDate,
  findInvoiceNumber,
  findLineItems,
  findMerchant,
  findTotal,
  parseItemRow,
  textLines,
} from '../src/reading/extract.js';

const L = (s: string) => textLines(s);

describe('dates', () => {
  it.each([
    ['2026-01-05', '2026-01-05'],
    ['2026/1/5', '2026-01-05'],
    ['Jan 5, 2026', '2026-01-05'],
    ['January 05 2026', '2026-01-05'],
    ['Sept. 5th, 2026', '2026-09-05'],
    ['Feb 20. 2025', '2025-02-20'],
    ['5 January 2026', '2026-01-05'],
    ['05-Jan-2026', '2026-01-05'],
    ['5 Jan 26', '2026-01-05'],
    ['01/05/2026', '2026-01-05'],
    ['25/01/2026', '2026-01-25'],
    ['05.01.2026', '2026-01-05'],
    ['12/31/25', '2025-12-31'],
  ])('%s is %s', (text, iso) => {
    expect(findDates(`Date: ${text}`).map((d) => d.date)).toEqual([iso]);
  });

  it('impossible dates are not dates: 2026-02-30, 13/13/2026, 31.04.2026', () => {
    expect(findDates('2026-02-30 13/13/2026 31.04.2026')).toEqual([]);
  });

  it('a slashed date whose both numbers can be a month is read month first and marked ambiguous', () => {
    expect(findDates('03/04/2026')[0]).toMatchObject({ date: '2026-03-04', ambiguous: true });
    expect(findDates('04/04/2026')[0]).toMatchObject({ date: '2026-04-04', ambiguous: false });
  });

  it('the document date is the labelled one, not the due date that comes first', () => {
    const lines = L('Due Date: 2026-02-15\nInvoice Date: Jan 16, 2026');
    expect(findDate(lines)).toMatchObject({ value: '2026-01-16', confidence: 0.95 });
    expect(findDueDate(lines)).toMatchObject({ value: '2026-02-15' });
  });

  it('a date on the line after its label, and the first unlabelled date when nothing is labelled', () => {
    expect(findDate(L('Invoice date\n5 March 2026'))?.value).toBe('2026-03-05');
    expect(findDate(L('Blue Bottle\n14/03/2026 10:42\nTOTAL 4.50'))).toMatchObject({ value: '2026-03-14', confidence: 0.7 });
  });

  it('a due date after an OCR-misread label ("Oue Date", "Que Date") is still the due date, not the document date', () => {
    const lines = L('Invoice Date: June 1, 2024\n(711) 555-9485  Que Date: July 31, 2024');
    expect(findDueDate(lines)?.value).toBe('2024-07-31');
    expect(findDate(L('Oue Date: 13-Jan-2025\nInvoice Date: 29-Nov-2024'))?.value).toBe('2024-11-29');
  });

  it('"Due on receipt" is the document date; "Amount due" is not a due date', () => {
    expect(findDueDate(L('Terms: Due on receipt'), '2026-04-01')?.value).toBe('2026-04-01');
    expect(findDueDate(L('Amount due 2026-05-01 $12.00'))).toBeUndefined();
  });
});

describe('amounts and currency', () => {
  it('thousands separators, currency marks, comma decimals and negatives', () => {
    const v = (s: string) => findAmounts(s).map((a) => a.value);
    expect(v('$1,234.56')).toEqual([1234.56]);
    expect(v('1,234,567.89 USD')).toEqual([1234567.89]);
    expect(v('€1.234,56')).toEqual([1234.56]);
    expect(v('12,50 €')).toEqual([12.5]);
    expect(v('£ 99.90')).toEqual([99.9]);
    expect(v('-$5.00 (7.25)')).toEqual([-5, -7.25]);
    expect(findAmounts('$1,234.56')[0]?.currency).toBe('USD');
    expect(findAmounts('1.00 GBP')[0]?.currency).toBe('GBP');
  });

  it('quantities, years, phone numbers and codes are not money; OCR slips inside numbers are mended', () => {
    expect(findAmounts('Qty 3 Year 2026 Tel 555-1234 INV-1042')).toEqual([]);
    expect(findAmounts('Total S12.5O')[0]?.value).toBe(12.5);
    expect(findAmounts('1.234.56')[0]?.value).toBe(1234.56);
  });

  it('the currency is a written code, else the most used symbol', () => {
    expect(findCurrency(L('£4.00\n£5.00\nTotal £9.00'))?.value).toBe('GBP');
    expect(findCurrency(L('Total 9.00\nAll amounts in CAD'))?.value).toBe('CAD');
    expect(findCurrency(L('Total 9.00'))).toBeUndefined();
  });
});

describe('total', () => {
  it.each([
    ['Subtotal 10.00\nTax 0.80\nTotal 10.80', 10.8],
    ['Subtotal 10.00\nTOTAL $1,010.80\nVISA 1,010.80', 1010.8],
    ['Grand Total: €2.345,00', 2345],
    ['Subtotal 100.00\nAmount due 108.00', 108],
    ['Balance Due  $5,000.00', 5000],
    ['Total (3 items)   $45.00', 45],
    ['Total Due\n$77.10', 77.1],
    ['Total tax 5.00\nSubtotal 50.00\nInvoice Total 55.00', 55],
  ])('%j → %d', (text, total) => {
    expect(findTotal(L(text))?.value).toBe(total);
  });

  it('"Total" beats "Amount due" (a part-paid invoice owes less than its total); with no label, the largest amount, less sure', () => {
    expect(findTotal(L('Total 200.00\nPayments received 50.00\nBalance due 150.00'))?.value).toBe(200);
    expect(findTotal(L('Coffee 3.50\nCake 4.25\n7.75'))).toMatchObject({ value: 7.75, confidence: 0.5 });
  });
});

describe('names and numbers', () => {
  it('the merchant is the first name-like line, skipping titles, addresses, phones and dates', () => {
    expect(findMerchant(L('RECEIPT\n\n  Blue Bottle Coffee  \n123 Main St\nTel (555) 123-4567'))?.value).toBe('Blue Bottle Coffee');
    expect(findMerchant(L('TAX INVOICE\n2026-01-05\nwww.acme.com\nAcme Widgets Ltd'))?.value).toBe('Acme Widgets Ltd');
  });

  it('a From block wins over the first line; side-by-side From / To columns are told apart', () => {
    const lines = L('INVOICE\nFrom:  To:\nSummit Office Supply  Horizon Realty\n4771 Main St');
    expect(findMerchant(lines)?.value).toBe('Summit Office Supply');
    expect(findCustomer(lines)?.value).toBe('Horizon Realty');
    expect(findMerchant(L('Paid to the order\nFrom: Northwind Traders'))?.value).toBe('Northwind Traders');
  });

  it('the customer after "Bill To"', () => {
    expect(findCustomer(L('Acme\nBill To:\nJane Whitaker\nAustin, TX'))?.value).toBe('Jane Whitaker');
    expect(findCustomer(L('Billed to: Carter & Sons'))?.value).toBe('Carter & Sons');
  });

  it('the invoice number after its label, not the word "Invoice" in a title or a date label', () => {
    expect(findInvoiceNumber(L('INVOICE\nInvoice Date: 2026-01-01\nInvoice #: INV-1042'))?.value).toBe('INV-1042');
    expect(findInvoiceNumber(L('Invoice No. 2026-114'))?.value).toBe('2026-114');
    expect(findInvoiceNumber(L('Invoice number: A7731'))?.value).toBe('A7731');
    // OCR reads a colon as ";" or ",".
    expect(findInvoiceNumber(L('Invoice #; B-84570'))?.value).toBe('B-84570');
    expect(findInvoiceNumber(L('Invoice No, 2026-80974'))?.value).toBe('2026-80974');
    expect(findInvoiceNumber(L('Thanks! Ref INV 5521'))?.value).toBe('INV-5521');
    expect(findInvoiceNumber(L('INVOICE\nDate: 2026-01-01'))).toBeUndefined();
  });
});

describe('line items', () => {
  it('rows of description, quantity, rate and amount between the header and the subtotal', () => {
    const text = 'Description  Qty  Rate  Amount\nWebsite maintenance  2  $150.00  $300.00\nDelivery fee  1  25.00  25.00\nSubtotal  325.00\nTotal 325.00';
    const found = findLineItems(L(text));
    expect(found?.value).toEqual([
      { description: 'Website maintenance', quantity: 2, rate: 150, amount: 300 },
      { description: 'Delivery fee', quantity: 1, rate: 25, amount: 25 },
    ]);
    expect(found?.confidence).toBeCloseTo(0.95);
  });

  it('a row with only an amount, and a description wrapped onto the next line', () => {
    expect(parseItemRow('Consulting  1,200.00')).toEqual({ description: 'Consulting', amount: 1200 });
    const found = findLineItems(L('Item  Amount\nDesign retainer  500.00\n(January)\nTotal 500.00'));
    expect(found?.value).toEqual([{ description: 'Design retainer (January)', amount: 500 }]);
  });

  it('no table header, no lines', () => {
    expect(findLineItems(L('Coffee 3.50\nTotal 3.50'))).toBeUndefined();
  });
});

describe('by kind', () => {
  const invoice = [
    'Northwind Traders  INVOICE',
    '3624 Main St  Invoice #: INV-2231',
    'Austin, TX 78701  Invoice Date: Mar 15, 2026',
    '(512) 555-0199  Due Date: Apr 14, 2026',
    'Bill To:',
    'Lumen Studios',
    'Description  Qty  Rate  Amount',
    'Design retainer  2  1,250.00  2,500.00',
    'Subtotal  2,500.00',
    'Tax  200.00',
    'Total Due  $2,700.00',
  ].join('\n');

  it('a receipt gets merchant, date, total and currency only', () => {
    const r = extractFields('Blue Bottle Coffee\n2026-03-14 09:12\nLatte 4.50\nTOTAL $4.50', 'receipt');
    expect(r).toMatchObject({ merchant: 'Blue Bottle Coffee', date: '2026-03-14', total: 4.5, currency: 'USD' });
    expect(r.vendorOrCustomer).toBeUndefined();
    expect(r.lines).toBeUndefined();
    expect(Object.keys(r.confidence).sort()).toEqual(['currency', 'date', 'merchant', 'total']);
  });

  it('an invoice (a sale) names its customer; a bill (a purchase) names its issuer as the vendor', () => {
    const asInvoice = extractFields(invoice, 'invoice');
    expect(asInvoice).toMatchObject({
      merchant: 'Northwind Traders',
      vendorOrCustomer: 'Lumen Studios',
      invoiceNumber: 'INV-2231',
      date: '2026-03-15',
      dueDate: '2026-04-14',
      total: 2700,
      lines: [{ description: 'Design retainer', quantity: 2, rate: 1250, amount: 2500 }],
    });
    expect(extractFields(invoice, 'bill').vendorOrCustomer).toBe('Northwind Traders');
    for (const c of Object.values(asInvoice.confidence)) expect(c).toBeGreaterThan(0);
  });

  it('text with nothing to read gets no fields and no confidences', () => {
    expect(extractFields('~~ ..\n', 'bill')).toEqual({ confidence: {}, sourceLine: {} });
  });
});
