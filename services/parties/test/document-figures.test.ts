import { describe, expect, it } from 'vitest';
import { isOverdue, openCents, partyFigures, utcToday, type DocumentFacts } from '../src/domain/document-figures.js';

const doc = (o: Partial<DocumentFacts>): DocumentFacts => ({
  partyId: 'v1',
  date: '2026-01-01',
  dueDate: '2026-02-01',
  totalCents: 10_000,
  paidCents: 0,
  voided: false,
  ...o,
});

describe('document figures', () => {
  it('what is owed never goes below 0 (overpaid owes nothing)', () => {
    expect(openCents({ totalCents: 10_000, paidCents: 2_500 })).toBe(7_500);
    expect(openCents({ totalCents: 10_000, paidCents: 12_000 })).toBe(0);
  });

  it('overdue: owed and the due date is before today; on the due date itself it is not yet', () => {
    expect(isOverdue(doc({}), '2026-02-02')).toBe(true);
    expect(isOverdue(doc({}), '2026-02-01')).toBe(false);
    expect(isOverdue(doc({}), '2026-01-15')).toBe(false);
    expect(isOverdue(doc({ paidCents: 10_000 }), '2026-03-01')).toBe(false);
    expect(isOverdue(doc({ voided: true }), '2026-03-01')).toBe(false);
    // No due date: due on its date (on receipt).
    expect(isOverdue(doc({ dueDate: null, date: '2026-01-10' }), '2026-01-11')).toBe(true);
    expect(isOverdue(doc({ dueDate: null, date: '2026-01-10' }), '2026-01-10')).toBe(false);
  });

  it('per party: live count and amount, due count and what is owed, overdue amount; voided documents count nowhere', () => {
    const docs = [
      doc({ totalCents: 10_000, paidCents: 4_000 }), // owed 60, overdue
      doc({ totalCents: 5_000, dueDate: '2099-01-01' }), // owed 50, not yet due
      doc({ totalCents: 3_000, paidCents: 3_000 }), // paid
      doc({ totalCents: 2_000, voided: true }),
      doc({ partyId: 'v2', totalCents: 700 }),
    ];
    const f = partyFigures(docs, '2026-06-01');
    expect(f.get('v1')).toEqual({ count: 3, amountCents: 18_000, dueCount: 2, dueAmountCents: 11_000, overdueAmountCents: 6_000 });
    expect(f.get('v2')).toEqual({ count: 1, amountCents: 700, dueCount: 1, dueAmountCents: 700, overdueAmountCents: 700 });
    // The same documents a day before the due date: nothing overdue.
    expect(partyFigures(docs, '2026-01-31').get('v1')?.overdueAmountCents).toBe(0);
    expect(partyFigures([doc({ voided: true })], '2026-06-01').has('v1')).toBe(false);
  });

  it('today is the UTC date', () => {
    expect(utcToday(new Date('2026-11-28T23:30:00-05:00'))).toBe('2026-11-29');
  });
});
