// The pure rules of payments other than bank transactions and of payment suggestions (issue #18 item 4).
import { describe, expect, it } from 'vitest';
import { cleanConnections, journalCapacity } from '../src/domain/connections.js';
import { rankSuggestions, suggestionScore } from '../src/domain/suggestions.js';

const AP = '3b5a7c1e-1111-4a2b-9c3d-00000000000a';
const AR = '3b5a7c1e-1111-4a2b-9c3d-00000000000b';
const CASH = '3b5a7c1e-1111-4a2b-9c3d-00000000000c';
const V = '3b5a7c1e-2222-4a2b-9c3d-000000000001';

describe('journalCapacity', () => {
  it('is the net debit to AP (bills) and the net credit to AR (invoices), never below 0', () => {
    expect(
      journalCapacity(
        [
          { categoryId: AP, direction: 'debit', amountCents: 150 },
          { categoryId: AP, direction: 'credit', amountCents: 20 },
          { categoryId: CASH, direction: 'credit', amountCents: 130 },
        ],
        AP,
        AR,
      ),
    ).toEqual({ billsCents: 130, invoicesCents: 0 });
    expect(
      journalCapacity(
        [
          { categoryId: CASH, direction: 'debit', amountCents: 70 },
          { categoryId: AR, direction: 'credit', amountCents: 70 },
        ],
        AP,
        AR,
      ),
    ).toEqual({ billsCents: 0, invoicesCents: 70 });
    expect(
      journalCapacity(
        [
          { categoryId: AP, direction: 'credit', amountCents: 5 },
          { categoryId: CASH, direction: 'debit', amountCents: 5 },
        ],
        AP,
        undefined,
      ),
    ).toEqual({ billsCents: 0, invoicesCents: 0 });
  });
});

describe('cleanConnections', () => {
  it("a bill takes journals and vendor credits; names each problem by its REST field; refuses a journal's lists", () => {
    const r = cleanConnections('bill', {
      manualEntries: [{ id: V.toUpperCase(), amountCents: 5n }],
      credits: [{ id: 'x', amountCents: 0 }, { id: V }],
      bills: [{ id: V, amountCents: 1 }],
    });
    expect(r.value.manualEntries).toEqual([{ id: V, amountCents: 5 }]);
    expect(r.problems).toEqual([
      { field: 'connectedVendorCredits.0.id', message: 'Connected vendor credit 1: id must be a UUID' },
      { field: 'connectedVendorCredits.0.amount', message: 'Connected vendor credit 1: amount must be greater than 0' },
      { field: 'connectedVendorCredits.1.amount', message: 'Connected vendor credit 2: amount is required' },
      { field: 'connectedBills', message: 'connectedBills is not accepted on a bill' },
    ]);
    expect(
      cleanConnections('invoice', {
        credits: [
          { id: V, amountCents: 1 },
          { id: V, amountCents: 1 },
        ],
      }).problems,
    ).toEqual([{ field: 'connectedCreditMemos.1.id', message: 'Connected credit memo 2: is listed twice' }]);
    expect(cleanConnections('manual_entry', { bills: [{ id: V, amountCents: 3 }], invoices: [{ id: V, amountCents: 4 }] }).value).toMatchObject({
      bills: [{ id: V, amountCents: 3 }],
      invoices: [{ id: V, amountCents: 4 }],
    });
  });
});

describe('suggestionScore / rankSuggestions', () => {
  const t = { amountCents: -12050, date: '2026-04-15', vendorId: V, merchantName: 'HARBOR-FREIGHT' };
  const doc = (id: string, remainingCents: number, dueDate: string | null, partyId: string | null, partyName: string) => ({
    id,
    remainingCents,
    date: '2026-01-01',
    dueDate,
    partyId,
    partyName,
  });
  it("amount 60 (within 0.01) or 25 (within 5%), party 25 (the vendor or the merchant's name), date 15 (7 days) or 5 (30 days)", () => {
    expect(suggestionScore(t, doc('a', 12051, '2026-04-20', V, 'x'))).toEqual({ score: 100, reasons: ['amount', 'party', 'date'] });
    expect(suggestionScore({ ...t, vendorId: '' }, doc('a', 12500, '2026-05-10', null, 'Harbor Freight'))).toEqual({
      score: 55,
      reasons: ['amount within 5%', 'party', 'date within 30 days'],
    });
    expect(suggestionScore(t, doc('a', 99_999, null, null, 'Other'))).toEqual({ score: 0, reasons: [] });
  });
  it('keeps documents matched by amount or party (not by date alone), nothing already paid, best first, at most 5', () => {
    const docs = [
      doc('date-only', 99_999, '2026-04-15', null, 'Other'),
      doc('paid', 0, '2026-04-15', V, 'x'),
      doc('party', 99_999, null, V, 'x'),
      doc('exact', 12050, '2026-04-15', null, 'y'),
    ];
    expect(rankSuggestions(t, docs).map((r) => r.doc.id)).toEqual(['exact', 'party']);
    expect(
      rankSuggestions(
        t,
        Array.from({ length: 8 }, (_, i) => doc(`d${i}`, 12050, null, null, 'y')),
      ),
    ).toHaveLength(5);
  });
});
