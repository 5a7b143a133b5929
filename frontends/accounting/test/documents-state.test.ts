import type { Bill, ManualEntry } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_MESSAGES,
  DOCUMENT_SPECS,
  RECURRENCE_MESSAGES,
  billBody,
  creditLink,
  defaultConnectionAmount,
  documentErrorOnForm,
  documentPaid,
  paymentStatusOf,
  documentForm,
  documentLink,
  documentScreenFromSearch,
  documentSearch,
  documentTotals,
  emptyDocumentLine,
  invoiceBody,
  invoiceLineAmount,
  manualEntryBody,
  paidTotal,
  recurrenceBody,
  validateDocumentForm,
  validateRecurrence,
  type DocumentForm,
  recurrenceSummary,
} from '../src/documents/state';

const ID = '3f1c2a4e-9b7d-4c1e-8f2a-1b2c3d4e5f60';
const CAT = '11111111-2222-4333-8444-555555555555';
const line = (patch: Partial<ReturnType<typeof emptyDocumentLine>>) => ({ ...emptyDocumentLine(), ...patch });

describe('the documents tabs in the URL (spec §2)', () => {
  it('reads the open document with mode=view, edit, create and the Posted / Voided filter', () => {
    const bill = DOCUMENT_SPECS.bill;
    expect(documentScreenFromSearch(bill, new URLSearchParams(`tab=bills&bill=${ID}&mode=view`))).toEqual({ openId: ID, mode: 'view', status: '' });
    expect(documentScreenFromSearch(bill, new URLSearchParams(`tab=bills&bill=${ID.toUpperCase()}&mode=edit&filter=Voided`))).toEqual({
      openId: ID,
      mode: 'edit',
      status: 'Voided',
    });
    expect(documentScreenFromSearch(bill, new URLSearchParams('tab=bills&mode=create&filter=Posted'))).toEqual({
      openId: null,
      mode: 'create',
      status: 'Posted',
    });
    expect(documentScreenFromSearch(bill, new URLSearchParams('tab=bills&bill=nope&filter=Other'))).toEqual({ openId: null, mode: 'idle', status: '' });
    const journal = DOCUMENT_SPECS.manualEntry;
    expect(documentScreenFromSearch(journal, new URLSearchParams(`tab=manual-journal&manualJournal=${ID}`))).toEqual({ openId: ID, mode: 'view', status: '' });
  });

  it('writes the spec’s parameters: tab, filter, the id with mode=view', () => {
    expect(documentSearch(DOCUMENT_SPECS.invoice, { openId: ID, mode: 'view', status: 'Voided' }).toString()).toBe(
      `tab=invoices&filter=Voided&invoice=${ID}&mode=view`,
    );
    expect(documentSearch(DOCUMENT_SPECS.manualEntry, { openId: null, mode: 'create', status: '' }).toString()).toBe('tab=manual-journal&mode=create');
    expect(documentSearch(DOCUMENT_SPECS.bill, { openId: null, mode: 'idle', status: '' }).toString()).toBe('tab=bills');
  });

  it('links a locked transaction to its document', () => {
    expect(documentLink('Bill', ID)).toEqual({ to: `/accounting?tab=bills&bill=${ID}&mode=view`, what: 'bill' });
    expect(documentLink('ManualEntry', ID)?.to).toBe(`/accounting?tab=manual-journal&manualJournal=${ID}&mode=view`);
    expect(documentLink('FixedAsset', ID)).toBeNull();
  });
});

