// The documents' pure rules: the fields of spec §5 with their messages, a manual journal's balance and differences,
// and the payment status with the 0.01 tolerance of spec §9.
import { describe, expect, it } from 'vitest';
import { amountMatchesQuantityRate, balanceMessages, balanceOf, cleanDocument, dollars, entryDescription } from '../src/domain/documents.js';
import { differenceMessages, paymentStatus } from '../src/domain/payment-status.js';

const CAT = '3b5a7c1e-1111-4a2b-9c3d-000000000001';
const CAT2 = '3b5a7c1e-1111-4a2b-9c3d-000000000002';
const VENDOR = '3b5a7c1e-2222-4a2b-9c3d-000000000001';

describe('cleanDocument', () => {
  it('a bill: trims, lower-cases ids, treats empty optional text as absent, totals nothing itself', () => {
    const r = cleanDocument('bill', {
      date: ' 2026-01-02 ',
      dueDate: '',
      partyId: VENDOR.toUpperCase(),
      reference: '  ',
      description: ' d ',
      lineItems: [{ serviceName: ' s ', categoryId: CAT.toUpperCase(), amountCents: 150 }],
    });
    expect(r.problems).toEqual([]);
    expect(r.value).toEqual({
      date: '2026-01-02',
      dueDate: '',
      partyId: VENDOR,
      reference: '',
      description: 'd',
      companyName: '',
      companyAddress: '',
      lines: [{ serviceName: 's', categoryId: CAT, amountCents: 150, quantity: '', rateCents: 0, direction: '' }],
      payments: [],
    });
  });

  it('names every problem at once with the "Line Item N" prefix', () => {
    const r = cleanDocument('bill', { date: '2026-02-29', lineItems: [{ serviceName: '', categoryId: 'x', amountCents: 0 }] });
    expect(r.value).toBeUndefined();
    expect(r.problems).toEqual([
      { field: 'billDate', message: 'Invalid billDate format' },
      { field: 'vendorId', message: 'Vendor is required' },
      { field: 'lineItems.0.serviceName', message: 'Line Item 1: serviceName is required' },
      { field: 'lineItems.0.categoryId', message: 'Line Item 1: categoryId must be a UUID' },
      { field: 'lineItems.0.amount', message: 'Line Item 1: amount must be greater than 0' },
    ]);
  });

  it('an invoice: amount = quantity × rate within 0.01; the limits 150 / 100 / 100 / 300', () => {
    const line = { serviceName: 's', categoryId: CAT, quantity: '3', rateCents: 333, amountCents: 1000 };
    expect(cleanDocument('invoice', { date: '2026-01-01', partyId: VENDOR, lineItems: [line] }).problems).toEqual([]);
    expect(cleanDocument('invoice', { date: '2026-01-01', partyId: VENDOR, lineItems: [{ ...line, amountCents: 1001 }] }).problems).toEqual([
      { field: 'lineItems.0.amount', message: 'Line Item 1: Amount must equal quantity multiplied by rate' },
    ]);
    const long = cleanDocument('invoice', {
      date: '2026-01-01',
      partyId: VENDOR,
      reference: 'r'.repeat(101),
      companyName: 'n'.repeat(101),
      companyAddress: 'a'.repeat(301),
      lineItems: [{ ...line, serviceName: 's'.repeat(151) }],
    });
    expect(long.problems.map((p) => p.field)).toEqual(['referenceNo', 'companyName', 'companyAddress', 'lineItems.0.serviceName']);
    expect(cleanDocument('invoice', { date: '2026-01-01', lineItems: [line] }).problems).toEqual([{ field: 'customerId', message: 'Customer is required' }]);
  });

  it('a manual journal needs a memo, typed lines and debits equal to credits', () => {
    const ok = cleanDocument('manual_entry', {
      date: '2026-01-01',
      description: 'm',
      lineItems: [
        { categoryId: CAT, amountCents: 500, direction: 'debit' },
        { categoryId: CAT2, amountCents: 500, direction: 'credit' },
      ],
    });
    expect(ok.problems).toEqual([]);
    const off = cleanDocument('manual_entry', {
      date: '2026-01-01',
      description: 'm',
      lineItems: [
        { categoryId: CAT, amountCents: 500, direction: 'debit' },
        { categoryId: CAT2, amountCents: 400, direction: 'credit' },
      ],
    });
    expect(off.problems).toEqual([{ field: 'lineItems', message: 'Total debits (5.00) must equal total credits (4.00)' }]);
    const one = cleanDocument('manual_entry', { date: '2026-01-01', description: 'm', lineItems: [{ categoryId: CAT, amountCents: 500, direction: 'debit' }] });
    expect(one.problems).toEqual([{ field: 'lineItems', message: 'Total debits (5.00) must equal total credits (0.00)' }]);
    expect(
      cleanDocument('manual_entry', { date: '2026-01-01', lineItems: [{ categoryId: CAT, amountCents: 1, direction: 'up' }] }).problems.map((p) => p.message),
    ).toEqual(['memo is required', 'Line Item 1: type must be debit or credit']);
  });
});

