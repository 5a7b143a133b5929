import type { PartyCredit } from '@ledgerline/api';
import { creditRestBody, partyCreditOf } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import {
  CREDIT_MESSAGES,
  CREDIT_SPECS,
  amountCents,
  creditBody,
  creditForm,
  creditScreenFromSearch,
  creditSearch,
  emptyLine,
  formTotal,
  hasErrors,
  serverErrorOnForm,
  validateCreditForm,
  type CreditForm,
} from '../src/credits/state';

const vendor = CREDIT_SPECS.vendor;
const memo = CREDIT_SPECS.customer;
const ID = '0b6d3f2e-3c1a-4d5e-9f10-1a2b3c4d5e6f';
const CAT = '5f4e3d2c-1b0a-4f9e-8d7c-6b5a4f3e2d1c';

const saved: PartyCredit = {
  id: ID,
  paymentDate: '2026-03-04',
  description: 'Returned chairs',
  refNo: 'CM-7',
  party: { id: 'p1', name: 'Acme' },
  totalAmount: 150.5,
  appliedAmount: 50,
  runningBalance: 100.5,
  lineItems: [
    { id: 'l1', description: 'Chairs', categoryId: CAT, amount: 100.5 },
    { id: 'l2', description: '', categoryId: CAT, amount: 50 },
  ],
  journalEntryId: 'j',
  createdOn: '',
  updatedOn: '',
};

describe('credit screens in the URL (spec §2: vendorCredit, creditMemo, mode)', () => {
  it('reads the open credit and its mode, and writes them back with the tab', () => {
    expect(creditScreenFromSearch(vendor, new URLSearchParams(`tab=vendor-credit&vendorCredit=${ID.toUpperCase()}`))).toEqual({ openId: ID, mode: 'view' });
    expect(creditScreenFromSearch(memo, new URLSearchParams(`creditMemo=${ID}&mode=edit`))).toEqual({ openId: ID, mode: 'edit' });
    expect(creditScreenFromSearch(memo, new URLSearchParams('mode=create'))).toEqual({ openId: null, mode: 'create' });
    expect(creditSearch(vendor, { openId: ID, mode: 'view' }).toString()).toBe(`tab=vendor-credit&vendorCredit=${ID}`);
    expect(creditSearch(memo, { openId: ID, mode: 'edit' }).toString()).toBe(`tab=credit-memo&creditMemo=${ID}&mode=edit`);
    expect(creditSearch(memo, { openId: null, mode: 'create' }).toString()).toBe('tab=credit-memo&mode=create');
    expect(creditSearch(vendor, { openId: null, mode: 'idle' }).toString()).toBe('tab=vendor-credit');
  });

  it('ignores a malformed id and the other kind’s key', () => {
    expect(creditScreenFromSearch(vendor, new URLSearchParams('vendorCredit=not-an-id'))).toEqual({ openId: null, mode: 'idle' });
    expect(creditScreenFromSearch(vendor, new URLSearchParams(`creditMemo=${ID}`))).toEqual({ openId: null, mode: 'idle' });
  });
});