describe('the bill form', () => {
  const form = (patch: Partial<DocumentForm>): DocumentForm => ({ ...documentForm('bill', null, '2026-03-01'), ...patch });

  it('starts today, due in 30 days, with one line', () => {
    const f = documentForm('bill', null, '2026-03-01');
    expect([f.date, f.dueDate, f.lines.length]).toEqual(['2026-03-01', '2026-03-31', 1]);
  });

  it('names every problem at once: vendor, service name, category, amount', () => {
    const e = validateDocumentForm(DOCUMENT_SPECS.bill, form({ lines: [line({ amount: '0' })] }));
    expect(e.partyId).toBe('Vendor is required');
    expect(Object.values(e.line ?? {})[0]).toEqual({
      text: DOCUMENT_MESSAGES.serviceRequired,
      categoryId: DOCUMENT_MESSAGES.categoryRequired,
      amount: DOCUMENT_MESSAGES.amount,
    });
    expect(validateDocumentForm(DOCUMENT_SPECS.bill, form({ lines: [emptyDocumentLine()] })).lines).toBe('At least one line item is required');
    expect(validateDocumentForm(DOCUMENT_SPECS.bill, form({ dueDate: '2026-02-01' })).dueDate).toBe('Due date cannot be before the bill date');
  });

  it('sends blank lines left out, empty text absent and the whole set of payments', () => {
    const f = form({
      partyId: ID,
      lines: [line({ text: 'Rent', categoryId: CAT, amount: '1200.5' }), emptyDocumentLine(), line({ text: 'Power', categoryId: CAT, amount: '80' })],
      payments: [{ id: ID, amount: '1280.50' }],
    });
    expect(validateDocumentForm(DOCUMENT_SPECS.bill, f)).toEqual({});
    expect(billBody(f)).toEqual({
      billDate: '2026-03-01',
      dueDate: '2026-03-31',
      vendorId: ID,
      invoiceCode: undefined,
      description: undefined,
      lineItems: [
        { serviceName: 'Rent', categoryId: CAT, amount: 1200.5 },
        { serviceName: 'Power', categoryId: CAT, amount: 80 },
      ],
      connectedTransactions: [{ id: ID, amount: 1280.5 }],
      connectedManualEntries: [],
      connectedVendorCredits: [],
    });
    expect(documentTotals('bill', f).total).toBe(1280.5);
    expect(paidTotal(f.payments)).toBe(1280.5);
  });

  it('reads a saved bill back into the form, payments included', () => {
    const bill = {
      id: ID,
      billDate: '2026-01-02',
      dueDate: '2026-02-01',
      vendor: { id: ID, name: 'V' },
      invoiceCode: 'INV-9',
      description: 'd',
      lineItems: [{ id: 'l1', serviceName: 'Rent', categoryId: CAT, amount: 12.5 }],
      connectedTransactions: [{ id: 't1', amount: 12.5 }],
    } as unknown as Bill;
    const f = documentForm('bill', bill, '2026-03-01');
    expect(f.lines[0]).toMatchObject({ key: 'l1', text: 'Rent', amount: '12.50' });
    expect(f.payments).toEqual([{ id: 't1', amount: '12.50' }]);
  });

  it('puts the server’s refusal on the field it names (the N-th sent line)', () => {
    const f = form({ lines: [emptyDocumentLine(), line({ text: 'a', categoryId: CAT, amount: '1' })] });
    const key = f.lines[1]!.key;
    expect(documentErrorOnForm('bill', f, 'lineItems.0.categoryId', 'Category not found')).toEqual({ line: { [key]: { categoryId: 'Category not found' } } });
    expect(documentErrorOnForm('bill', f, 'billDate', 'Invalid billDate format')).toEqual({ date: 'Invalid billDate format' });
    expect(documentErrorOnForm('bill', f, 'connectedTransactions.0.id', 'x')).toEqual({ payments: 'x' });
    expect(documentErrorOnForm('bill', f, 'other', 'x')).toBeNull();
  });
});