describe('connected transactions', () => {
  it('bills and invoices take each once with an amount above 0; a manual journal has none', () => {
    const base = { date: '2026-01-01', partyId: VENDOR, lineItems: [{ serviceName: 's', categoryId: CAT, amountCents: 100 }] };
    expect(cleanDocument('bill', { ...base, connectedTransactions: [{ id: CAT2.toUpperCase(), amountCents: 100 }] }).value?.payments).toEqual([
      { transactionId: CAT2, amountCents: 100 },
    ]);
    expect(
      cleanDocument('bill', { ...base, connectedTransactions: [{ id: CAT2, amountCents: 100 }, { id: CAT2, amountCents: 0 }, { amountCents: 5 }] }).problems,
    ).toEqual([
      { field: 'connectedTransactions.1.id', message: 'Connected transaction 2: is listed twice' },
      { field: 'connectedTransactions.1.amount', message: 'Connected transaction 2: amount must be greater than 0' },
      { field: 'connectedTransactions.2.id', message: 'Connected transaction 3: id is required' },
    ]);
    expect(
      cleanDocument('manual_entry', {
        date: '2026-01-01',
        description: 'm',
        lineItems: [
          { categoryId: CAT, amountCents: 5, direction: 'debit' },
          { categoryId: CAT2, amountCents: 5, direction: 'credit' },
        ],
        connectedTransactions: [{ id: CAT2, amountCents: 5 }],
      }).value?.payments,
    ).toEqual([]);
  });
});

describe("a manual journal's balance", () => {
  it('totals each side and nets each account, leaving out accounts that net to zero', () => {
    const b = balanceOf([
      { categoryId: 'a', amountCents: 1000, direction: 'debit' },
      { categoryId: 'b', amountCents: 750, direction: 'credit' },
      { categoryId: 'c', amountCents: 5, direction: 'debit' },
      { categoryId: 'c', amountCents: 5, direction: 'credit' },
    ]);
    expect(b).toEqual({
      debitCents: 1005,
      creditCents: 755,
      differenceCents: 250,
      differences: [
        { accountId: 'a', amountCents: 1000, flag: 'debit' },
        { accountId: 'b', amountCents: 750, flag: 'credit' },
      ],
    });
    expect(balanceMessages(b)).toEqual(['The entry does not balance: debits exceed credits by 2.50']);
    expect(balanceMessages(balanceOf([{ categoryId: 'a', amountCents: 1, direction: 'credit' }]))).toEqual([
      'The entry does not balance: credits exceed debits by 0.01',
    ]);
  });
});

describe('paymentStatus', () => {
  it('UNPAID with nothing paid; PAID within 0.01 either way; OVERPAID / PARTIALLY_PAID beyond it', () => {
    expect(paymentStatus(10000, 0)).toBe('UNPAID');
    expect(paymentStatus(10000, 10000)).toBe('PAID');
    expect(paymentStatus(10000, 9999)).toBe('PAID');
    expect(paymentStatus(10000, 10001)).toBe('PAID');
    expect(paymentStatus(10000, 9998)).toBe('PARTIALLY_PAID');
    expect(paymentStatus(10000, 10002)).toBe('OVERPAID');
    expect(paymentStatus(10000, 1)).toBe('PARTIALLY_PAID');
  });
  it('differenceMessages explain a mismatch only', () => {
    expect(differenceMessages(10000, 4000)).toEqual(['Payments of 40.00 leave 60.00 of 100.00 unpaid']);
    expect(differenceMessages(10000, 10500)).toEqual(['Payments of 105.00 exceed the total of 100.00 by 5.00']);
    expect(differenceMessages(10000, 10000)).toEqual([]);
    expect(differenceMessages(10000, 0)).toEqual([]);
  });
});

describe('helpers', () => {
  it('amountMatchesQuantityRate, dollars and the entry description', () => {
    expect(amountMatchesQuantityRate(2503, '2.5', 1001)).toBe(true);
    expect(amountMatchesQuantityRate(2505, '2.5', 1001)).toBe(false);
    expect(dollars(-1234)).toBe('-12.34');
    expect(entryDescription('bill', 'Acme', 'INV-1', 'March')).toBe('Bill INV-1: Acme — March');
    expect(entryDescription('manual_entry', '', '', 'Accrual')).toBe('Manual entry — Accrual');
  });
});