describe('credit form (spec §3, §5)', () => {
  it('starts dated today with one empty line, and edits a saved credit with its amounts as typed', () => {
    const fresh = creditForm(null, '2026-11-28');
    expect(fresh).toMatchObject({ paymentDate: '2026-11-28', partyId: '', lines: [{ description: '', categoryId: '', amount: '' }] });
    const edit = creditForm(saved, '2026-11-28');
    expect(edit).toMatchObject({ paymentDate: '2026-03-04', partyId: 'p1', description: 'Returned chairs', refNo: 'CM-7' });
    expect(edit.lines.map((l) => l.amount)).toEqual(['100.50', '50.00']);
    expect(formTotal(edit)).toBe(150.5);
  });

  it('reads amounts in cents: positive, at most 2 decimals', () => {
    expect(amountCents('12.34')).toBe(1234);
    expect(amountCents('0.1')).toBe(10);
    expect(amountCents('.5')).toBe(50);
    expect(amountCents('0')).toBeNull();
    expect(amountCents('1.234')).toBeNull();
    expect(amountCents('')).toBeNull();
    expect(amountCents('abc')).toBeNull();
    // 0.1 + 0.2 in cents is exact
    expect(
      formTotal({
        ...creditForm(null, '2026-01-01'),
        lines: [
          { ...emptyLine(), amount: '0.1' },
          { ...emptyLine(), amount: '0.2' },
        ],
      }),
    ).toBe(0.3);
  });

  it('names every problem at once: the party, the date, the lines and each line’s category and amount', () => {
    const form: CreditForm = { paymentDate: '', partyId: '', description: '', refNo: 'x'.repeat(101), lines: [emptyLine()] };
    const e = validateCreditForm(memo, form);
    expect(e).toMatchObject({
      partyId: 'Customer is required',
      paymentDate: CREDIT_MESSAGES.dateRequired,
      lines: CREDIT_MESSAGES.linesRequired,
      refNo: CREDIT_MESSAGES.refNoLength,
    });
    const line = { ...emptyLine(), description: 'Refund' };
    const e2 = validateCreditForm(vendor, { ...form, refNo: 'x'.repeat(101), partyId: 'v', paymentDate: '2026-01-02', lines: [line, emptyLine()] });
    expect(e2.partyId).toBeUndefined();
    expect(e2.refNo).toBeUndefined(); // a vendor credit has no reference number
    expect(e2.lines).toBeUndefined(); // one line is filled in; the blank one is left out
    expect(e2.line?.[line.key]).toEqual({ categoryId: CREDIT_MESSAGES.categoryRequired, amount: CREDIT_MESSAGES.amount });
    expect(hasErrors(e2)).toBe(true);
  });

  it('sends the filled lines only, in dollars, the party under its kind’s name', () => {
    const form: CreditForm = {
      paymentDate: '2026-02-03',
      partyId: 'party',
      description: '  Refund ',
      refNo: ' R1 ',
      lines: [{ ...emptyLine(), description: ' Desk ', categoryId: CAT, amount: '19.90' }, emptyLine()],
    };
    expect(hasErrors(validateCreditForm(vendor, form))).toBe(false);
    const v = creditBody(vendor, form);
    expect(v).toEqual({
      paymentDate: '2026-02-03',
      partyId: 'party',
      description: 'Refund',
      refNo: '',
      lineItems: [{ description: 'Desk', categoryId: CAT, amount: 19.9 }],
    });
    expect(creditRestBody('vendor', v)).toEqual({ paymentDate: '2026-02-03', vendorId: 'party', description: 'Refund', lineItems: v.lineItems });
    const m = creditBody(memo, form);
    expect(creditRestBody('customer', m)).toEqual({
      paymentDate: '2026-02-03',
      customerId: 'party',
      refNo: 'R1',
      description: 'Refund',
      lineItems: m.lineItems,
    });
  });

  it('puts a server refusal on the field it names (lineItems.N is the N-th line sent)', () => {
    const filled = { ...emptyLine(), categoryId: CAT, amount: '5' };
    const form: CreditForm = { paymentDate: '2026-02-03', partyId: 'p', description: '', refNo: '', lines: [emptyLine(), filled] };
    expect(serverErrorOnForm(vendor, form, 'vendorId', 'Vendor not found')).toEqual({ partyId: 'Vendor not found' });
    expect(serverErrorOnForm(memo, form, 'customerId', 'Customer not found')).toEqual({ partyId: 'Customer not found' });
    expect(serverErrorOnForm(vendor, form, 'lineItems.0.categoryId', 'Category not found')).toEqual({
      line: { [filled.key]: { categoryId: 'Category not found' } },
    });
    expect(serverErrorOnForm(vendor, form, 'refNo', 'x')).toBeNull();
    expect(serverErrorOnForm(vendor, form, undefined, 'x')).toBeNull();
  });
});

describe('the API shapes of both kinds read as one', () => {
  it('takes the vendor or the customer as the party, and a vendor credit’s refNo as empty', () => {
    const v = partyCreditOf({
      id: ID,
      paymentDate: '2026-01-01',
      description: '',
      vendor: { id: 'v', name: 'V' },
      totalAmount: 1,
      appliedAmount: 0,
      runningBalance: 1,
      lineItems: [],
      journalEntryId: '',
      version: 1,
      createdOn: '',
      updatedOn: '',
    });
    expect(v.party).toEqual({ id: 'v', name: 'V' });
    expect(v.refNo).toBe('');
    const c = partyCreditOf({
      id: ID,
      paymentDate: '2026-01-01',
      description: '',
      refNo: 'R',
      customer: { id: 'c', name: 'C' },
      totalAmount: 1,
      appliedAmount: 0,
      runningBalance: 1,
      lineItems: [],
      journalEntryId: '',
      version: 1,
      createdOn: '',
      updatedOn: '',
    });
    expect(c.party).toEqual({ id: 'c', name: 'C' });
    expect(c.refNo).toBe('R');
  });
});
