import { describe, expect, it } from 'vitest';
import { customerKeptMessage, vendorKeptMessage } from '../src/domain/party-delete.js';

describe('what keeps a party from being deleted', () => {
  it('nothing: the party may be deleted (null)', () => {
    expect(vendorKeptMessage({ transactions: 0, bills: 0, vendorCredits: 0 }, false)).toBeNull();
    expect(customerKeptMessage({ invoices: 0, creditMemos: 0 }, true)).toBeNull();
  });

  it('names each thing the vendor has, with its count, singular or plural', () => {
    expect(vendorKeptMessage({ transactions: 3, bills: 0, vendorCredits: 0 }, false)).toBe(
      'This vendor has 3 transactions, so it was made inactive instead of deleted',
    );
    expect(vendorKeptMessage({ transactions: 0, bills: 1, vendorCredits: 0 }, false)).toBe(
      'This vendor has 1 bill, so it was made inactive instead of deleted',
    );
    expect(vendorKeptMessage({ transactions: 0, bills: 0, vendorCredits: 1 }, false)).toBe(
      'This vendor has 1 vendor credit, so it was made inactive instead of deleted',
    );
    expect(vendorKeptMessage({ transactions: 1, bills: 2, vendorCredits: 0 }, false)).toBe(
      'This vendor has 1 transaction and 2 bills, so it was made inactive instead of deleted',
    );
    expect(vendorKeptMessage({ transactions: 1_250, bills: 1, vendorCredits: 22 }, false)).toBe(
      'This vendor has 1,250 transactions, 1 bill and 22 vendor credits, so it was made inactive instead of deleted',
    );
  });

  it('names invoices and credit memos of a customer', () => {
    expect(customerKeptMessage({ invoices: 1, creditMemos: 0 }, false)).toBe('This customer has 1 invoice, so it was made inactive instead of deleted');
    expect(customerKeptMessage({ invoices: 0, creditMemos: 2 }, false)).toBe('This customer has 2 credit memos, so it was made inactive instead of deleted');
    expect(customerKeptMessage({ invoices: 4, creditMemos: 1 }, false)).toBe(
      'This customer has 4 invoices and 1 credit memo, so it was made inactive instead of deleted',
    );
  });

  it('a party already inactive stays so, and the message does not claim a change', () => {
    expect(vendorKeptMessage({ transactions: 2, bills: 0, vendorCredits: 0 }, true)).toBe(
      'This vendor has 2 transactions, so it stays inactive instead of being deleted',
    );
    expect(customerKeptMessage({ invoices: 0, creditMemos: 1 }, true)).toBe('This customer has 1 credit memo, so it stays inactive instead of being deleted');
  });
});