describe('payments by manual journals and credits (decision 0020)', () => {
  const J = '22222222-3333-4444-8555-666666666666';
  const C = '33333333-4444-4555-8666-777777777777';

  it('sends a bill’s journals and vendor credits, an invoice’s credit memos, a journal’s bills and invoices', () => {
    const bill = {
      ...documentForm('bill', null, '2026-03-01'),
      partyId: ID,
      lines: [line({ text: 'Rent', categoryId: CAT, amount: '100' })],
      journals: [{ id: J, amount: '60' }],
      credits: [{ id: C, amount: '40.5' }],
    };
    expect(billBody(bill)).toMatchObject({
      connectedTransactions: [],
      connectedManualEntries: [{ id: J, amount: 60 }],
      connectedVendorCredits: [{ id: C, amount: 40.5 }],
    });
    expect(documentPaid(bill)).toBe(100.5);
    const invoice = { ...documentForm('invoice', null, '2026-03-01'), credits: [{ id: C, amount: '5' }] };
    expect(invoiceBody(invoice)).toMatchObject({ connectedManualEntries: [], connectedCreditMemos: [{ id: C, amount: 5 }] });
    expect(invoiceBody(invoice)).not.toHaveProperty('connectedVendorCredits');
    const journal = { ...documentForm('manualEntry', null, '2026-03-01'), bills: [{ id: ID, amount: '12' }], invoices: [{ id: C, amount: '3.25' }] };
    expect(manualEntryBody(journal)).toMatchObject({ connectedBills: [{ id: ID, amount: 12 }], connectedInvoices: [{ id: C, amount: 3.25 }] });
  });

  it('reads them back from a saved bill, invoice and journal', () => {
    const bill = {
      billDate: '2026-01-02',
      dueDate: '',
      vendor: { id: ID, name: 'V' },
      invoiceCode: '',
      description: '',
      lineItems: [],
      connectedTransactions: [],
      connectedManualEntries: [{ id: J, amount: 7 }],
      connectedVendorCredits: [{ id: C, amount: 3 }],
    } as unknown as Bill;
    expect(documentForm('bill', bill, '2026-03-01')).toMatchObject({ journals: [{ id: J, amount: '7.00' }], credits: [{ id: C, amount: '3.00' }] });
    const journal = { postingDate: '2026-01-02', memo: 'm', lineItems: [], paidBills: [{ id: ID, amount: 9 }], paidInvoices: [] } as unknown as ManualEntry;
    expect(documentForm('manualEntry', journal, '2026-03-01')).toMatchObject({ bills: [{ id: ID, amount: '9.00' }], invoices: [] });
  });

  it('refuses an amount that is not a positive sum, on its own list, and puts the server’s refusals there too', () => {
    const f = { ...documentForm('bill', null, '2026-03-01'), journals: [{ id: J, amount: '0' }], credits: [{ id: C, amount: '2' }] };
    const e = validateDocumentForm(DOCUMENT_SPECS.bill, f);
    expect([e.journals, e.credits, e.payments]).toEqual([DOCUMENT_MESSAGES.paymentAmount, undefined, undefined]);
    expect(documentErrorOnForm('bill', f, 'connectedManualEntries.0.amount', 'too much')).toEqual({ journals: 'too much' });
    expect(documentErrorOnForm('bill', f, 'connectedVendorCredits.0.id', 'Vendor credit not found')).toEqual({ credits: 'Vendor credit not found' });
    expect(documentErrorOnForm('invoice', f, 'connectedCreditMemos.1.amount', 'x')).toEqual({ credits: 'x' });
    expect(documentErrorOnForm('manualEntry', f, 'connectedBills.0.id', 'x')).toEqual({ bills: 'x' });
    expect(documentErrorOnForm('manualEntry', f, 'connectedInvoices', 'x')).toEqual({ invoices: 'x' });
  });

  it('says the status the payments make, within 0.01 (spec §3), and what a new payment pays by default', () => {
    expect(paymentStatusOf(100, 0)).toBe('UNPAID');
    expect(paymentStatusOf(100, 99.99)).toBe('PAID');
    expect(paymentStatusOf(100, 100.01)).toBe('PAID');
    expect(paymentStatusOf(100, 99.98)).toBe('PARTIALLY_PAID');
    expect(paymentStatusOf(100, 100.02)).toBe('OVERPAID');
    expect(defaultConnectionAmount(80, 100, 30)).toBe('70.00');
    expect(defaultConnectionAmount(50, 100, 30)).toBe('50.00');
    expect(defaultConnectionAmount(50, 100, 100)).toBe('50.00');
  });

  it('links a credit to its screen', () => {
    expect(creditLink('vendor', C)).toBe(`/expenses?tab=vendor-credit&vendorCredit=${C}`);
    expect(creditLink('customer', C)).toBe(`/revenue?tab=credit-memo&creditMemo=${C}`);
  });
});

describe('the invoice form: Enter Qty and Rate to update Amount', () => {
  it('computes the amount from quantity × rate, and shows nothing until both are valid', () => {
    expect(invoiceLineAmount({ quantity: '3', rate: '19.99' })).toBe('59.97');
    expect(invoiceLineAmount({ quantity: '2.5', rate: '10' })).toBe('25.00');
    expect(invoiceLineAmount({ quantity: '', rate: '10' })).toBe('');
    expect(invoiceLineAmount({ quantity: '0', rate: '10' })).toBe('');
  });

  it('sends quantity, rate and their product as amount; refuses a missing quantity', () => {
    const base = { ...documentForm('invoice', null, '2026-03-01'), partyId: ID };
    const f = { ...base, lines: [line({ text: 'Consulting', categoryId: CAT, quantity: '3', rate: '150' })] };
    expect(validateDocumentForm(DOCUMENT_SPECS.invoice, f)).toEqual({});
    expect(invoiceBody(f).lineItems).toEqual([{ serviceName: 'Consulting', categoryId: CAT, quantity: 3, rate: 150, amount: 450 }]);
    const bad = validateDocumentForm(DOCUMENT_SPECS.invoice, { ...base, partyId: '', lines: [line({ text: 'x', categoryId: CAT, rate: '1' })] });
    expect(bad.partyId).toBe('Customer is required');
    expect(Object.values(bad.line ?? {})[0]).toEqual({ quantity: DOCUMENT_MESSAGES.quantity });
  });
});

describe('the manual journal form', () => {
  it('needs a memo, two lines, each an account and one side; leaves the balance to the server', () => {
    const f = documentForm('manualEntry', null, '2026-03-01');
    expect(f.lines).toHaveLength(2);
    const e = validateDocumentForm(DOCUMENT_SPECS.manualEntry, { ...f, lines: [line({ debit: '5', credit: '5' }), line({ categoryId: CAT })] });
    expect(e.description).toBe('Memo is required');
    expect(Object.values(e.line ?? {})).toEqual([{ categoryId: 'Account is required', debit: DOCUMENT_MESSAGES.bothSides }, { debit: DOCUMENT_MESSAGES.side }]);
    const unbalanced = { ...f, description: 'Accrue rent', lines: [line({ categoryId: CAT, debit: '100' }), line({ categoryId: CAT, credit: '90' })] };
    expect(validateDocumentForm(DOCUMENT_SPECS.manualEntry, unbalanced)).toEqual({});
    expect(documentTotals('manualEntry', unbalanced)).toEqual({ total: 100, debit: 100, credit: 90 });
    expect(manualEntryBody(unbalanced)).toEqual({
      postingDate: '2026-03-01',
      memo: 'Accrue rent',
      connectedBills: [],
      connectedInvoices: [],
      lineItems: [
        { categoryId: CAT, description: undefined, type: 'debit', amount: 100 },
        { categoryId: CAT, description: undefined, type: 'credit', amount: 90 },
      ],
    });
  });
});

describe('recurrence (spec §3, §5)', () => {
  const base = { start: '2026-03-01', interval: 'monthly' as const, end: 'never' as const, endDate: '', count: '' };
  it('asks for every detail and a positive whole count', () => {
    expect(validateRecurrence(base)).toEqual({});
    expect(validateRecurrence({ ...base, end: 'date' })).toEqual({ endDate: RECURRENCE_MESSAGES.details });
    expect(validateRecurrence({ ...base, end: 'count', count: '0' })).toEqual({ count: RECURRENCE_MESSAGES.count });
    expect(validateRecurrence({ ...base, start: '' })).toEqual({ start: 'Please fill all recurring details' });
  });
  it('sends the end as a date, a count or neither, with the end type the API reads (recurringEndType)', () => {
    expect(recurrenceBody(base)).toEqual({ recurringStartDate: '2026-03-01', interval: 'monthly', recurringEndType: 'never' });
    expect(recurrenceBody({ ...base, end: 'count', count: '12' })).toEqual({
      recurringStartDate: '2026-03-01',
      interval: 'monthly',
      recurringEndType: 'count',
      recurringCount: 12,
    });
    expect(recurrenceBody({ ...base, end: 'date', endDate: '2027-03-01' })).toEqual({
      recurringStartDate: '2026-03-01',
      interval: 'monthly',
      recurringEndType: 'date',
      recurringEndDate: '2027-03-01',
    });
  });
});

describe("recurrenceSummary: the view's line for a schedule", () => {
  const iso = (d: string) => d;
  const base = {
    isRecurredParent: true,
    recurringStartDate: '2026-11-28',
    recurringEndDate: '',
    interval: 'monthly',
    recurringEndType: 'count',
    recurringCount: 3,
    activity: 'Active',
    recurringSchedule: [],
    nextRecurrenceDate: '2026-12-28',
    recurredFromId: '',
  };
  it('says the interval, the start, the end, the activity and the next date', () => {
    expect(recurrenceSummary(base, iso)).toBe('Monthly from 2026-11-28, 3 times · Active · next 2026-12-28');
    expect(recurrenceSummary({ ...base, recurringEndType: 'date', recurringEndDate: '2027-03-01', interval: 'weekly' }, iso)).toBe(
      'Weekly from 2026-11-28, until 2027-03-01 · Active · next 2026-12-28',
    );
    expect(recurrenceSummary({ ...base, recurringEndType: 'never', activity: 'Stopped' }, iso)).toBe('Monthly from 2026-11-28, no end date · Stopped');
    expect(recurrenceSummary({ ...base, recurringCount: 1 }, iso)).toBe('Monthly from 2026-11-28, 1 time · Active · next 2026-12-28');
  });
  it('says a schedule made a document, and nothing for one that never recurred', () => {
    expect(recurrenceSummary({ ...base, isRecurredParent: false, recurredFromId: 'a' }, iso)).toBe('Made by a recurring schedule');
    expect(recurrenceSummary({ ...base, isRecurredParent: false }, iso)).toBeNull();
    expect(recurrenceSummary(undefined, iso)).toBeNull();
  });
});
